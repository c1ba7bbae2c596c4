"""The output plan: what the compiler (epl/compiler/output.py) decided about a statement's
output clause, and the limiter it makes per statement instance with the instance's result-set
processor."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import epl.ast as A

import engine.output.aggregated_grouped as AG
import engine.output.aggregated_ungrouped as AU
import engine.output.row_for_all as RA
import engine.output.rollup as RU
import engine.output.row_per_group as RG
import engine.output.simple as S
from .after import AfterSpec
from .base import AlwaysFactory, OutputClock
from .limiters import AfterLimiter, BatchLimiter, FirstLimiter, SnapshotLimiter
from .other import KeyedLastBatch, ProcessedBatch
from .polled import PolledFactory
from .tap import tap

K = A.OutputKind

# (result-set kind, output kind) -> batch class, or (without order by, with order by): Esper's
# default configuration uses non-buffered helpers for `output all|last` without order by
_BATCHES: dict = {
    ("simple", K.DEFAULT): S.SimpleAll, ("simple", K.ALL): S.SimpleAll, ("simple", K.LAST): S.SimpleLast,
    ("row-for-all", K.DEFAULT): RA.RowForAllAll, ("row-for-all", K.ALL): RA.RowForAllAll,
    ("row-for-all", K.LAST): RA.RowForAllLast,
    ("aggregated-ungrouped", K.DEFAULT): AU.AggregatedUngroupedAll,
    ("aggregated-ungrouped", K.ALL): AU.AggregatedUngroupedAll,
    ("aggregated-ungrouped", K.LAST): AU.AggregatedUngroupedLast,
    ("row-per-group", K.DEFAULT): RG.RowPerGroupDefault,
    ("row-per-group", K.ALL): (RG.RowPerGroupAllUnordered, RG.RowPerGroupAll),
    ("row-per-group", K.LAST): (RG.RowPerGroupLastUnordered, RG.RowPerGroupLast),
    ("aggregated-grouped", K.DEFAULT): AG.AggregatedGroupedDefault,
    ("aggregated-grouped", K.ALL): (AG.AggregatedGroupedAllUnordered, AG.AggregatedGroupedAll),
    ("aggregated-grouped", K.LAST): AG.AggregatedGroupedLast,
    ("row-per-group-rollup", K.ALL): RU.RollupAll,
}
_GROUPED_FIRST = {"row-per-group": RG.RowPerGroupFirst, "aggregated-grouped": AG.AggregatedGroupedFirst,
                  "row-per-group-rollup": RU.RollupFirst}

@dataclass(frozen=True)
class OutputPlan:
    """Everything decided about a statement's output clause."""

    kind: A.OutputKind
    condition: Any                       # condition factory, or None for `output after` alone
    after: Optional[AfterSpec]
    terminable: bool
    selector: str
    grouped: bool
    buffered: bool = False               # order by (or the hint) selects Esper's buffered forms

    def make(self, ctx: Any, emit: Callable[..., None], processor: Any = None,
             iterate: Optional[Callable[[], Sequence[Any]]] = None) -> Any:
        """A limiter for one statement instance. `processor` is the instance's result-set
        processor (its `process` is tapped, see tap.py); `iterate` gives the instance's current
        result for `output snapshot`."""
        if processor is None:
            raise ValueError("output rate limiting needs the statement's result-set processor")
        process = tap(processor)
        iterate = iterate or _iterate_of(ctx)
        ctx = OutputClock(ctx)
        after = self.after.make(ctx) if self.after is not None else None
        if self.condition is None:
            return AfterLimiter(process, after, emit)
        kind = getattr(processor, "kind", None)
        if self.kind is K.SNAPSHOT:
            return SnapshotLimiter(process, iterate, self.condition, ctx, emit,
                                   after, self.terminable)
        if self.kind is K.FIRST:
            first = _GROUPED_FIRST.get(kind) if self.grouped else None
            if first is None:
                return FirstLimiter(process, self.condition, ctx, emit, self.selector, after,
                                    self.terminable)
            batch = first(processor, process, PolledFactory(self.condition), ctx)
            return BatchLimiter(batch, AlwaysFactory(), ctx, emit, after, True, self.terminable)
        cls = _BATCHES.get((kind, self.kind))
        if isinstance(cls, tuple):
            cls = cls[1] if self.buffered else cls[0]
        if cls is not None:
            batch = cls(processor, process)
        elif self.kind is K.LAST and hasattr(processor, "keyed_process"):
            batch = KeyedLastBatch(processor.keyed_process)
        else:
            batch = ProcessedBatch(process, self.kind is K.LAST)
        keep = kind != "simple" or self.kind is K.LAST
        # Esper's non-buffered helpers apply updates to the aggregation themselves, without
        # the unidirectional reset, except the aggregated-ungrouped ones (they process each
        # update as an unlimited statement would, reset included)
        keeps = self.kind in (K.ALL, K.LAST) and not self.buffered and kind != "aggregated-ungrouped"
        return BatchLimiter(batch, self.condition, ctx, emit, after, keep, self.terminable,
                            keeps_aggregation=keeps)


def _iterate_of(ctx: Any) -> Callable[[], Sequence[Any]]:
    """The current result of the instance that owns `ctx` (when the caller did not pass one)."""
    def iterate() -> Sequence[Any]:
        for inst in getattr(ctx.statement, "_instances", ()):
            if getattr(inst, "ctx", None) is ctx:
                return inst.current_rows()
        return ()
    return iterate
