"""Random and relative access to a stream's data window for `prev`, `prevtail`,
`prevwindow`, `prevcount`, and the arrival history for `prior`.

A compiled expression reaches the window of the statement instance (context partition,
`groupwin` group) being evaluated through an `AccessHolder` made at compile time: the view
that tracks a window marks itself current in the holder each time the window posts, just
before its child evaluates the statement, as Esper's "updated" observers do.

Access by window kind (Esper's):
- arrival-ordered windows (length, time, keepall, ext_timed, time_accum, expr, ...): index 0
  is the newest event in the window; `prevtail(0)` the oldest.
- sorted windows (sort, rank): index 0 is the first in sort order.
- batch windows (length_batch, time_batch, ...): relative to the evaluated event within the
  batch being posted: `prev(1)` of a batch's third event is its second, of its first null;
  `prevtail(i)` is the batch's i-th event from the oldest; the window is the posted batch;
  for events outside that batch (the remove stream) all four give null.
`istream()` tells whether the evaluated event is in the insert stream being delivered.
`prior(n)` is the event n arrivals before the evaluated one on the stream (as the window
posts them), kept for as long as the event is in the window (events leave the history with
the window's remove stream).
"""
from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any, ClassVar, Iterator, Optional, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from .base import Events, View, ViewContext

ARRIVAL, SORTED, BATCH = "arrival", "sorted", "batch"


def _child_of(part: str) -> property:
    """`child` of a view that wraps others: the child of its last part, the attribute `part`
    (what the wrapped views post reaches the wrapper's child through it)."""
    def get(self: Any) -> Any:
        return getattr(self, part).child

    def set_(self: Any, sink: Any) -> None:
        getattr(self, part).child = sink
    return property(get, set_)


class AccessHolder:
    """Where compiled prev/prior expressions find the current instance's tracker."""

    __slots__ = ("prev", "prior", "old_rows")

    def __init__(self) -> None:
        self.prev: Optional["PrevTracker"] = None
        self.prior: Optional["PriorChain"] = None
        # the remove-stream rows the statement's result set is evaluating (set by its sink,
        # engine/instance.py PrevSink): tells the two rows of an event posted both as new and
        # as old apart (time_order receiving an expired event, sort/rank evicting the arrival)
        self.old_rows: Optional[list] = None


# Esper's data windows that keep previous events (DataWindowViewForgeWithPrevious): `prev`
# and its kin need one of these; unique, firstunique, firstlength, firsttime, firstevent,
# lastevent and intersections/unions of windows are refused (see `prev_refusal`).
_KEEPS_PREVIOUS = frozenset((
    "LengthWindowFactory", "TimeWindowFactory", "KeepAllWindowFactory", "TimeBatchWindowFactory",
    "TimeLengthBatchWindowFactory", "LengthBatchWindowFactory", "SortWindowFactory",
    "RankWindowFactory", "TimeAccumWindowFactory", "TimeOrderWindowFactory",
    "TimeToLiveWindowFactory", "ExtTimedWindowFactory", "ExtTimedBatchWindowFactory",
    "ExprWindowFactory", "ExprBatchWindowFactory", "IntervalWindowFactory",
    "ConsumerViewFactory"))
_NO_PREVIOUS = frozenset((
    "UniqueWindowFactory", "FirstUniqueWindowFactory", "FirstLengthWindowFactory",
    "FirstTimeWindowFactory", "LastEventWindowFactory", "FirstEventWindowFactory",
    "IntersectionFactory", "IntersectionBatchFactory", "UnionFactory"))

SINGLE_WINDOW = "Previous function requires a single data window view onto the stream"
NO_WINDOW = ("Required data window not found for the 'prev' function, specify a data window for "
             "which previous events are retained")


def _keeps_previous(factory: Any) -> bool:
    name = type(factory).__name__
    if name in _KEEPS_PREVIOUS:
        return True
    if name in _NO_PREVIOUS:
        return False
    return bool(getattr(factory, "is_data_window", False))


def prev_refusal(factories: Sequence[Any]) -> Optional[str]:
    """Esper's message refusing `prev` on this chain, or None: two views are allowed only as
    `#groupwin` over its windows, and a window that keeps previous events must be there
    (under `#groupwin`, among the group's views)."""
    from .groupwin import GroupWinFactory
    if len(factories) == 2 and not isinstance(factories[0], GroupWinFactory):
        return SINGLE_WINDOW
    for f in factories:
        if isinstance(f, GroupWinFactory):
            return None if any(_keeps_previous(g) for g in f.sub) else NO_WINDOW
        if _keeps_previous(f):
            return None
    return NO_WINDOW


