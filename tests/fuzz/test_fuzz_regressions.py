"""Texts the fuzzer found crashing, kept as regressions: each compiles and runs, or is an
EPL error; never another exception."""
import pytest

from engine import Engine
from engine.errors import EngineError
from epl.errors import EPLError, EPLValidationError
from recording import Rec


@pytest.fixture()
def engine():
    e = Engine(time="simulated")
    e.epl("create schema A(id string, v int, p double, l long)")
    e.epl("create schema Iv(id int, s long, e long) starttimestamp s endtimestamp e")
    return e


def feed(engine):
    for i, ev in enumerate([{"id": "a", "v": 1, "p": 1.5, "l": 10}, {"id": "b", "v": None, "p": None, "l": None},
                            {"id": "c", "v": 3, "p": 2.5, "l": 20}]):
        engine.send(ev, "A")
        engine.advance_time(1000 * (i + 1))


@pytest.mark.parametrize("text", [
    "select countever(*) as c from A order by v desc",                       # order-by, no event
    "select minby(l) as c0 from A#firstunique(id) output every 2 events order by l desc",
    "select sum(v) as s from A#length(3) having v < 400",                    # having, no event
    "select sum(v) as s from A#length(3) having v < 400 output every 2 events order by v",
    "select count(*) as c from A#ext_timed(l, 2 sec)",                     # null timestamps
    "select count(*) as c from A#ext_timed_batch(l, 2 sec)",
    "select * from A(v in [p:p))",                                          # unchecked values
])
def test_runs(engine, text):
    Rec(engine.epl(text))
    feed(engine)


def test_filter_sees_values_before_the_event_check(engine):
    rec = Rec(engine.epl("select id from A(v in [p:p))"))
    with pytest.raises(EngineError):
        Rec(engine.epl("select id from A"))
        engine.send({"id": "x", "v": "not a number", "p": 1.0, "l": 1}, "A")
    assert rec.pop() == []


def test_interval_algebra_on_a_fractional_timestamp_is_null(engine):
    rec = Rec(engine.epl("select a.before(b) as r from Iv#lastevent as a, Iv#length(3) as b "
                         "where a.id != b.id"))
    engine.send({"id": 1, "s": 0, "e": 100}, "Iv")
    engine.check_events = False
    engine.send({"id": 2, "s": 2.5, "e": 80}, "Iv")
    assert rec.pop() == [[{"r": None}]]


@pytest.mark.parametrize("text", [
    "select * from pattern [every timer:interval(1e308 sec)]",
    "select * from pattern [A where timer:within(1e400 sec)]",
    "select * from pattern [every timer:interval(0/0 sec)]",
    "select * from A output every 1e400 sec",
    "create context H coalesce by consistent_hash_crc32(id) from A granularity 9223372036854775807L preallocate",
])
def test_refused(engine, text):
    with pytest.raises(EPLValidationError):
        engine.epl(text)


def test_mutated_texts_do_not_crash(engine):
    for text in ["@name('s1') select-sym from A", "select irstream sum(v) as s from A#length(3) sum having(v) < 400"]:
        try:
            Rec(engine.epl(text))
        except EPLError:
            continue
        feed(engine)
