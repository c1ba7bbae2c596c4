"""An insert-into loop (a statement inserting into its own input) cannot stall the engine:
past engine.engine.ROUTE_LIMIT routed events for one event the rest is dropped, reported
through the `route_limit` signal; the engine goes on."""
import time

from engine import Engine
from recording import Rec


def test_self_insert_loop_is_cut():
    e = Engine(time="simulated")
    e.epl("create schema A(v int)")
    e.epl("insert into A select v + 1 as v from A")
    cut = []
    e.signals.route_limit.connect(lambda sender, **kw: cut.append(kw), weak=False)
    t = time.perf_counter()
    e.send({"v": 0}, "A")
    assert time.perf_counter() - t < 30
    assert len(cut) == 1 and cut[0]["dropped"] >= 1
    rec = Rec(e.epl("select count(*) as c from A"))
    e.send({"v": 0}, "A")                  # the engine still works (and cuts again)
    assert rec.pop()[0] == [{"c": 1}]
    assert len(cut) == 2


def test_hash_context_cannot_preallocate_without_bound():
    import pytest

    from epl.errors import EPLValidationError
    e = Engine(time="simulated")
    e.epl("create schema S(k string)")
    for g in ("9223372036854775807L", "2147483648", "1000000"):
        with pytest.raises(EPLValidationError):
            e.epl(f"create context H coalesce by consistent_hash_crc32(k) from S granularity {g} preallocate")
    e.epl("create context H coalesce by consistent_hash_crc32(k) from S granularity 16 preallocate")
