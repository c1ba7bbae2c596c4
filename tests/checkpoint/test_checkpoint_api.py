"""The checkpoint API: header and version checks, receivers, names, system time, misuse."""
from __future__ import annotations

import json
import struct
import time

import pytest

from engine import Engine
from engine.checkpoint import FORMAT_VERSION, MAGIC, CheckpointError, info


def _engine() -> Engine:
    e = Engine(time="simulated", start_time=0)
    e.epl("create schema S(k string, v int)")
    e.epl("@name('sum') select k, sum(v) as s from S#length(3) group by k")
    return e


def _rewrite_header(data: bytes, **changes) -> bytes:
    fmt, n = struct.unpack_from(">HI", data, len(MAGIC))
    start = len(MAGIC) + 6
    header = json.loads(data[start:start + n])
    fmt = changes.pop("format", fmt)
    header.update(changes)
    head = json.dumps(header).encode()
    return MAGIC + struct.pack(">HI", fmt, len(head)) + head + data[start + n:]


def test_header_is_readable_without_unpickling() -> None:
    e = _engine()
    e.advance_time(5_000)
    i = info(e.checkpoint(meta={"events": 12, "offset": 345}))
    assert (i.format_version, i.time_mode, i.now) == (FORMAT_VERSION, "simulated", 5_000)
    assert i.statements == ("stmt-0", "sum")
    assert i.meta == {"events": 12, "offset": 345}
    assert Engine.restore(e.checkpoint(meta={"x": 1})).checkpoint_info.meta == {"x": 1}


@pytest.mark.parametrize("bad, message", [
    (b"not a checkpoint at all", "bad magic"),
    (MAGIC + b"\x00", "Truncated"),
])
def test_garbage_is_refused(bad: bytes, message: str) -> None:
    with pytest.raises(CheckpointError, match=message):
        Engine.restore(bad)


def test_version_mismatches_are_refused_with_a_clear_error() -> None:
    data = _engine().checkpoint()
    with pytest.raises(CheckpointError, match="format version 99"):
        Engine.restore(_rewrite_header(data, format=99))
    with pytest.raises(CheckpointError, match="epl-engine 0.0.1.*versions must match"):
        Engine.restore(_rewrite_header(data, engine_version="0.0.1"))
    with pytest.raises(CheckpointError, match="Python 2.7"):
        Engine.restore(_rewrite_header(data, python="2.7"))
    assert Engine.restore(_rewrite_header(data)).statement("sum")      # untouched: fine


def test_meta_must_be_json() -> None:
    with pytest.raises(CheckpointError, match="JSON"):
        _engine().checkpoint(meta={"x": object()})


def test_listeners_and_subscribers_are_not_state_and_come_back_by_name() -> None:
    e = _engine()
    seen: list = []
    e.statement("sum").add_listener(lambda n, o: seen.append(("old", n[0]["s"])))

    class Sub:
        def __init__(self) -> None:
            self.rows: list = []

        def update(self, k, s) -> None:
            self.rows.append((k, s))
    e.statement("sum").set_subscriber(Sub())
    e.send({"k": "a", "v": 1}, "S")
    data = e.checkpoint()

    bare = Engine.restore(data)
    assert bare.statement("sum").listeners == [] and bare.statement("sum").subscriber is None
    bare.send({"k": "a", "v": 2}, "S")          # nobody listening: nothing delivered anywhere
    assert seen == [("old", 1)]

    new: list = []
    sub = Sub()
    r = Engine.restore(data, listeners={"sum": [lambda n, o: new.append(n[0]["s"])]},
                       subscribers={"sum": sub})
    r.send({"k": "a", "v": 2}, "S")
    assert new == [3] and sub.rows == [("a", 3)]
    r.statement("sum").add_listener(lambda n, o: new.append(-n[0]["s"]))
    r.send({"k": "a", "v": 4}, "S")
    assert new == [3, 7, -7]
    with pytest.raises(CheckpointError, match="No statement named 'nope'"):
        Engine.restore(data, listeners={"nope": print})


def test_signal_receivers_are_not_state() -> None:
    e = _engine()
    got: list = []
    e.signals.statement_created.connect(lambda *a, **k: got.append(1), weak=False)
    r = Engine.restore(e.checkpoint())
    r.epl("select * from S")
    assert got == []


