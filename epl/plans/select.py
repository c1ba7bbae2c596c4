"""The plan of a select statement: its streams, where clause, result set, output clause,
join and insert-into, all data (the runtime, engine/plan.py, starts it: one SelectInstance
per statement, or per context partition)."""
from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Optional, Sequence

from engine.contracts.event_types import EventType
from engine.contracts.frozen import frozen_dataclass
from engine.contracts.plans import InsertIntoPlan, StreamPlan

from .joins import JoinPlan
from .output import OutputPlan
from .resultset import ResultSetPlan
from .started import StartedByRuntime


@frozen_dataclass
class SelectPlan(StartedByRuntime):
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
