"""The runtime API as a user meets it: statements, listeners, subscribers, lifecycle, errors."""
from __future__ import annotations

import dataclasses
import logging

import pytest

from engine import Engine, EventTypeError, StatementState, TimeError
from epl import EPLSyntaxError, EPLValidationError


def test_filter_and_insert_stream(engine, recorder):
    engine.epl("create schema Withdrawal(account string, amount int)")
    s = engine.epl("select account, amount from Withdrawal(amount >= 200)")
    s.add_listener(recorder)
    for amount in (100, 300, 200):
        engine.send({"account": "a", "amount": amount}, "Withdrawal")
    assert recorder.new == [{"account": "a", "amount": 300}, {"account": "a", "amount": 200}]


def test_on_update_decorator_and_listener_order(engine):
    engine.epl("create schema A(x int)")
    s = engine.epl("select x from A")
    order = []

    @s.on_update
    def first(new, old):
        order.append("first")

    s.add_listener(lambda new, old: order.append("second"))
    engine.send({"x": 1}, "A")
    assert order == ["first", "second"]


def test_failing_listener_is_isolated_and_signalled(engine, caplog):
    engine.epl("create schema A(x int)")
    s = engine.epl("select x from A")
    seen, errors = [], []

    def bad(new, old):
        raise RuntimeError("boom")

    s.add_listener(bad)
    s.add_listener(lambda new, old: seen.append(new[0]["x"]))
    engine.signals.listener_error.connect(lambda sender, **kw: errors.append(kw["error"]), weak=False)
    with caplog.at_level(logging.ERROR):
        engine.send({"x": 1}, "A")
        engine.send({"x": 2}, "A")
    assert seen == [1, 2]
    assert len(errors) == 2 and isinstance(errors[0], RuntimeError)


def test_subscriber_gets_row_values(engine):
    engine.epl("create schema A(x int, y string)")
    s = engine.epl("select irstream x, y from A#length(1)")

    class Sub:
        def __init__(self):
            self.calls = []

        def update_start(self, n_new, n_old):
            self.calls.append(("start", n_new, n_old))

        def update(self, x, y):
            self.calls.append(("new", x, y))

        def update_rstream(self, x, y):
            self.calls.append(("old", x, y))

        def update_end(self):
            self.calls.append(("end",))

    sub = Sub()
    s.subscriber = sub
    engine.send({"x": 1, "y": "a"}, "A")
    engine.send({"x": 2, "y": "b"}, "A")
    assert sub.calls == [("start", 1, 0), ("new", 1, "a"), ("end",),
                         ("start", 1, 1), ("new", 2, "b"), ("old", 1, "a"), ("end",)]


def test_iterate_current_window(engine):
    engine.epl("create schema A(x int)")
    s = engine.epl("select x from A#length(2)")
    for x in (1, 2, 3):
        engine.send({"x": x}, "A")
    assert [r["x"] for r in s] == [2, 3]


def test_stop_start_destroy(engine, recorder):
    engine.epl("create schema A(x int)")
    s = engine.epl("select x from A")
    s.add_listener(recorder)
    created = []
    engine.signals.statement_stopped.connect(lambda sender, statement: created.append(statement.state), weak=False)
    s.stop()
    engine.send({"x": 1}, "A")
    s.start()
    engine.send({"x": 2}, "A")
    assert recorder.new == [{"x": 2}]
    s.destroy()
    assert s.state is StatementState.DESTROYED
    engine.send({"x": 3}, "A")
    assert recorder.new == [{"x": 2}]
    assert engine.filter_count() == 0


def test_syntax_error_names_position(engine):
    with pytest.raises(EPLSyntaxError) as info:
        engine.epl("select case when 1>2 from A")
    err = info.value
    assert err.line == 1 and err.column > 0
    assert "from" in str(err)


def test_unknown_type_and_property_leave_nothing_registered(engine):
    engine.epl("create schema A(x int)")
    before = len(engine.statements)
    with pytest.raises(EPLValidationError, match="Nope"):
        engine.epl("select * from Nope")
    with pytest.raises(EPLValidationError, match="zz"):
        engine.epl("select zz from A")
    with pytest.raises(EPLValidationError, match="foo"):
        engine.epl("select * from A#foo(3)")
    assert len(engine.statements) == before
    assert engine.filter_count() == 0


def test_insert_into_type_is_removed_when_statement_fails(engine):
    engine.epl("create schema A(x int)")
    with pytest.raises(EPLValidationError):
        engine.deploy("insert into B select x from A; select nothing from B")
    assert engine.types.find("B") is None
    assert engine.statements and all(s.kind == "create-schema" for s in engine.statements)


def test_unknown_event_type_and_wrong_event(engine):
    engine.epl("create schema A(x int)")
    with pytest.raises(EventTypeError, match="Nope"):
        engine.send({"x": 1}, "Nope")
    with pytest.raises(EventTypeError, match="dict"):
        engine.send(42, "A")
    with pytest.raises(EventTypeError, match="type name"):
        engine.send({"x": 1})


def test_missing_map_property_is_null(engine, recorder):
    engine.epl("create schema A(x int, y int)")
    engine.epl("select x, y from A").add_listener(recorder)
    engine.send({"x": 1}, "A")
    assert recorder.new == [{"x": 1, "y": None}]


@dataclasses.dataclass
class Trade:
    symbol: str
    price: float


@dataclasses.dataclass
class BigTrade(Trade):
    size: int = 0


def test_dataclass_events_and_subtypes(engine, recorder):
    engine.register_type(Trade)
    engine.epl("select symbol, price from Trade(price > 10)").add_listener(recorder)
    engine.send(Trade("IBM", 20.0))
    engine.send(BigTrade("MSFT", 30.0, 5))   # a subclass reaches statements on its base
    engine.send(Trade("X", 5.0))
    assert recorder.new == [{"symbol": "IBM", "price": 20.0}, {"symbol": "MSFT", "price": 30.0}]


