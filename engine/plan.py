"""Statement plans: everything the compiler decided, immutable, built once per statement.
The runtime instantiates a plan (once, or per context partition) without looking at EPL: a
select statement's plan (epl/plans/select.py) starts here, as the starter registered for
its class."""
from __future__ import annotations

from typing import TYPE_CHECKING

# the plan data the compiler builds lives in epl/plans and the contracts; the one plan
# interface in engine/contracts/runtime.py (these names stay importable from here)
from engine.contracts.plans import InsertIntoPlan, StreamPlan  # noqa: F401
from engine.contracts.runtime import Instance, Plan  # noqa: F401
from epl.plans.select import SelectPlan

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime
    from .statement import Statement


def start_select(plan: SelectPlan, runtime: "Runtime", statement: "Statement") -> list[Instance]:
    """The statement's one instance, started."""
    from .instance import SelectInstance
    inst = SelectInstance(runtime, statement, plan, statement._order_key)
    inst.start()
    return [inst]


def install(engine: "Runtime") -> None:
    """Select statements start through `start_select` (SelectPlan.instantiate asks for it)."""
    engine.features.add_starter(SelectPlan, start_select)