def window_kind(factory: Any) -> str:
    name = type(factory).__name__
    if name.startswith(("Sort", "Rank", "TimeOrder", "TimeToLive")):
        # in sort order (time_order: by timestamp, equal timestamps in arrival order)
        return SORTED
    if "Batch" in name:
        return BATCH
    return ARRIVAL


class PrevTracker:
    """The child of a tracked data window: marks the window current, keeps the batch last
    posted (batch windows) or the remove stream last posted (other windows), and passes the
    update on.

    As in Esper, the four functions answer only for the insert stream: evaluated for an event
    of the remove stream being delivered they give null (Esper evaluates with isNewData false)."""

    __slots__ = ("window", "holder", "kind", "child", "batch", "index", "new", "old")

    def __init__(self, window: View, holder: AccessHolder, kind: str) -> None:
        self.window = window
        self.holder = holder
        self.kind = kind
        self.child: Any = None
        self.batch: Sequence[EventBean] = ()
        self.index: dict[int, int] = {}
        self.new: Events = None
        self.old: Events = None

    def update(self, new: Events, old: Events) -> None:
        self.holder.prev = self
        if self.kind == BATCH:
            self.batch = list(new) if new else ()
            self.index = {id(e): i for i, e in enumerate(self.batch)}
        else:
            self.new = new
            self.old = old or None
        self.child.update(new, old)

    def _removed(self, bean: Any, eps: Any) -> bool:
        """Whether `bean` is evaluated for the remove stream being delivered: it is in it, and
        if it is also in the insert stream, the row `eps` is one of the remove-stream rows."""
        old = self.old
        if old is None or bean is None:
            return False
        for e in old:
            if e is bean:
                if not any(n is bean for n in self.new or ()):
                    return True
                rows = self.holder.old_rows
                return rows is not None and any(r is eps for r in rows)
        return False

    def _contents(self) -> Sequence[EventBean]:
        """The window oldest first (sorted windows: in sort order)."""
        fast = getattr(self.window, "indexable", None)
        return fast() if fast is not None else list(self.window)

    def at(self, i: int, bean: Any, eps: Any = None) -> Optional[EventBean]:
        if i < 0:
            return None
        if self.kind == BATCH:
            pos = self.index.get(id(bean))
            if pos is None or i > pos:
                return None
            return self.batch[pos - i]
        if self.old is not None and self._removed(bean, eps):
            return None
        seq = self._contents()
        if i >= len(seq):
            return None
        return seq[i] if self.kind == SORTED else seq[-1 - i]

    def _outside(self, bean: Any, eps: Any) -> bool:
        """Batch windows answer only for events of the batch being posted (Esper's relative
        access keeps no accessor for the others); other windows not for the remove stream."""
        if self.kind == BATCH:
            return id(bean) not in self.index
        return self.old is not None and self._removed(bean, eps)

    def tail(self, i: int, bean: Any = None, eps: Any = None) -> Optional[EventBean]:
        if i < 0 or self._outside(bean, eps):
            return None
        seq = self.batch if self.kind == BATCH else self._contents()
        if i >= len(seq):
            return None
        return seq[-1 - i] if self.kind == SORTED else seq[i]

    def window_newest_first(self, bean: Any = None, eps: Any = None) -> Optional[list[EventBean]]:
        if self._outside(bean, eps):
            return None
        if self.kind == BATCH:
            return list(reversed(self.batch))
        seq = self._contents()
        return list(seq) if self.kind == SORTED else list(reversed(seq))

    def count(self, bean: Any = None, eps: Any = None) -> Optional[int]:
        if self._outside(bean, eps):
            return None
        return len(self.batch) if self.kind == BATCH else len(self._contents())


class TrackedWindow(View):
    """A data window whose posts go through a PrevTracker; everything else is the window's."""

    __slots__ = ("window", "tracker")

    def __init__(self, window: View, holder: AccessHolder, kind: str) -> None:
        # no View.__init__: `child` is the tracker's
        self.window = window
        self.tracker = PrevTracker(window, holder, kind)
        window.child = self.tracker
        holder.prev = self.tracker

    child = _child_of("tracker")    # type: ignore[assignment]

    def update(self, new: Events, old: Events) -> None:
        self.window.update(new, old)

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self.window)

    def __len__(self) -> int:
        return len(list(self.window))

    def __getattr__(self, name: str) -> Any:
        # only for attributes of the window; never while unpickling (no `window` yet)
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            window = object.__getattribute__(self, "window")
        except AttributeError:
            raise AttributeError(name) from None
        return getattr(window, name)

    def stop(self) -> None:
        self.window.stop()


