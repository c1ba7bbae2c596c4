"""The batch loop's inline type check (codegen.check_lines: one exact-type test per property
first, send's per-property test on a miss) against the general chain's check: random events
with values of the declared types, of other types, subclasses, None and missing properties,
sent in batches to a fused statement alone on its type: the same deliveries and the same
refusals (error type and message) at the same event."""
from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from hypothesis import given, settings, strategies as st

from engine import Engine
from tests.perf_fused.script_runner import rows_of

SCHEMA = "create schema S(s string, d double, i int, b boolean, m BigDecimal, ts long) starttimestamp ts"
STATEMENTS = ("select s, sum(d) as x, count(*) as n from S#groupwin(s)#length(2) group by s",
              "select avg(i) as a, count(m) as c from S#length(3)",
              "select count(*) as n, sum(d) as x from S")


class Str(str):
    pass


class Int(int):
    pass


VALUES = {
    "s": ("a", "b", Str("a"), 1, None),
    "d": (1.5, 2, True, Int(3), "x", None, 2.5),
    "i": (1, Int(2), 2.0, True, None, 7),
    "b": (True, False, 1, None),
    "m": (Decimal("1.5"), 2, 2.5, "1", None),
    "ts": (5, 6.5, datetime(2020, 1, 1, tzinfo=timezone.utc), "t", None),
}
event = st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in VALUES.items()})


def run(text: str, batches: list, fusion: bool) -> list:
    engine = Engine(time="simulated")
    engine.fusion = fusion
    engine.epl(SCHEMA)
    log: list = []
    engine.epl(text).add_listener(lambda new, old: log.append(rows_of(new)))
    for batch in batches:
        try:
            engine.send_many([dict(e) for e in batch], "S")
        except Exception as exc:
            log.append(("raised", type(exc).__name__, str(exc)))
    return log


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(STATEMENTS), st.lists(st.lists(event, max_size=8), min_size=1, max_size=4))
def test_the_inline_check_refuses_what_send_refuses(text: str, batches: list) -> None:
    assert repr(run(text, batches, True)) == repr(run(text, batches, False))
