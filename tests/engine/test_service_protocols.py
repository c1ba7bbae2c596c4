"""The feature services the runtime installs provide the protocols the contract types them
with (engine/contracts/runtime.py: Variables, Subqueries)."""
from __future__ import annotations

from engine import Engine
from engine.contracts.runtime import SubqueryGroup, Subqueries, Variables


def _members(proto: type) -> set[str]:
    return {n for n in vars(proto) if not n.startswith("_")} | set(getattr(proto, "__annotations__", {}))


def test_services_provide_their_protocols() -> None:
    engine = Engine(time="simulated")
    try:
        for svc, proto in ((engine.services.variables, Variables),
                           (engine.services.subqueries, Subqueries)):
            assert [n for n in sorted(_members(proto)) if not hasattr(svc, n)] == []
    finally:
        engine.close()


def test_a_statement_with_a_subquery_has_a_subquery_group() -> None:
    engine = Engine(time="simulated")
    try:
        engine.epl("create schema S(v int)")
        stmt = engine.epl("select (select count(*) from S#length(2)) as n from S")
        inst = stmt._instances[0]
        assert [n for n in sorted(_members(SubqueryGroup)) if not hasattr(inst.subqueries, n)] == []
    finally:
        engine.close()
