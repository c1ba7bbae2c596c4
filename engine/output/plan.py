"""From the output plan (epl/plans/output.py, what epl/compiler/output.py decided about a
statement's output clause) to the limiter of one statement instance, made with the instance's
result-set processor when the instance starts: `make_limiter`."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import epl.ast as A
from epl.plans.output import AtCrontab, EveryEvents, EveryTime, OutputPlan, TerminatedOnly, WhenSpec

import engine.output.aggregated_grouped as AG
import engine.output.kinds as KD
import engine.output.rollup as RU
import engine.output.row_per_group as RG
from .after import AfterState
from .at import CrontabCondition
from .base import AlwaysFactory, Fire, OnlyWhenTerminated, OutputClock, OutputCondition
from .count import CountCondition
from .every import EveryUpdate
from .limiters import AfterLimiter, BatchLimiter, FirstLimiter, SnapshotLimiter
from .other import KeyedLastBatch, ProcessedBatch
from .periodic import TimeCondition
from .polled import PolledFactory
from .row_for_all import RowForAllLast
from .simple import SimpleLast
from .when import WhenCondition

K = A.OutputKind
# batch(processor, process, buffered): `process` gives the rows of one update (aggregation
# applied); `buffered` (order by, or the hint) selects Esper's buffered helpers over its
# default non-buffered ones
Batch = Callable[[Any, Callable, bool], Any]


def _every(kind: type) -> Batch:
    """`output [all] every` as every update's rows of the result-kind part `kind`."""
    return lambda p, process, buffered: EveryUpdate(p, kind(p))


# (result-set kind, output kind) -> batch
_BATCHES: dict[tuple[str, A.OutputKind], Batch] = {
    ("simple", K.DEFAULT): _every(KD.SimpleRows), ("simple", K.ALL): _every(KD.SimpleRows),
    ("simple", K.LAST): lambda p, process, buffered: SimpleLast(p, process),
    ("row-for-all", K.DEFAULT): _every(KD.RowForAllRows), ("row-for-all", K.ALL): _every(KD.RowForAllRows),
    ("row-for-all", K.LAST): lambda p, process, buffered: RowForAllLast(p),
    ("aggregated-ungrouped", K.DEFAULT): _every(KD.UngroupedRows),
    ("aggregated-ungrouped", K.ALL): _every(KD.UngroupedRows),
    # the last insert row and the last remove row as each update produced them
    ("aggregated-ungrouped", K.LAST): lambda p, process, buffered: ProcessedBatch(process, True),
    ("row-per-group", K.DEFAULT): _every(KD.GroupRows),
    ("row-per-group", K.ALL): lambda p, process, buffered:
        RG.RowPerGroupAll(p) if buffered else RG.RowPerGroupAllUnordered(p),
    ("row-per-group", K.LAST): lambda p, process, buffered: RG.RowPerGroupLast(p, buffered),
    ("aggregated-grouped", K.DEFAULT): _every(KD.EventGroupRows),
    ("aggregated-grouped", K.ALL): lambda p, process, buffered:
        AG.AggregatedGroupedAll(p) if buffered else AG.AggregatedGroupedAllUnordered(p),
    ("aggregated-grouped", K.LAST): lambda p, process, buffered: AG.AggregatedGroupedLast(p),
    ("row-per-group-rollup", K.ALL): lambda p, process, buffered: RU.RollupAll(p),
}
# grouped `output first`: (processor, per-group condition factory, ctx) -> batch
_GROUPED_FIRST = {"row-per-group": RG.RowPerGroupFirst, "aggregated-grouped": AG.AggregatedGroupedFirst,
                  "row-per-group-rollup": RU.RollupFirst}

class _Condition:
    """A condition spec of the plan with the runtime class that runs it: what the limiters
    `make(ctx, fire)` per statement instance."""

    __slots__ = ("run", "spec")

    def __init__(self, run: Callable[[Any, Any, Fire], OutputCondition], spec: Any) -> None:
        self.run = run
        self.spec = spec

    def make(self, ctx: Any, fire: Fire) -> OutputCondition:
        return self.run(self.spec, ctx, fire)


# condition spec class (epl/plans/output.py) -> (spec, ctx, fire) -> the running condition
CONDITIONS: dict[type, Callable[[Any, Any, Fire], OutputCondition]] = {
    EveryEvents: CountCondition,
    EveryTime: TimeCondition,
    AtCrontab: CrontabCondition,
    WhenSpec: WhenCondition,
    TerminatedOnly: lambda spec, ctx, fire: OnlyWhenTerminated(fire),
}


def make_limiter(plan: OutputPlan, ctx: Any, emit: Callable[..., None], processor: Any,
                 iterate: Optional[Callable[[], Sequence[Any]]] = None) -> Any:
    """The limiter of one statement instance. `processor` is the instance's result-set
    processor (the plumbing calls the limiter's `stand_in` in its place, see tap.py);
    `iterate` gives the instance's current result for `output snapshot`."""
    if processor is None:
        raise ValueError("output rate limiting needs the statement's result-set processor")
    iterate = iterate or _iterate_of(ctx)
    ctx = OutputClock(ctx)
    after = AfterState(plan.after, ctx) if plan.after is not None else None
    if plan.condition is None:
        return AfterLimiter(processor, after, emit)
    condition = _Condition(CONDITIONS[type(plan.condition)], plan.condition)
    kind = getattr(processor, "kind", None)
    if plan.kind is K.SNAPSHOT:
        return SnapshotLimiter(processor, iterate, condition, ctx, emit, after, plan.terminable)
    if plan.kind is K.FIRST:
        first = _GROUPED_FIRST.get(kind) if plan.grouped else None
        if first is None:
            return FirstLimiter(processor, condition, ctx, emit, plan.selector, after,
                                plan.terminable)
        batch = first(processor, PolledFactory(plan.condition), ctx)
        return BatchLimiter(processor, batch, AlwaysFactory(), ctx, emit, after, True,
                            plan.terminable)
    make = _BATCHES.get((kind, plan.kind))
    if make is not None:
        batch = make(processor, processor.process, plan.buffered)
    elif plan.kind is K.LAST and hasattr(processor, "keyed_process"):
        batch = KeyedLastBatch(processor.keyed_process)
    else:
        batch = ProcessedBatch(processor.process, plan.kind is K.LAST)
    keep = kind != "simple" or plan.kind is K.LAST
    # Esper's non-buffered helpers apply updates to the aggregation themselves, without
    # the unidirectional reset, except the aggregated-ungrouped ones (they process each
    # update as an unlimited statement would, reset included)
    keeps = plan.kind in (K.ALL, K.LAST) and not plan.buffered and kind != "aggregated-ungrouped"
    return BatchLimiter(processor, batch, condition, ctx, emit, after, keep, plan.terminable,
                        keeps_aggregation=keeps)


def _iterate_of(ctx: Any) -> Callable[[], Sequence[Any]]:
    """The current result of the instance that owns `ctx` (when the caller did not pass one)."""
    def iterate() -> Sequence[Any]:
        for inst in getattr(ctx.statement, "_instances", ()):
            if getattr(inst, "ctx", None) is ctx:
                return inst.current_rows()
        return ()
    return iterate
