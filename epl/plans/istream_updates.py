"""The plan of `update istream T set ... [where ...]` (epl/compiler/updateistream.py builds
it, engine/istream_updates.py starts it)."""
from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Optional

from engine.contracts.frozen import frozen_dataclass
from epl.plans.started import StartedByRuntime


@frozen_dataclass
class UpdatePlan(StartedByRuntime):
    """A compiled update statement: its type, where-clause and assignments."""

    out_type: Any                                   # the updated type (the statement's type)
    where: Optional[Callable[[Any], bool]]
    assignments: tuple[tuple[str, Callable[[Any], Any]], ...]
    priority: int = 0
    drop: bool = False
    selector: str = "irstream"                      # listeners get new and old event
    insert_into: Any = field(default=None)
    subqueries: tuple = ()                          # subquery plans of where and set clauses
