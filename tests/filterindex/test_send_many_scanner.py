"""send_many's batch scanner in the engine against a brute-force model of filter matching
(hypothesis): random statements (many sharing one constant, many constants on one
property), random batches with wrongly typed values and non-mappings among them, listeners
that create and destroy statements in the middle of a batch, with `check_events` on and off.
The same script through per-event `send` must give the same deliveries."""
from __future__ import annotations

from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import Engine
from engine.errors import EventTypeError

SCHEMA = "create schema T(sym string, v double, i int)"


def _num(x: Any) -> bool:
    return type(x) in (int, float)


# (filter text, what it means for an event dict); wrongly typed values (a string `v`, a
# number `sym`) meet comparisons the way EPL filters meet them: no match, no error
FILTERS: list[tuple[str, Callable[[dict], bool]]] = [
    ("sym = 'a'", lambda e: e.get("sym") == "a"),
    ("sym = 'b'", lambda e: e.get("sym") == "b"),
    ("sym = 'c'", lambda e: e.get("sym") == "c"),
    ("sym = 'z'", lambda e: e.get("sym") == "z"),
    ("v > 1", lambda e: _num(e.get("v")) and e["v"] > 1),
    ("sym = 'a' and v > 0", lambda e: e.get("sym") == "a" and _num(e.get("v")) and e["v"] > 0),
    ("sym in ('a', 'c')", lambda e: e.get("sym") in ("a", "c")),
    ("v between 0 and 2", lambda e: _num(e.get("v")) and 0 <= e["v"] <= 2),
    ("sym != 'a'", lambda e: e.get("sym") is not None and e["sym"] != "a"),
    ("i = 1", lambda e: e.get("i") == 1),
    ("", lambda e: True),
]

events = st.fixed_dictionaries(
    {"sym": st.sampled_from(["a", "b", "c", "d", None, 5, ["a"]]),
     "v": st.sampled_from([0.5, 1.5, 2.0, -1.0, None, "x"]),
     "i": st.sampled_from([0, 1, None])})
batch_items = st.one_of(events, events, events, events, st.just(42))
# an action runs when statement 0 (never destroyed) gets the k-th event: ("create", filter),
# or ("destroy", None): the newest other live statement the event does not reach (one it
# reaches may still wait for its listener call)
actions = st.dictionaries(st.integers(0, 40), st.one_of(
    st.tuples(st.just("create"), st.integers(0, len(FILTERS) - 1)),
    st.tuples(st.just("destroy"), st.none())), max_size=4)
statements = st.lists(st.integers(0, len(FILTERS) - 1), min_size=1, max_size=12)


def _wrong(e: dict) -> bool:
    return isinstance(e.get("v"), str) or isinstance(e.get("sym"), (int, list))


def _destroyed(live: dict, e: dict) -> Any:
    """The statement a destroy action removes: the newest other one `e` does not reach."""
    for sid in sorted(live, reverse=True):
        if sid != 0 and not FILTERS[live[sid]][1](e):
            return sid
    return None


def model(first: list[int], batch: list, acts: dict, check: bool) -> tuple[list, bool]:
    """(per event, its position and the statements it reaches; whether send_many raises)."""
    live = dict(enumerate(first))           # statement number -> filter
    made = len(first)
    log: list = []
    for k, e in enumerate(batch):
        if not isinstance(e, dict):
            return log, True        # statement 0 is live: the event is refused
        wanted = {sid for sid, f in live.items() if FILTERS[f][1](e)}
        if not wanted:
            continue
        if check and _wrong(e):
            return log, True
        log.append((k, wanted))
        act = acts.get(k)
        if act is not None and 0 in wanted:
            if act[0] == "create":
                live[made] = act[1]
                made += 1
            else:
                live.pop(_destroyed(live, e), None)
    return log, False


def run(first: list[int], batch: list, acts: dict, check: bool, per_event: bool) -> tuple[list, bool]:
    """(deliveries in order as (statement number, event position); whether it raised)."""
    engine = Engine(time="simulated", check_events=check)
    engine.epl(SCHEMA)
    log: list = []
    position = {id(e): k for k, e in enumerate(batch)}
    live: dict = {}          # statement number -> filter
    stmts: dict = {}

    def add(sid: int, f: int) -> None:
        text, _ = FILTERS[f]
        stmt = engine.epl(f"select * from T({text})" if text else "select * from T")
        live[sid], stmts[sid] = f, stmt

        def listener(new, old):
            for row in new:
                k = position[id(row.underlying)]
                log.append((sid, k))
                act = acts.get(k)
                if sid == 0 and act is not None:
                    if act[0] == "create":
                        add(len(stmts), act[1])
                    else:
                        gone = _destroyed(live, row.underlying)
                        if gone is not None:
                            del live[gone]
                            stmts[gone].destroy()
        stmt.add_listener(listener)

    for sid, f in enumerate(first):
        add(sid, f)
    try:
        if per_event:
            for e in batch:
                engine.send(e, "T")
        else:
            engine.send_many(batch, "T")
    except EventTypeError:
        return log, True
    return log, False


def grouped(log: list) -> list:
    out: list = []
    for sid, k in log:
        if out and out[-1][0] == k:
            out[-1][1].add(sid)
        else:
            out.append((k, {sid}))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(statements, st.lists(batch_items, max_size=40), actions, st.booleans())
def test_send_many_delivers_what_the_model_matches(first, batch, acts, check):
    many, raised = run(first, batch, acts, check, per_event=False)
    assert (grouped(many), raised) == model(first, batch, acts, check)
    # the order among the statements one event reaches is the filter tree's
    # (docs/dispatch-order.md): per-event send is the reference for it
    assert (many, raised) == run(first, batch, acts, check, per_event=True)


@pytest.mark.parametrize("check", [True, False])
def test_many_statements_on_equal_and_distinct_constants(check):
    # 30 statements on 'S7', 300 on symbols no event carries, and one on every event
    engine = Engine(time="simulated", check_events=check)
    engine.epl(SCHEMA)
    got: list = []
    for k in range(30):
        engine.epl("select * from T(sym = 'S7')").add_listener(
            lambda new, old, k=k: got.append(("s7", k, new[0]["v"])))
    for k in range(300):
        engine.epl(f"select * from T(sym = 'X{k}')").add_listener(
            lambda new, old, k=k: got.append(("x", k, new[0]["v"])))
    batch = [{"sym": s, "v": float(n), "i": 0}
             for n, s in enumerate(["S7", "S8", "X3", None, "S7", "X299"] * 50)]
    engine.send_many(batch, "T")
    want = []
    for e in batch:
        if e["sym"] == "S7":
            want += [("s7", k, e["v"]) for k in range(30)]
        elif e["sym"] in ("X3", "X299"):
            want.append(("x", int(e["sym"][1:]), e["v"]))
    assert got == want
