"""The registry of EPL view names, and the two calls the compiler and the engine use:
`create_factories` (validate parameters, at compile time) and `make_chain` (build one
statement's views)."""
from __future__ import annotations

from typing import Any, Sequence

from .base import UpdateSink, View, ViewArg, ViewContext, ViewFactory, ViewParameterError
from .expr import ExprWindowFactory
from .expr_batch import ExprBatchWindowFactory
from .ext_timed import ExtTimedWindowFactory
from .ext_timed_batch import ExtTimedBatchWindowFactory
from .firstevent import FirstEventWindowFactory
from .firstlength import FirstLengthWindowFactory
from .firsttime import FirstTimeWindowFactory
from .firstunique import FirstUniqueWindowFactory
from .groupwin import GroupWinFactory
from .intersection import IntersectionFactory
from .intersection_batch import IntersectionBatchFactory
from .union import UnionFactory
from .interval import IntervalWindowFactory
from .keepall import KeepAllWindowFactory
from .lastevent import LastEventWindowFactory
from .length import LengthWindowFactory
from .length_batch import LengthBatchWindowFactory
from .rank import RankWindowFactory
from .sort import SortWindowFactory
from .time import TimeWindowFactory
from .time_accum import TimeAccumWindowFactory
from .time_batch import TimeBatchWindowFactory
from .time_length_batch import TimeLengthBatchWindowFactory
from .correl import CorrelViewFactory
from .linest import LinestViewFactory
from .size import SizeViewFactory
from .time_order import TimeOrderWindowFactory, TimeToLiveWindowFactory
from .uni import UniViewFactory
from .unique import UniqueWindowFactory
from .weighted_avg import WeightedAvgViewFactory

# EPL view name (as written after `#`, `win:`, `std:` or `ext:`) -> factory class. Each class
# has `from_args(view_name, args) -> factory`; `groupwin` also takes its sub-chain.
VIEW_FACTORIES: dict[str, type] = {
    "length": LengthWindowFactory,
    "length_batch": LengthBatchWindowFactory,
    "time": TimeWindowFactory,
    "time_batch": TimeBatchWindowFactory,
    "time_length_batch": TimeLengthBatchWindowFactory,
    "time_accum": TimeAccumWindowFactory,
    "ext_timed": ExtTimedWindowFactory,
    "ext_timed_batch": ExtTimedBatchWindowFactory,
    "keepall": KeepAllWindowFactory,
    "unique": UniqueWindowFactory,
    "firstunique": FirstUniqueWindowFactory,
    "firstevent": FirstEventWindowFactory,
    "lastevent": LastEventWindowFactory,
    "firstlength": FirstLengthWindowFactory,
    "firsttime": FirstTimeWindowFactory,
    "sort": SortWindowFactory,
    "rank": RankWindowFactory,
    "groupwin": GroupWinFactory,
    "expr": ExprWindowFactory,
    "expr_batch": ExprBatchWindowFactory,
    "interval": IntervalWindowFactory,     # lifetime [start, end) of interval events
    "time_order": TimeOrderWindowFactory,
    "timetolive": TimeToLiveWindowFactory,
    # derived-value views: they replace the stream's event type with their own
    "size": SizeViewFactory,
    "uni": UniViewFactory,
    "linest": LinestViewFactory,
    "correl": CorrelViewFactory,
    "weighted_avg": WeightedAvgViewFactory,
}


def _view_name(name: str) -> str:
    name = name.strip().lower()
    # tolerate a namespace the caller did not strip ('win:length')
    return name.rsplit(":", 1)[-1]


def create_factories(specs: Sequence[tuple[str, list[ViewArg]]], *,
                     retain_union: bool = False) -> list[ViewFactory]:
    """Validate a chain of `(view name, arguments)` and build its factories, in chain order.
    A grouping view takes every view after it as its per-group sub-chain. Consecutive data
    windows keep the intersection of what each retains, or with `retain_union` the union."""
    out: list[Any] = []
    specs = list(specs)
    for i, (name, args) in enumerate(specs):
        view = _view_name(name)
        cls = VIEW_FACTORIES.get(view)
        if cls is None:
            raise ViewParameterError(f"View name '{name}' is not a known view name")
        if out and getattr(out[-1], "is_derived", False):
            raise ViewParameterError(
                f"Error in view '{view}': a derived-value view (such as size or uni) must be the "
                f"last view of a stream")
        if cls is GroupWinFactory:
            if retain_union and any(_view_name(n) == "groupwin" for n, _ in specs[i + 1:]):
                raise ViewParameterError("Failed to validate data window declaration: Multiple "
                                         "groupwin-declarations are not supported")
            sub = create_factories(specs[i + 1:], retain_union=retain_union)
            out.append(GroupWinFactory.from_args(view, list(args), sub))
            return _combine(out, retain_union)
        out.append(cls.from_args(view, list(args)))
    return _combine(out, retain_union)


def output_type(factories: Sequence[Any]) -> Any:
    """The event type a derived-value view at the end of the chain posts (under `#groupwin`
    too), or None when the chain posts the stream's own events."""
    if not factories:
        return None
    last = factories[-1]
    if getattr(last, "is_derived", False):
        return last.event_type
    if isinstance(last, GroupWinFactory):
        return output_type(last.sub)
    return None


# Batch windows decide when their contents leave as a whole: with other data windows they
# form Esper's batch intersection (intersection_batch.py); two of them cannot be combined.
_BATCH_VIEWS = ("LengthBatch", "TimeBatch", "TimeLengthBatch", "ExtTimedBatch", "ExprBatch", "TimeAccum")


def _combine(factories: list, retain_union: bool) -> list:
    """Data windows listed one after the other on a stream (before a derived-value view, if
    any) keep the intersection of what each retains, or their union."""
    tail = []
    if factories and getattr(factories[-1], "is_derived", False):
        factories, tail = factories[:-1], factories[-1:]
    windows = [f for f in factories if getattr(f, "is_data_window", False)
               and not isinstance(f, GroupWinFactory)]
    if len(windows) < 2 or len(windows) != len(factories):
        return factories + tail
    if retain_union:
        return [UnionFactory(tuple(windows))] + tail
    batches = [i for i, f in enumerate(windows) if type(f).__name__.startswith(_BATCH_VIEWS)]
    if len(batches) > 1:
        raise ViewParameterError("Failed to validate data window declaration: Cannot combined "
                                 "multiple batch data windows into an intersection")
    if batches:
        return [IntersectionBatchFactory(tuple(windows), batches[0])] + tail
    return [IntersectionFactory(tuple(windows))] + tail


def make_chain(factories: Sequence[ViewFactory], ctx: ViewContext,
               sink: UpdateSink) -> tuple[View, list[View]]:
    """Build one instance of each view, linked in order and ending in `sink`; returns the
    view events enter and all views (the last one iterates the current contents)."""
    if not factories:
        raise ValueError("make_chain needs at least one view factory")
    views: list[View] = [f.make(ctx) for f in factories]
    for a, b in zip(views, views[1:]):
        a.child = b
        if getattr(b, "source", False) is None:    # a view that reads its parent on demand
            b.source = a
    views[-1].child = sink
    return views[0], views
