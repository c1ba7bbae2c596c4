"""The engine's fast paths behave as the general ones: `send_many` as a loop of `send`
(results, errors, events sent from listeners, statements created mid-batch), and the
single-stream shortcuts (PassthroughSink, unshaped rows) as the full result-set path."""
from __future__ import annotations

from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine, EventBean, EventTypeError

STATEMENTS = (
    "select * from Tick(symbol='A' and price > 5)",
    "select irstream * from Tick#length(2)",
    "select rstream symbol from Tick#length(1)",
    "select symbol, avg(price) from Tick#groupwin(symbol)#length(2) group by symbol",
    "select irstream symbol, sum(price) as s from Tick#length(3) group by symbol",
    "select symbol, sum(price) from Tick#length(3) group by symbol having sum(price) > 4",
    "select symbol, price, count(*) from Tick#length(2) group by symbol",
    "select count(*), max(price) from Tick(price < 8)",
    "select distinct symbol from Tick#length(3) where price > 2",
    "insert into Big select symbol, price from Tick(price >= 7)",
    "select * from Big",
    "select * from pattern [every a=Tick(symbol='A') -> b=Tick(symbol='B')]",
)

ticks = st.lists(st.fixed_dictionaries({"symbol": st.sampled_from("ABC"),
                                        "price": st.integers(0, 9).map(float)}), max_size=25)


def plain(row) -> dict:
    """A delivered row as plain values (pattern rows hold the matched events)."""
    return {k: plain(v) if isinstance(v, EventBean) else v for k, v in row.to_dict().items()}


def run(events, batched: bool, statements=STATEMENTS):
    engine = Engine(time="simulated")
    engine.epl("create schema Tick(symbol string, price double)")
    calls = []
    for i, text in enumerate(statements):
        engine.epl(text).add_listener(
            lambda new, old, i=i: calls.append((i, [plain(r) for r in new or ()],
                                                [plain(r) for r in old or ()])))
    if batched:
        engine.send_many(events, "Tick")
    else:
        for e in events:
            engine.send(e, "Tick")
    return calls, engine


@settings(max_examples=150, deadline=None)
@given(ticks)
def test_send_many_delivers_what_send_does(events):
    assert run(events, True)[0] == run(events, False)[0]


@settings(max_examples=50, deadline=None)
@given(ticks)
def test_send_many_of_mappings_and_beans(events):
    ordered = [OrderedDict(e) for e in events]       # a Mapping, not a dict: the general path
    assert run(ordered, True)[0] == run(events, False)[0]


def test_a_bad_event_raises_after_the_ones_before_it():
    events = [{"symbol": "A", "price": 6.0}, {"symbol": "A", "price": "six"}, {"symbol": "A", "price": 7.0}]
    results = []
    for batched in (True, False):
        engine = Engine(time="simulated")
        engine.epl("create schema Tick(symbol string, price double)")
        seen = []
        engine.epl("select * from Tick").add_listener(lambda new, old: seen.extend(new))
        with pytest.raises(EventTypeError) as err:
            if batched:
                engine.send_many(events, "Tick")
            else:
                for e in events:
                    engine.send(e, "Tick")
        results.append((len(seen), str(err.value)))
    assert results[0] == results[1] and results[0][0] == 1
    with pytest.raises(EventTypeError):
        Engine(time="simulated").send_many([{"a": 1}], "Nope")
    Engine(time="simulated").send_many([], "Nope")       # nothing sent, nothing checked


def test_events_sent_and_statements_created_by_listeners_mid_batch():
    def scenario(batched: bool):
        engine = Engine(time="simulated")
        engine.epl("create schema Tick(symbol string, price double)")
        log = []
        late = []

        def on_a(new, old):
            log.append(("a", new[0]["price"]))
            engine.send({"symbol": "B", "price": new[0]["price"] + 100}, "Tick")
            if not late:      # a statement created while the batch runs sees the rest of it
                s = engine.epl("select * from Tick(symbol='C')")
                s.add_listener(lambda n, o: log.append(("c", n[0]["price"])))
                late.append(s)
        engine.epl("select * from Tick(symbol='A')").add_listener(on_a)
        engine.epl("select * from Tick(symbol='B')").add_listener(lambda n, o: log.append(("b", n[0]["price"])))
        events = [{"symbol": s, "price": float(i)} for i, s in enumerate("CACBAC")]
        if batched:
            engine.send_many(events, "Tick")
        else:
            for e in events:
                engine.send(e, "Tick")
        return log
    assert scenario(True) == scenario(False)
    assert ("c", 2.0) in scenario(True) and ("c", 0.0) not in scenario(True)


def test_send_many_from_a_listener_is_queued_like_send():
    engine = Engine(time="simulated")
    engine.epl("create schema Tick(symbol string, price double)")
    order = []
    s = engine.epl("select * from Tick")

    def listener(new, old):
        order.append(new[0]["price"])
        if new[0]["price"] == 0:
            engine.send_many([{"symbol": "A", "price": 1.0}, {"symbol": "A", "price": 2.0}], "Tick")
            order.append("after")
    s.add_listener(listener)
    engine.send_many([{"symbol": "A", "price": 0.0}, {"symbol": "A", "price": 3.0}], "Tick")
    assert order == [0.0, "after", 1.0, 2.0, 3.0]


def test_unchecked_engine_takes_what_it_is_given():
    engine = Engine(time="simulated", check_events=False)
    engine.epl("create schema Tick(symbol string, price double)")
    seen = []
    engine.epl("select * from Tick").add_listener(lambda new, old: seen.extend(new))
    engine.send_many([{"symbol": 1, "price": "x"}], "Tick")
    assert len(seen) == 1


def test_select_star_rows_are_the_events_and_lists_are_the_listeners_own():
    engine = Engine(time="simulated")
    engine.epl("create schema Tick(symbol string, price double)")
    got = []

    def mutate(new, old):
        got.append((list(new), list(old or ())))
        new.clear()                 # must not disturb the window or other statements
    engine.epl("select irstream * from Tick#length(1)").add_listener(mutate)
    events = [{"symbol": "A", "price": 1.0}, {"symbol": "B", "price": 2.0}]
    engine.send_many(events, "Tick")
    assert [[b.underlying for b in n] for n, _ in got] == [[events[0]], [events[1]]]
    assert [b.underlying for b in got[1][1]] == [events[0]]
