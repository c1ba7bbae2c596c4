"""The plans of `create window|table|index`, on-statements and `update istream` are data
(epl/plans/): frozen dataclasses naming the windows and tables they act on, holding no
runtime object; the runtime makes its windows, tables, indexes and actions from them, and the
same plan starts again after a stop."""
from __future__ import annotations

import dataclasses

import pytest

from engine import Engine
from engine.namedwindows.actions import Matcher
from engine.namedwindows.index import WindowIndex
from engine.namedwindows.partitioned import PartitionedInfra
from engine.namedwindows.table import Table
from engine.namedwindows.window import NamedWindow
from recording import Rec

RUNTIME = (NamedWindow, Table, PartitionedInfra, WindowIndex, Matcher)


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema W(acct string, amount int)")
    e.epl("create schema Q(acct string)")
    e.epl("create context ByAcct partition by acct from W, acct from Q")
    yield e
    e.close()


def _runtime_objects(value, seen=None):
    """Runtime objects anywhere in a plan's fields (nested plans, tuples, dicts)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, RUNTIME):
        return [value]
    found = []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found += _runtime_objects(getattr(value, f.name), seen)
    elif isinstance(value, (tuple, list)):
        for v in value:
            found += _runtime_objects(v, seen)
    elif isinstance(value, dict):
        for v in value.values():
            found += _runtime_objects(v, seen)
    return found


STATEMENTS = [
    "create window Win#keepall as W",
    "create table Tab(acct string primary key, total sum(int))",
    "context ByAcct create window PWin#keepall as W",
    "on Q delete from Win where Win.acct = Q.acct",
    "on Q update Win set amount = 0 where Win.acct = Q.acct",
    "on Q select * from Win",
    "on Q merge Tab where Tab.acct = Q.acct when not matched then insert select acct",
    "update istream W set amount = amount + 1",
]


def test_plans_are_frozen_data_without_runtime_objects(engine):
    for text in STATEMENTS:
        stmt = engine.epl(text)
        plan = stmt.plan
        assert type(plan).__module__.startswith("epl.plans."), (text, type(plan))
        assert dataclasses.is_dataclass(plan) and type(plan).__dataclass_params__.frozen, text
        assert _runtime_objects(plan) == [], text


def test_a_window_and_its_on_actions_restart_from_their_plans(engine):
    engine.epl("create window Win#keepall as W")
    engine.epl("insert into Win select * from W")
    delete = engine.epl("on Q delete from Win where Win.acct = Q.acct")
    deleted = Rec(delete)
    engine.send({"acct": "a", "amount": 1}, "W")
    delete.stop()
    engine.send({"acct": "a"}, "Q")
    assert deleted.pop() == []
    delete.start()                      # the action is made again from the plan
    engine.send({"acct": "a"}, "Q")
    assert deleted.pop() == [[{"acct": "a", "amount": 1}]]
    assert list(engine.execute_query("select * from Win")) == []


def test_an_index_plan_gives_each_partition_its_own_index(engine):
    engine.epl("context ByAcct create window PWin#keepall as W")
    engine.epl("context ByAcct insert into PWin select * from W")
    engine.epl("context ByAcct create unique index Ix on PWin(amount)")
    for acct, amount in (("a", 1), ("b", 1), ("a", 2)):
        engine.send({"acct": acct, "amount": amount}, "W")
    infra = engine.services.named_windows.get("PWin")
    indexes = [inst.indexes["Ix"] for _p, inst in infra.partitions()]
    assert len(indexes) == 2 and indexes[0] is not indexes[1]
    assert all(isinstance(ix, WindowIndex) for ix in indexes)
    assert [ix.get((1,)) != [] for ix in indexes] == [True, True]