def test_select_star_passes_the_event_itself(engine):
    engine.register_type(Trade)
    got = []
    engine.epl("select * from Trade").add_listener(lambda new, old: got.append(new[0].underlying))
    t = Trade("IBM", 1.0)
    engine.send(t)
    assert got == [t] and got[0] is t


def test_map_supertypes(engine, recorder):
    engine.deploy("create schema Base(id int); create schema Sub(extra string) inherits Base")
    engine.epl("select id from Base").add_listener(recorder)
    engine.send({"id": 7, "extra": "x"}, "Sub")
    assert recorder.new == [{"id": 7}]


def test_nested_indexed_mapped_properties(engine, recorder):
    engine.register_type("Purchase", {"id": "int", "items": "int[]", "attrs": "map"})
    engine.epl("select items[1] as item2, attrs('color') as color from Purchase").add_listener(recorder)
    engine.send({"id": 1, "items": [5, 6], "attrs": {"color": "red"}}, "Purchase")
    assert recorder.new == [{"item2": 6, "color": "red"}]


def test_registered_function_only(engine, recorder):
    engine.epl("create schema A(x int)")
    with pytest.raises(EPLValidationError, match="twice"):
        engine.epl("select twice(x) from A")
    engine.register_function("twice", lambda v: v * 2)
    engine.epl("select twice(x) as t from A").add_listener(recorder)
    engine.send({"x": 4}, "A")
    assert recorder.new == [{"t": 8}]


def test_time_cannot_go_backwards(engine):
    engine.advance_time(1000)
    with pytest.raises(TimeError):
        engine.advance_time(500)


def test_deploy_module_and_priority():
    engine = Engine(time="simulated", prioritized_execution=True)
    stmts = engine.deploy("""
        create schema A(x int);
        @name('low') select x from A;
        @name('high') @priority(5) select x from A
    """)
    assert [s.name for s in stmts][1:] == ["low", "high"]
    order = []
    engine.statement("low").add_listener(lambda n, o: order.append("low"))
    engine.statement("high").add_listener(lambda n, o: order.append("high"))
    engine.send({"x": 1}, "A")
    # results are dispatched in processing order: higher priority first
    assert order == ["high", "low"]


def test_system_time_engine_runs_its_clock():
    import time
    e = Engine(time="system", resolution_ms=10)
    try:
        e.epl("create schema A(x int)")
        got = []
        e.epl("select irstream x from A#time(50 msec)").add_listener(lambda n, o: got.append((n, o)))
        e.send({"x": 1}, "A")
        deadline = time.time() + 3
        while len(got) < 2 and time.time() < deadline:
            time.sleep(0.01)
        assert len(got) == 2 and got[1][1][0]["x"] == 1
    finally:
        e.close()


def test_send_from_several_threads_loses_nothing(engine):
    import threading
    engine.epl("create schema A(x int)")
    stmt = engine.epl("select count(*) as c from A")
    counts = []
    stmt.add_listener(lambda new, old: counts.append(new[0]["c"]))

    def worker(base):
        for i in range(500):
            engine.send({"x": base + i}, "A")

    threads = [threading.Thread(target=worker, args=(k * 1000,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(counts) == 2000 and sorted(counts) == list(range(1, 2001))


def test_event_sent_from_a_listener_is_processed_after_the_current_one(engine):
    engine.epl("create schema A(x int)")
    order = []
    s = engine.epl("select x from A")

    def listener(new, old):
        x = new[0]["x"]
        order.append(x)
        if x < 3:
            engine.send({"x": x + 1}, "A")

    s.add_listener(listener)
    engine.send({"x": 1}, "A")
    assert order == [1, 2, 3]


def test_wrong_property_type_names_property_and_type(engine):
    engine.epl("create schema W(account string, amount int, rate double)")
    engine.send({"account": "a", "amount": "abc"}, "W")    # no statement reads W yet: discarded
    engine.epl("select * from W")
    with pytest.raises(EventTypeError, match="property 'amount' expects an integer, got str 'abc'"):
        engine.send({"account": "a", "amount": "abc"}, "W")
    with pytest.raises(EventTypeError, match="'account' expects a string"):
        engine.send({"account": 1, "amount": 1}, "W")
    with pytest.raises(EventTypeError, match="'amount' expects an integer, got bool"):
        engine.send({"account": "a", "amount": True}, "W")
    engine.send({"account": "a", "amount": 1, "rate": 2}, "W")     # an int is a fine double
    with pytest.raises(EventTypeError, match="'amount' expects an integer"):
        engine.send_many([{"account": "a", "amount": 1}, {"account": "a", "amount": 1.5}], "W")
    unchecked = Engine(time="simulated", check_events=False)
    unchecked.epl("create schema W(amount int)")
    unchecked.epl("select * from W")
    unchecked.send({"amount": "abc"}, "W")                          # the caller opted out


def test_priority_and_drop_need_prioritized_execution():
    """As in Esper, @priority and @drop take effect only with prioritized execution on."""
    for prioritized, expected in ((False, ["low", "high"]), (True, ["high"])):
        engine = Engine(time="simulated", prioritized_execution=prioritized)
        engine.epl("create schema A(x int)")
        order = []
        engine.epl("@name('low') select x from A").add_listener(lambda n, o: order.append("low"))
        engine.epl("@name('high') @priority(5) @drop select x from A").add_listener(
            lambda n, o: order.append("high"))
        engine.send({"x": 1}, "A")
        assert order == expected
