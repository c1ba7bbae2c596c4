"""Statement plans: everything the compiler decided, immutable, built once per statement.
The runtime instantiates a plan (once, or per context partition) without looking at EPL."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Sequence

from engine.contracts.event_types import EventType
from epl.plans.joins import JoinPlan
from epl.plans.output import OutputPlan
from epl.plans.resultset import ResultSetPlan
# the plan data the compiler builds lives in the contracts; the one plan interface in
# engine/contracts/runtime.py (both names stay importable from here)
from engine.contracts.plans import InsertIntoPlan, StreamPlan  # noqa: F401
from engine.contracts.runtime import Instance, Plan  # noqa: F401

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime
    from .statement import Statement


@dataclass(frozen=True)
class SelectPlan:
    """A compiled select statement."""

    streams: tuple[StreamPlan, ...]
    where: Optional[Callable[[Sequence[Any]], bool]]
    result_set: ResultSetPlan                  # each instance makes its processor from it
    out_type: EventType
    columns: tuple[str, ...]
    passthrough: bool                          # single-stream `select *`
    selector: str = "istream"
    insert_into: Optional[InsertIntoPlan] = None
    output: Optional[OutputPlan] = None         # the output clause; each instance makes its limiter
    join: Optional[JoinPlan] = None            # multi-stream statements: the join plan
    context: Optional[str] = None
    extra: dict = field(default_factory=dict)

    def instantiate(self, runtime: "Runtime", statement: "Statement") -> list[Instance]:
        """The statement's one instance, started."""
        from .instance import SelectInstance
        inst = SelectInstance(runtime, statement, self, statement._order_key)
        inst.start()
        return [inst]