@frozen_dataclass
class _HolderWrapFactory:
    """A factory wrapping what `inner` makes so that `holder` (prev, prior) can read it."""

    inner: Any
    holder: AccessHolder
    is_data_window: ClassVar[bool] = True


@frozen_dataclass
class TrackedWindowFactory(_HolderWrapFactory):
    kind: str

    def make(self, ctx: ViewContext) -> TrackedWindow:
        return TrackedWindow(self.inner.make(ctx), self.holder, self.kind)


def track_prev(factories: Sequence[Any], holder: AccessHolder) -> Optional[list]:
    """The chain with its (last) data window tracked for prev; None without a data window.
    Under `groupwin` the group's window is tracked, so each group is its own window."""
    from .groupwin import GroupWinFactory
    out = list(factories)
    for i in range(len(out) - 1, -1, -1):
        f = out[i]
        if isinstance(f, GroupWinFactory):
            sub = track_prev(f.sub, holder)
            if sub is None:
                return None
            out[i] = replace(f, sub=tuple(sub))
            return out
        if _keeps_previous(f):
            out[i] = TrackedWindowFactory(f, holder, window_kind(f))
            return out
    return None


class _PriorEnd:
    """Between the stream's last view and its sink: records the history of new events,
    marks it current, and drops the events that left the window (or, without a window,
    that were evaluated)."""

    __slots__ = ("chain", "child")

    def __init__(self, chain: "PriorChain") -> None:
        self.chain = chain
        self.child: Any = None

    def update(self, new: Events, old: Events) -> None:
        chain = self.chain
        chain.holder.prior = chain
        if new:
            chain.new_ids = {id(e) for e in new}
            if chain.depth:
                recent, priors = chain.recent, chain.priors
                for e in new:
                    priors[id(e)] = tuple(reversed(recent))
                    recent.append(e)
        else:
            chain.new_ids = frozenset()
        self.child.update(new, old)
        priors = chain.priors
        gone = old if chain.windowed else new
        for e in gone or ():
            priors.pop(id(e), None)


class PriorChain(View):
    """The stream's views, with an end that records, for each event the views post as new,
    the events posted before it (newest first, as many as the largest prior index): the
    stream's arrival order as the window lets events through, as Esper's prior view."""

    __slots__ = ("holder", "depth", "recent", "priors", "views", "end", "windowed", "new_ids", "ctx")

    def __init__(self, holder: AccessHolder, depth: int, views: list, windowed: bool,
                 ctx: Any = None) -> None:
        self.holder = holder
        self.ctx = ctx                      # the statement instance's (current_evaluation_context)
        self.depth = depth
        self.recent: deque = deque(maxlen=depth)
        self.priors: dict[int, tuple] = {}
        self.views = views
        self.windowed = windowed
        self.new_ids: Any = frozenset()     # the insert stream being delivered (istream())
        self.end = _PriorEnd(self)
        for a, b in zip(views, views[1:]):
            a.child = b
        if views:
            views[-1].child = self.end
        holder.prior = self

    child = _child_of("end")        # type: ignore[assignment]

    def update(self, new: Events, old: Events) -> None:
        self.holder.prior = self
        (self.views[0] if self.views else self.end).update(new, old)

    def prior(self, i: int, bean: Any) -> Optional[EventBean]:
        if i == 0:
            return bean
        p = self.priors.get(id(bean))
        if p is None or i > len(p):
            return None
        return p[i - 1]

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self.views[-1]) if self.views else iter(())

    def stop(self) -> None:
        for v in self.views:
            v.stop()
        self.priors.clear()
        self.recent.clear()


@frozen_dataclass
class PriorChainFactory(_HolderWrapFactory):
    depth: int                      # `inner`: the chain's factories, in order

    def make(self, ctx: ViewContext) -> PriorChain:
        windowed = any(getattr(f, "is_data_window", False) for f in self.inner)
        return PriorChain(self.holder, self.depth, [f.make(ctx) for f in self.inner], windowed, ctx)
