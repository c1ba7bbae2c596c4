"""send_many's timed loop of a fused grouped `#time` window: rows go at once to the one
listener (its `_deliver_now`), and the expiry it fires in place schedules the next with the
same handle. Against the calls one by one: a subscriber the listener sets while a row is
delivered gets that row, listeners added and removed midway, the schedules left behind."""
from __future__ import annotations

from typing import Any

import pytest

from engine import Engine
from engine.fused import is_fused

TEXT = "select k, avg(x) as a from T#time(100 msec) group by k"


class _Sub:
    def __init__(self, log: list) -> None:
        self.log = log

    def update(self, *row: Any) -> None:
        self.log.append(("sub", row))


def _run(batched: bool, change: str) -> tuple:
    engine = Engine(time="simulated")
    engine.epl("create schema T(k string, v int, x double)")
    stmt = engine.epl(TEXT)
    assert is_fused(stmt)
    log: list = []
    calls = [0]

    def listener(new: Any, old: Any) -> None:
        calls[0] += 1
        log.append(("l", engine.now, [r.to_dict() for r in new]))
        if calls[0] == 5 and change == "subscriber":
            stmt.subscriber = _Sub(log)
        elif calls[0] == 5 and change == "second":
            stmt.add_listener(lambda n, o: log.append(("second", engine.now, len(n))))
        elif calls[0] == 9 and change == "second":
            stmt.remove_all_listeners()
            stmt.add_listener(listener)
    stmt.add_listener(listener)
    evs = [{"k": "ab"[i % 2], "v": i, "x": float(i)} for i in range(40)]
    times = [i * 7 for i in range(40)]
    if batched:
        engine.send_many(evs, "T", times=times)
    else:
        for t, e in zip(times, evs):
            engine.advance_time(t)
            engine.send(e, "T")
    engine.advance_time(engine.now + 50)
    return log, engine.schedule_count()


@pytest.mark.parametrize("change", ["none", "subscriber", "second"])
def test_direct_rows_as_the_calls_one_by_one(change: str) -> None:
    batched, single = _run(True, change), _run(False, change)
    assert batched == single
    if change == "subscriber":
        assert any(e[0] == "sub" for e in batched[0])
