"""A keyed context over 100,000 keys, each partition ended by its terminating event, leaves
no partitions, filters or schedules behind."""
from __future__ import annotations

import gc
import time

from engine import Engine
from engine.contexts.partition import Partition

KEYS = 100_000


def test_hundred_thousand_keyed_partitions_leave_nothing_behind():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema Txn(acct string, amount int)")
    e.epl("create schema Close(acct string)")
    e.epl("create context ByAcct partition by acct from Txn, acct from Close terminated by Close")
    stmt = e.epl("context ByAcct select acct, count(*) as c, sum(amount) as total "
                 "from Txn#time(1 hour) output last when terminated")
    out: list = []
    stmt.add_listener(lambda new, old: out.extend(new or ()))
    svc = e.services["contexts"]
    filters0, schedules0 = e.filter_count(), e.schedule_count()

    started = time.perf_counter()
    # The cyclic collector would re-scan millions of live partition objects many times over;
    # what is measured here is what the engine releases, so it is paused for the bulk phases.
    gc.disable()
    try:
        for i in range(KEYS):
            e.send({"acct": f"a{i}", "amount": i}, "Txn")
        assert svc.partition_count("ByAcct") == KEYS
        assert e.filter_count() == filters0 + KEYS          # one keyed filter per partition
        assert e.schedule_count() == schedules0 + KEYS      # one window expiry per partition
        for i in range(KEYS):
            e.send({"acct": f"a{i}"}, "Close")
    finally:
        gc.enable()
    elapsed = time.perf_counter() - started

    assert svc.partition_count("ByAcct") == 0
    assert e.filter_count() == filters0
    assert e.schedule_count() == schedules0
    assert len(out) == KEYS and out[-1].to_dict() == {"acct": f"a{KEYS - 1}", "c": 1, "total": KEYS - 1}
    gc.collect()
    assert not any(isinstance(o, Partition) for o in gc.get_objects())
    assert elapsed < 60, elapsed


def test_partitions_started_again_after_ending_are_released_too():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema Txn(acct string, amount int)")
    e.epl("create context T partition by acct from Txn terminated after 1 sec")
    e.epl("context T select count(*) as c from pattern [every a=Txn -> b=Txn(amount > a.amount)]")
    base = (e.filter_count(), e.schedule_count())
    for round_ in range(3):
        for i in range(100):
            e.send({"acct": f"a{i}", "amount": i}, "Txn")
        e.advance_time((round_ + 1) * 1_000)
        assert e.services["contexts"].partition_count("T") == 0
        assert (e.filter_count(), e.schedule_count()) == base
