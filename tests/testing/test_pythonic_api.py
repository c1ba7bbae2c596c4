"""The Python-facing API: explicit listener signatures, empty tuples for empty streams,
deployment handles, asyncio deliveries and pandas interop."""
from __future__ import annotations

import asyncio
import threading

import pytest

from engine import Deployment, Engine

SCHEMA = "create schema T(k string, v int)"


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.epl(SCHEMA)
    yield e
    e.close()


def test_listener_signature_is_chosen_by_keyword_never_guessed(engine):
    stmt = engine.epl("select v from T")
    got = []
    # default arguments are the lambda's own: it gets (new, old) only
    stmt.add_listener(lambda new, old, tag="two", extra=None: got.append((tag, extra, len(new))))
    stmt.add_listener(lambda new, old, s, e: got.append(("esper", s.name, e is engine)), signature="esper")

    @stmt.on_update
    def plain(new, old):
        got.append(("decorated", old))

    @stmt.on_update(signature="esper")
    def esper(new, old, statement, eng):
        got.append(("decorated-esper", statement is stmt))
    engine.send({"k": "a", "v": 1}, "T")
    assert got == [("two", None, 1), ("esper", stmt.name, True), ("decorated", ()),
                   ("decorated-esper", True)]


def test_four_required_arguments_without_the_keyword_are_refused(engine):
    stmt = engine.epl("select v from T")
    with pytest.raises(TypeError, match="signature='esper'"):
        stmt.add_listener(lambda new, old, s, e: None)
    with pytest.raises(ValueError):
        stmt.add_listener(lambda new, old: None, signature="java")


def test_empty_streams_are_empty_tuples(engine):
    stmt = engine.epl("select irstream v from T#length(1)")
    calls = []
    stmt.add_listener(lambda new, old: calls.append((new, old)))
    engine.send({"k": "a", "v": 1}, "T")
    lone = engine.epl("select v from T")
    lone_calls = []
    lone.add_listener(lambda new, old: lone_calls.append(old))
    engine.send({"k": "a", "v": 2}, "T")
    assert calls[0][1] == () and len(calls[1][1]) == 1
    assert lone_calls == [()]


def test_none_for_empty_compatibility_switch():
    engine = Engine(time="simulated", none_for_empty=True)
    engine.epl(SCHEMA)
    calls = []
    engine.epl("select v from T").add_listener(lambda new, old: calls.append(old))
    engine.epl("select irstream v from T#length(1)").add_listener(lambda new, old: calls.append(old))
    engine.send({"k": "a", "v": 1}, "T")
    assert calls == [None, None]


def test_deploy_returns_a_handle_that_undeploys(engine):
    dep = engine.deploy("@name('a') select v from T; @name('b') select k from T")
    assert isinstance(dep, Deployment) and len(dep) == 2 and dep[0].name == "a"
    assert dep == [engine.statement("a"), engine.statement("b")]
    assert dep.statement("b") is dep[1] and dep.is_deployed
    dep.undeploy()
    assert not dep.is_deployed and all(s.is_destroyed for s in dep)
    assert [s.name for s in engine.statements] == ["stmt-0"]
    dep.undeploy()   # idempotent
    assert engine.deploy("select v from T").id == dep.id + 1


def test_async_deliveries_in_the_loop():
    async def main():
        engine = Engine(time="simulated")
        engine.epl(SCHEMA)
        stmt = engine.epl("select irstream v from T#length(1)")
        got = []
        async with stmt.deliveries(maxsize=8) as stream:
            for v in (1, 2):
                engine.send({"k": "a", "v": v}, "T")
            stmt.destroy()
            async for new, old in stream:
                got.append(([e["v"] for e in new], [e["v"] for e in old]))
        return got
    assert asyncio.run(main()) == [([1], []), ([2], [1])]


def test_async_deliveries_are_bounded():
    async def main():
        engine = Engine(time="simulated")
        engine.epl(SCHEMA)
        stmt = engine.epl("select v from T")
        stream = stmt.deliveries(maxsize=2)
        for v in range(5):                    # on the loop's thread: the oldest are dropped
            engine.send({"k": "a", "v": v}, "T")
        stream.close()
        got = [new[0]["v"] async for new, _ in stream]
        return got, stream.dropped
    got, dropped = asyncio.run(main())
    assert got == [3, 4] and dropped == 3


def test_async_deliveries_from_another_thread_wait_for_room():
    async def main():
        engine = Engine(time="simulated")
        engine.epl(SCHEMA)
        stmt = engine.epl("select v from T")
        stream = stmt.deliveries(maxsize=1)

        def produce():
            for v in range(20):
                engine.send({"k": "a", "v": v}, "T")
            stream.close()
        t = threading.Thread(target=produce)
        t.start()
        got = [new[0]["v"] async for new, _ in stream]
        await asyncio.to_thread(t.join)
        return got, stream.dropped
    got, dropped = asyncio.run(main())
    assert got == list(range(20)) and dropped == 0


def test_pandas_in_and_out(engine):
    pd = pytest.importorskip("pandas")
    stmt = engine.epl("select k, sum(v) as total from T#keepall group by k")
    engine.send_many(pd.DataFrame({"k": ["a", "b", "a", None], "v": [1, 2, 3, 4]}), "T")
    df = stmt.to_dataframe()
    assert list(df.columns) == ["k", "total"]
    assert sorted(df.itertuples(index=False, name=None), key=repr) == sorted(
        [("a", 4), ("b", 2), (None, 4)], key=repr)