def test_names_and_the_automatic_name_counter_continue() -> None:
    a, b = _engine(), _engine()
    a.epl("select * from S").destroy()
    b.epl("select * from S").destroy()
    r = Engine.restore(a.checkpoint())
    assert [s.name for s in r.statements] == [s.name for s in b.statements]
    # whatever rule names statements, the restored engine goes on as the original would
    assert r.epl("select * from S").name == b.epl("select * from S").name


def test_a_restored_engine_checkpoints_again_and_keeps_going() -> None:
    e = _engine()
    out: list = []
    e.send({"k": "a", "v": 1}, "S")
    r1 = Engine.restore(e.checkpoint())
    r1.send({"k": "a", "v": 2}, "S")
    r1.epl("@name('cnt') select count(*) as c from S#time(1 sec)")
    r1.send({"k": "b", "v": 2}, "S")
    r2 = Engine.restore(r1.checkpoint(), listeners={"sum": lambda n, o: out.append(n[0]["s"]),
                                                     "cnt": lambda n, o: out.append(("c", n[0]["c"]))})
    r2.send({"k": "a", "v": 10}, "S")
    assert out == [12, ("c", 2)]      # length(3): a=1 has left
    r2.advance_time(2_000)
    r2.send({"k": "a", "v": 1}, "S")
    assert out[-1] == ("c", 1)


def test_checkpoint_from_inside_a_listener_is_refused() -> None:
    e = _engine()
    errors: list = []

    def listener(n, o) -> None:
        try:
            e.checkpoint()
        except CheckpointError as exc:
            errors.append(str(exc))
    e.statement("sum").add_listener(listener)
    e.send({"k": "a", "v": 1}, "S")
    assert errors and "between sends" in errors[0]


def test_variables_named_windows_and_tables_are_state() -> None:
    e = _engine()
    e.epl("create variable int lim = 5")
    e.epl("create window W#keepall as S")
    e.epl("insert into W select * from S")
    e.epl("create table T(k string primary key, n count(*))")
    e.epl("into table T select count(*) as n from S group by k")
    for i in range(3):
        e.send({"k": "a" if i else "b", "v": i}, "S")
    e.set_variable("lim", 9)
    r = Engine.restore(e.checkpoint())
    assert r.get_variable("lim") == 9
    assert sorted(x["v"] for x in r.execute_query("select * from W")) == [0, 1, 2]
    assert sorted((x["k"], x["n"]) for x in r.execute_query("select * from T")) == [("a", 2), ("b", 1)]


def test_system_time_engine_gets_a_new_timer_on_restore() -> None:
    e = Engine(time="system", resolution_ms=20)
    try:
        e.epl("create schema S(k string)")
        e.epl("@name('w') select irstream k from S#time(100 msec)")
        e.send({"k": "a"}, "S")
        data = e.checkpoint()
    finally:
        e.close()
    assert info(data).resolution_ms == 20
    old: list = []
    r = Engine.restore(data, listeners={"w": lambda n, o: old.extend(o or [])})
    try:
        assert r._timer is not None
        deadline = time.monotonic() + 5
        while not old and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [b["k"] for b in old] == ["a"]      # the restored window expired its event
    finally:
        r.close()


def test_isolated_services_keep_their_statements_time_and_windows() -> None:
    def build() -> tuple[Engine, list]:
        e = _engine()
        e.epl("@name('iso') select irstream k from S#time(1 sec)")
        iso = e.isolated("i1")
        iso.add(e.statement("iso"))
        iso.advance_time(100)
        iso.send({"k": "x", "v": 1}, "S")
        return e, []
    a, out_a = build()
    a.statement("iso").add_listener(lambda n, o: out_a.append(([b["k"] for b in n or []], [b["k"] for b in o or []])))
    out_r: list = []
    r = Engine.restore(build()[0].checkpoint(), listeners={
        "iso": lambda n, o: out_r.append(([b["k"] for b in n or []], [b["k"] for b in o or []]))})
    for eng in (a, r):
        iso = eng.isolated("i1")
        eng.send({"k": "main", "v": 1}, "S")       # the main engine's stream: not the isolated one
        iso.send({"k": "y", "v": 2}, "S")
        iso.advance_time(1_200)
    assert out_r == out_a == [(["y"], []), ([], ["x", "y"])]
