"""Who hears what, in which order: statements in priority-then-filter-tree order, each listener
of a statement in registration order, `insert into` events and events sent from listeners
processed after the current event's dispatch, in the order they were produced. Checked
against a brute-force model on random statement sets and events, through `send` and
`send_many` (whose shortcuts deliver a lone matching `select *` statement directly)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine

FILTERS = {            # EPL filter -> the same test in Python
    "symbol='A'": lambda e: e["symbol"] == "A",
    "symbol='B'": lambda e: e["symbol"] == "B",
    "price > 5": lambda e: e["price"] > 5,
    "symbol in ('A', 'C') and price < 3": lambda e: e["symbol"] in ("A", "C") and e["price"] < 3,
}
ROOT_INDEX = {"symbol='A'": "symbol =", "symbol='B'": "symbol =", "price > 5": "price >",
              "symbol in ('A', 'C') and price < 3": "symbol in"}
# kind -> (EPL select part, whether its listeners hear the Tick, whether it routes to Big)
KINDS = {
    "plain": ("select *", True, False),
    "irstream": ("select irstream *", True, False),
    "rstream": ("select rstream *", False, False),
    "insert": ("insert into Big select *", True, True),
}

statement = st.tuples(st.sampled_from(sorted(FILTERS)), st.sampled_from(sorted(KINDS)),
                      st.sampled_from([0, 0, 5]),                  # @priority
                      st.integers(0, 2),                           # listeners
                      st.booleans())                               # listener 0 echoes
ticks = st.lists(st.fixed_dictionaries({"symbol": st.sampled_from("ABC"),
                                        "price": st.integers(0, 9)}), max_size=20)


def model(statements, events):
    """What Esper's processing order delivers: (statement, listener, type, symbol, price)."""
    calls = []
    # Esper's filter tree: each filter hangs under its first condition's index at the type's
    # root, the root's indexes in the order they were made; statements sharing a filter share
    # its node (creation order there), filters under one index here never match together
    first = {}
    for i, s in enumerate(statements):
        first.setdefault(ROOT_INDEX[s[0]], i)
    order = sorted(range(len(statements)),
                   key=lambda i: (-statements[i][2], first[ROOT_INDEX[statements[i][0]]], i))
    for e in events:
        routed, dispatch = [], []
        for i in order:
            flt, kind, _, listeners, echo = statements[i]
            if FILTERS[flt](e):
                _, hears, routes = KINDS[kind]
                if routes:
                    routed.append(("Big", e))
                if hears and listeners:
                    dispatch.append((i, listeners, echo))
        for i, listeners, echo in dispatch:
            for k in range(listeners):
                calls.append((i, k, "Tick", e["symbol"], e["price"]))
                if k == 0 and echo and e["price"] == 0:
                    routed.append(("Echo", e))
        for kind, r in routed:        # Big and Echo have one listening statement each
            calls.append((kind, 0, kind, r["symbol"], r["price"]))
    return calls


def run(statements, events, batched):
    engine = Engine(time="simulated", prioritized_execution=True)
    engine.epl("create schema Tick(symbol string, price int)")
    engine.epl("create schema Echo(symbol string, price int)")
    calls = []
    for i, (flt, kind, prio, listeners, echo) in enumerate(statements):
        text = ("@priority(5) " if prio else "") + f"{KINDS[kind][0]} from Tick({flt})"
        stmt = engine.epl(text)
        for k in range(listeners):
            stmt.add_listener(_listener(engine, calls, i, k, echo))
    for name in ("Big", "Echo"):
        if name == "Big" and not any(KINDS[s[1]][2] for s in statements):
            continue
        engine.epl(f"select * from {name}").add_listener(
            lambda new, old, name=name: calls.extend(
                (name, 0, name, b["symbol"], b["price"]) for b in new))
    if batched:
        engine.send_many(events, "Tick")
    else:
        for e in events:
            engine.send(e, "Tick")
    return calls


