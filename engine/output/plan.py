"""The output plan: what the compiler (epl/compiler/output.py) decided about a statement's
output clause, and the limiter it makes per statement instance with the instance's result-set
processor."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import epl.ast as A

import engine.output.aggregated_grouped as AG
import engine.output.kinds as KD
import engine.output.rollup as RU
import engine.output.row_per_group as RG
from .after import AfterSpec
from .base import AlwaysFactory, OutputClock
from .every import EveryUpdate
from .limiters import AfterLimiter, BatchLimiter, FirstLimiter, SnapshotLimiter
from .other import KeyedLastBatch, ProcessedBatch
from .polled import PolledFactory
from .row_for_all import RowForAllLast
from .simple import SimpleLast

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
        processor (the plumbing calls the limiter's `stand_in` in its place, see tap.py);
        `iterate` gives the instance's current result for `output snapshot`."""
        if processor is None:
            raise ValueError("output rate limiting needs the statement's result-set processor")
        iterate = iterate or _iterate_of(ctx)
        ctx = OutputClock(ctx)
        after = self.after.make(ctx) if self.after is not None else None
        if self.condition is None:
            return AfterLimiter(processor, after, emit)
        kind = getattr(processor, "kind", None)
        if self.kind is K.SNAPSHOT:
            return SnapshotLimiter(processor, iterate, self.condition, ctx, emit,
                                   after, self.terminable)
        if self.kind is K.FIRST:
            first = _GROUPED_FIRST.get(kind) if self.grouped else None
            if first is None:
                return FirstLimiter(processor, self.condition, ctx, emit, self.selector, after,
                                    self.terminable)
            batch = first(processor, PolledFactory(self.condition), ctx)
            return BatchLimiter(processor, batch, AlwaysFactory(), ctx, emit, after, True,
                                self.terminable)
        make = _BATCHES.get((kind, self.kind))
        if make is not None:
            batch = make(processor, processor.process, self.buffered)
        elif self.kind is K.LAST and hasattr(processor, "keyed_process"):
            batch = KeyedLastBatch(processor.keyed_process)
        else:
            batch = ProcessedBatch(processor.process, self.kind is K.LAST)
        keep = kind != "simple" or self.kind is K.LAST
        # Esper's non-buffered helpers apply updates to the aggregation themselves, without
        # the unidirectional reset, except the aggregated-ungrouped ones (they process each
        # update as an unlimited statement would, reset included)
        keeps = self.kind in (K.ALL, K.LAST) and not self.buffered and kind != "aggregated-ungrouped"
        return BatchLimiter(processor, batch, self.condition, ctx, emit, after, keep, self.terminable,
                            keeps_aggregation=keeps)


def _iterate_of(ctx: Any) -> Callable[[], Sequence[Any]]:
    """The current result of the instance that owns `ctx` (when the caller did not pass one)."""
    def iterate() -> Sequence[Any]:
        for inst in getattr(ctx.statement, "_instances", ()):
            if getattr(inst, "ctx", None) is ctx:
                return inst.current_rows()
        return ()
    return iterate
