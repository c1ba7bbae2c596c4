"""Aggregation plan data: the aggregations of one statement (or subquery) as the compiler
collected them (epl/compiler/aggregations.py), and the context its compiled aggregate
expressions read. The runtime keeps the per-group state (engine/resultset/aggregation_rows.py,
AggregationRows) made from these when an instance starts."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from engine.contracts.frozen import frozen_dataclass


class AggregationContext:
    """Which row compiled aggregate expressions read: made once per statement by the
    compiler (its closures hold it); the runtime's processors set `row` before evaluating
    select, having and order-by expressions."""

    __slots__ = ("row",)

    def __init__(self) -> None:
        self.row: list = []


@frozen_dataclass(slots=True)
class AggEntry:
    """One aggregation of a statement: its factory (engine.contracts.aggregation's
    AggregatorFactory: `make()` per group), how an event becomes the value entered, and the
    optional `filter:` predicate."""

    factory: Any
    value_of: Callable[[Any], Any]
    accept: Optional[Callable[[Any], Any]] = None


@frozen_dataclass
class AggregationPlan:
    """A statement's aggregations: `reclaim` drops a group when no event in the windows
    belongs to it any more; `aged_ms`/`freq_ms` (`@Hint('reclaim_group_aged=..')`) drop
    groups not updated for that long, by the statement's `clock`."""

    entries: tuple[AggEntry, ...]
    context: AggregationContext
    reclaim: bool = True
    aged_ms: Optional[float] = None
    freq_ms: Optional[float] = None
    clock: Optional[Callable[[], int]] = None


def fresh_row(entries: Sequence[AggEntry], shared: Optional[dict] = None) -> list:
    """A new row of aggregators, one per entry; an entry whose factory is `shared`
    (per-aggregation group_by) takes its state from `shared` (by entry index)."""
    if not shared:
        return [e.factory.make() for e in entries]
    return [shared[i] if i in shared else e.factory.make() for i, e in enumerate(entries)]


def shared_states(entries: Sequence[AggEntry]) -> dict:
    """The one state of each `shared` entry (by index), for the rows of one aggregation."""
    return {i: e.factory.make() for i, e in enumerate(entries) if getattr(e.factory, "shared", False)}


def enter_row(entries: Sequence[AggEntry], row: list, eps: Any) -> None:
    """The event `eps` enters a row (entries whose filter refuses it are skipped). A raising
    aggregation notes `eps` on the exception as engine.rollback.blame does (for a statement's
    rollback guard), unless an inner loop did."""
    try:
        for agg, e in zip(row, entries):
            if e.accept is None or e.accept(eps) is True:
                agg.enter(e.value_of(eps))
    except Exception as exc:
        if eps is not None and getattr(exc, "epl_events", None) is None:
            try:
                exc.epl_events = eps       # type: ignore[attr-defined]
            except (AttributeError, TypeError):     # an exception class refusing attributes
                pass
        raise