def _listener(engine, calls, i, k, echo):
    def listener(new, old):    # two parameters: four would make it an Esper-style listener
        for b in new or ():
            calls.append((i, k, "Tick", b["symbol"], b["price"]))
            if k == 0 and echo and b["price"] == 0:
                engine.send({"symbol": b["symbol"], "price": 0}, "Echo")
    return listener


@settings(max_examples=200, deadline=None)
@given(st.lists(statement, min_size=1, max_size=6), ticks, st.booleans())
def test_delivery_order_matches_the_model(statements, events, batched):
    assert run(statements, events, batched) == model(statements, events)


def _engine_with_a_statement():
    engine = Engine(time="simulated")
    engine.epl("create schema Tick(symbol string, price int)")
    return engine, engine.epl("select * from Tick(symbol='A')")


def test_a_listener_added_by_a_listener_hears_from_the_next_event_on():
    engine, stmt = _engine_with_a_statement()
    heard = []

    def second(new, old):
        heard.append(("second", new[0]["price"]))

    def first(new, old):
        heard.append(("first", new[0]["price"]))
        if second not in stmt.listeners:
            stmt.add_listener(second)
    stmt.add_listener(first)
    engine.send_many([{"symbol": "A", "price": 1}, {"symbol": "A", "price": 2}], "Tick")
    assert heard == [("first", 1), ("first", 2), ("second", 2)]


def test_a_listener_removing_itself_is_not_called_again_and_the_others_still_are():
    engine, stmt = _engine_with_a_statement()
    heard = []

    def once(new, old):
        heard.append("once")
        stmt.remove_listener(once)
    stmt.add_listener(once)
    stmt.add_listener(lambda new, old: heard.append("always"))
    for price in (1, 2):
        engine.send({"symbol": "A", "price": price}, "Tick")
    assert heard == ["once", "always", "always"]


def test_a_subscriber_and_four_argument_listener_beside_a_listener_all_hear():
    engine, stmt = _engine_with_a_statement()
    heard = []
    stmt.add_listener(lambda new, old: heard.append(("listener", new[0]["price"])))
    engine.send({"symbol": "A", "price": 1}, "Tick")

    class Subscriber:
        def update(self, row):
            heard.append(("subscriber", row["price"]))
    stmt.subscriber = Subscriber()
    stmt.add_listener(lambda new, old, s, e: heard.append(("esper", s.name, new[0]["price"])),
                      signature="esper")
    engine.send_many([{"symbol": "A", "price": 2}], "Tick")
    assert heard == [("listener", 1), ("listener", 2), ("esper", stmt.name, 2), ("subscriber", 2)]


@pytest.mark.parametrize("fusion", [True, False])
@pytest.mark.parametrize("batch", [False, True])
def test_a_subscriber_the_lone_listener_sets_gets_that_row_as_with_two_listeners(fusion, batch):
    """Statement._dispatch reads the subscriber after the listeners: the direct delivery to a
    lone listener does the same."""
    got = {}
    for listeners in (1, 2):
        engine, stmt = _engine_with_a_statement()
        engine.fusion = fusion
        heard = got[listeners] = []

        class Subscriber:
            def update(self, row):
                heard.append(("subscriber", row["price"]))

        def listen(new, old):
            heard.append(("listener", new[0]["price"]))
            if stmt.subscriber is None:
                stmt.subscriber = Subscriber()
        stmt.add_listener(listen)
        if listeners == 2:
            stmt.add_listener(lambda new, old: None)
        events = [{"symbol": "A", "price": p} for p in (1, 2)]
        if batch:
            engine.send_many(events, "Tick")
        else:
            for ev in events:
                engine.send(ev, "Tick")
    assert got[1] == got[2] == [("listener", 1), ("subscriber", 1), ("listener", 2), ("subscriber", 2)]


