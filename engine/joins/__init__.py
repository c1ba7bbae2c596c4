"""Joins of several streams: event indexes, lookup plans, inner/outer/unidirectional
execution with Esper's insert and remove streams. `install(engine)` registers the planner
as `engine.features.join_compiler`.

Runtime modules here may import engine.contracts, epl.ast and the runtime, never the compiler;
this `__init__` is the package's public face (its `install` joins the compiler's planner,
epl/compiler/joins.py, to the engine) and nothing inside our packages imports it."""
from typing import TYPE_CHECKING, Any

from .executor import JoinExecutor as JoinExecutor
from .executor import JoinFlushHandle as JoinFlushHandle
from .executor import JoinStreamHandle as JoinStreamHandle
from .indexes import EventStore as EventStore
from .indexes import HashIndex as HashIndex
from .indexes import SortedIndex as SortedIndex
from .intervals import event_interval as event_interval
from .intervals import row_interval as row_interval
from epl.plans.joins import Access as Access
from epl.plans.joins import IndexSpec as IndexSpec
from epl.plans.joins import InnerPlan as InnerPlan
from epl.plans.joins import JoinPlan as JoinPlan
from epl.plans.joins import OuterPlan as OuterPlan
from epl.plans.joins import Step as Step

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def install(engine: "Runtime") -> None:
    """Let `engine` compile statements selecting from several streams."""
    from epl.compiler.joins import compile_join
    engine.features.join_compiler = compile_join


__all__ = [
    "Access", "EventStore", "HashIndex", "IndexSpec", "InnerPlan", "JoinExecutor",
    "JoinFlushHandle", "JoinPlan", "JoinStreamHandle", "OuterPlan", "SortedIndex", "Step",
    "event_interval", "install", "row_interval",
]