def test_a_failing_lone_listener_is_signalled_and_delivery_goes_on():
    engine, stmt = _engine_with_a_statement()
    errors = []
    engine.signals.listener_error.connect(lambda sender, **kw: errors.append(str(kw["error"])),
                                          weak=False)

    def boom(new, old):
        raise ValueError(f"bad {new[0]['price']}")
    stmt.add_listener(boom)
    engine.send_many([{"symbol": "A", "price": 1}, {"symbol": "A", "price": 2}], "Tick")
    engine.send({"symbol": "A", "price": 3}, "Tick")
    assert errors == ["bad 1", "bad 2", "bad 3"]


# -- dispatch phases and named-window consumers (docs/dispatch-order.md) ---------------------------

def _order_engine(*epl: str):
    engine = Engine(time="simulated")
    engine.advance_time(0)
    engine.epl("create schema S0(id int, p00 string)")
    engine.epl("create schema S1(id int, p10 string)")
    calls: list = []
    for text in epl:
        stmt = engine.epl(text)
        if stmt.name.startswith("L"):
            stmt.add_listener(lambda new, old, n=stmt.name: calls.append(
                (n, [b.to_dict() for b in new or ()], [b.to_dict() for b in old or ()])))
    return engine, calls


def test_stream_statement_before_earlier_pattern_statement():
    engine, calls = _order_engine(
        "@name('Lpat') select s.id as id from pattern [every s=S0(p00 in (select p10 from S1#lastevent))]",
        "@name('Lstream') select id from S0(p00 in (select p10 from S1#lastevent))")
    engine.send({"id": 10, "p10": "A"}, "S1")
    engine.send({"id": 1, "p00": "A"}, "S0")
    assert [c[0] for c in calls] == ["Lstream", "Lpat"]


def test_pattern_and_order_by_and_self_join_statements_come_after_plain_ones():
    engine, calls = _order_engine(
        "@name('Lpat') select * from pattern [every s=S0]",
        "@name('Lorder') select id from S0 order by id",
        "@name('Lself') select a.id as id from S0#lastevent as a, S0#lastevent as b",
        "@name('Ljoin') select a.id as id from S0#lastevent as a, S1#lastevent as b",
        "@name('Lplain') select id from S0")
    engine.send({"id": 1, "p10": "x"}, "S1")
    engine.send({"id": 1, "p00": "A"}, "S0")
    assert [c[0] for c in calls] == ["Ljoin", "Lplain", "Lpat", "Lorder", "Lself"]


def test_two_pattern_statements_completed_by_one_event_in_creation_order():
    engine, calls = _order_engine(
        "@name('L2') select a.id as a, b.id as b from pattern [every a=S0 -> b=S1]",
        "@name('L1') select b.id as b from pattern [every b=S1]",
        "@name('L3') select a.id as a from pattern [a=S0 and b=S1]")
    engine.send({"id": 1, "p00": "A"}, "S0")
    engine.send({"id": 2, "p10": "B"}, "S1")
    assert [c[0] for c in calls] == ["L2", "L1", "L3"]


def test_on_delete_listener_before_the_consumers_remove_stream():
    engine, calls = _order_engine(
        "create window W#keepall as S0",
        "insert into W select * from S0",
        "@name('Lcons') select irstream id from W",
        "@name('Ldel') on S1 as s1 delete from W as w where w.id = s1.id",
        "@name('Lcons2') select irstream count(*) as n from W")
    engine.send({"id": 1, "p00": "A"}, "S0")
    assert [c[0] for c in calls] == ["Lcons", "Lcons2"]
    calls.clear()
    engine.send({"id": 1, "p10": "x"}, "S1")
    assert calls == [("Ldel", [{"id": 1, "p00": "A"}], []),
                     ("Lcons", [], [{"id": 1}]),
                     ("Lcons2", [{"n": 0}], [{"n": 1}])]


def test_on_select_and_delete_before_consumers_and_window_statement_first():
    engine, calls = _order_engine(
        "@name('Lwin') create window W#keepall as S0",
        "insert into W select * from S0",
        "@name('Lcons') select irstream id from W",
        "@name('Lsel') on S1 as s1 select and delete w.id as id from W as w")
    engine.send({"id": 1, "p00": "A"}, "S0")
    assert [c[0] for c in calls] == ["Lwin", "Lcons"]
    calls.clear()
    engine.send({"id": 9, "p10": "x"}, "S1")
    assert [c[0] for c in calls] == ["Lwin", "Lsel", "Lcons"]


def test_consumers_of_an_insert_into_stream():
    engine, calls = _order_engine(
        "create schema X(id int)",
        "@name('Lpat') select x.id as id from pattern [every x=X]",
        "@name('Lins') insert into X select id from S0",
        "@name('Lself') select a.id as id from X#lastevent as a, X#lastevent as b",
        "@name('Lplain') select id from X",
        "@name('Lplain2') select id from X(id > 0)")
    engine.send({"id": 1, "p00": "A"}, "S0")
    # the filtered consumer before the plain one (Esper's filter tree: index entries before
    # the type's root), the pattern and the self-join last
    assert [c[0] for c in calls] == ["Lins", "Lplain2", "Lplain", "Lpat", "Lself"]


def test_filtered_statements_take_an_event_before_plain_ones():
    engine, calls = _order_engine(
        "@name('Lplain') select id from S0",
        "@name('Lfilt') select id from S0(id > 0)",
        "@name('Lplain2') select id from S0")
    engine.send({"id": 1, "p00": "A"}, "S0")
    assert [c[0] for c in calls] == ["Lfilt", "Lplain", "Lplain2"]


def _names(calls):
    return [c[0] for c in calls]


def test_a_deeper_filter_takes_the_event_before_the_broader_one_it_extends():
    """Esper's filter tree: the node of `id = 1` asks its indexes (where `p00 = 'A'` hangs)
    before it hands out its own handles, whatever the creation order."""
    engine, calls = _order_engine(
        "@name('Lbroad') select id from S0(id = 1)",
        "@name('Ldeep') select id from S0(id = 1, p00 = 'A')")
    engine.send({"id": 1, "p00": "A"}, "S0")
    assert _names(calls) == ["Ldeep", "Lbroad"]


def test_a_filter_joins_the_layout_earlier_filters_made():
    """`p00 = 'A'` came first, so the later `id = 1 and p00 = 'A'` goes under its node (Esper
    reuses a node's index that one of the remaining conditions fits) and is asked first."""
    engine, calls = _order_engine(
        "@name('Lp') select id from S0(p00 = 'A')",
        "@name('Lboth') select id from S0(id = 1 and p00 = 'A')")
    engine.send({"id": 1, "p00": "A"}, "S0")
    assert _names(calls) == ["Lboth", "Lp"]


def test_range_filters_in_order_of_their_bounds():
    """A greater-than index hands out its entries in ascending order of the bound."""
    engine, calls = _order_engine(
        "@name('Lgt5') select id from S0(id > 5)",
        "@name('Lgt1') select id from S0(id > 1)",
        "@name('Llt9') select id from S0(id < 9)",
        "@name('Llt7') select id from S0(id < 7)")
    engine.send({"id": 6, "p00": "A"}, "S0")
    assert _names(calls) == ["Lgt1", "Lgt5", "Llt7", "Llt9"]


def test_indexes_of_a_node_in_the_order_they_were_made():
    engine, calls = _order_engine(
        "@name('Lp') select id from S0(p00 = 'A')",
        "@name('Lid') select id from S0(id = 1)",
        "@name('Lp2') select id from S0(p00 = 'A')")
    engine.send({"id": 1, "p00": "A"}, "S0")
    assert _names(calls) == ["Lp", "Lp2", "Lid"]
