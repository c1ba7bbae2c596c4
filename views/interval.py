"""`#interval()`: the interval data window, keeping each event exactly for its lifetime
[start, end) (StreamInsight's snapshot window when aggregated over, Odysseus's validity).

EPL: `#interval()` takes the lifetime from the event: the lifetime an application-time
input gave it (engine.apptime), else the type's `starttimestamp`/`endtimestamp` (a type
with only a start timestamp is a point event [t, t+1)), else a point at the engine time of
arrival. `#interval(start, end)` takes it from two expressions instead (int ms or aware
datetimes).
"""
from __future__ import annotations

import heapq
from typing import Any, Callable, ClassVar, Iterator, Optional, Sequence

from engine.contracts.frozen import frozen_dataclass
from engine.contracts.timed import INFINITY, TICK, TimedBean, lifetime_of, to_ms
from engine.contracts.bean import EventBean

from ._util import check_count
from .base import Events, View, ViewArg, ViewContext

Lifetime = Callable[[EventBean], Optional[tuple[int, int]]]


class IntervalWindow(View):
    """An event enters when engine time reaches its start (at once when it has started) and
    leaves at the instant its end is reached: one schedule for the earliest end, all events
    ending by then leave in one update, earliest end first, ties in arrival order. An
    event whose end is unknown (an open edge) or shortened later (an end edge, a clip) is
    watched: a new end reschedules it, an end already reached removes it at once. An event
    whose lifetime is empty never enters."""

    __slots__ = ("_ctx", "_lifetime", "_live", "_by_bean", "_ends", "_starts", "_seq",
                 "_end_handle", "_end_at", "_start_handle", "_start_at", "_watch_cb",
                 "_expire_cb", "_begin_cb")

    def __init__(self, ctx: ViewContext, lifetime: Lifetime) -> None:
        super().__init__()
        self._ctx = ctx
        self._lifetime = lifetime
        self._live: dict[int, list] = {}          # seq -> [bean, end], arrival order
        self._by_bean: dict[int, list[int]] = {}  # id(bean) -> seqs held for it
        self._ends: list[tuple[int, int]] = []    # (end, seq), lazily invalidated
        self._starts: list[tuple[int, int, EventBean, int]] = []   # not yet started
        self._seq = 0
        self._end_handle: Any = None
        self._end_at: Optional[int] = None
        self._start_handle: Any = None
        self._start_at: Optional[int] = None
        self._watch_cb = self._on_end_changed
        self._expire_cb = self._expire
        self._begin_cb = self._begin

    # -- contents -----------------------------------------------------------------------
    def update(self, new: Events, old: Events) -> None:
        removed: Optional[list] = None
        if old:
            for e in old:
                if self._drop(e):
                    removed = [e] if removed is None else removed + [e]
        entered: Optional[list] = None
        if new:
            now = self._ctx.now()
            for e in new:
                lt = self._lifetime(e)
                start, end = (now, now + TICK) if lt is None else lt
                if end <= start:
                    continue
                if start > now:
                    self._seq += 1
                    heapq.heappush(self._starts, (start, self._seq, e, end))
                    continue
                entered = [e] if entered is None else entered + [e]
                if end <= now:      # its lifetime is already over: in and out at once
                    removed = [e] if removed is None else removed + [e]
                else:
                    self._add(e, end)
        self._reschedule()
        if entered or removed:
            self.child.update(entered, removed)

    def _add(self, bean: EventBean, end: int) -> None:
        self._seq += 1
        seq = self._seq
        self._live[seq] = [bean, end]
        self._by_bean.setdefault(id(bean), []).append(seq)
        if end < INFINITY:
            heapq.heappush(self._ends, (end, seq))
        if isinstance(bean, TimedBean):
            bean.watch(self._watch_cb)

    def _remove_seq(self, seq: int) -> EventBean:
        bean = self._live.pop(seq)[0]
        seqs = self._by_bean[id(bean)]
        seqs.remove(seq)
        if not seqs:
            del self._by_bean[id(bean)]
            if isinstance(bean, TimedBean):
                bean.unwatch(self._watch_cb)
        return bean

    def _drop(self, bean: EventBean) -> bool:
        seqs = self._by_bean.get(id(bean))
        if not seqs:
            return False
        self._remove_seq(seqs[0])
        return True

    # -- time --------------------------------------------------------------------------------
    def _expire(self) -> None:
        self._end_handle = self._end_at = None
        now = self._ctx.now()
        ends, live = self._ends, self._live
        out: Optional[list] = None
        while ends and ends[0][0] <= now:
            end, seq = heapq.heappop(ends)
            entry = live.get(seq)
            if entry is None or entry[1] != end:
                continue        # removed, or its end changed since
            out = [self._remove_seq(seq)] if out is None else out + [self._remove_seq(seq)]
        self._reschedule()
        if out:
            self.child.update(None, out)

    def _begin(self) -> None:
        self._start_handle = self._start_at = None
        now = self._ctx.now()
        starts = self._starts
        entered: Optional[list] = None
        removed: Optional[list] = None
        while starts and starts[0][0] <= now:
            _, _, bean, end = heapq.heappop(starts)
            if isinstance(bean, TimedBean):
                end = bean.end
            entered = [bean] if entered is None else entered + [bean]
            if end <= now:
                removed = [bean] if removed is None else removed + [bean]
            else:
                self._add(bean, end)
        self._reschedule()
        if entered:
            self.child.update(entered, removed)

    def _on_end_changed(self, bean: TimedBean) -> None:
        now = self._ctx.now()
        end = bean.end
        out: Optional[list] = None
        for seq in list(self._by_bean.get(id(bean), ())):
            entry = self._live[seq]
            if end <= now:
                self._remove_seq(seq)
                out = [bean] if out is None else out + [bean]
            elif end != entry[1]:
                entry[1] = end
                if end < INFINITY:
                    heapq.heappush(self._ends, (end, seq))
        self._reschedule()
        if out:
            self.child.update(None, out)

    def _reschedule(self) -> None:
        ctx = self._ctx
        ends, live = self._ends, self._live
        while ends and (ends[0][1] not in live or live[ends[0][1]][1] != ends[0][0]):
            heapq.heappop(ends)
        nxt = ends[0][0] if ends else None
        if nxt != self._end_at:
            if self._end_handle is not None:
                ctx.cancel(self._end_handle)
            self._end_handle = None if nxt is None else ctx.schedule(nxt, self._expire_cb)
            self._end_at = nxt
        first = self._starts[0][0] if self._starts else None
        if first != self._start_at:
            if self._start_handle is not None:
                ctx.cancel(self._start_handle)
            self._start_handle = None if first is None else ctx.schedule(first, self._begin_cb)
            self._start_at = first

    # -- iteration and stop --------------------------------------------------------------------
    def __iter__(self) -> Iterator[EventBean]:
        return iter([entry[0] for entry in self._live.values()])

    def __len__(self) -> int:
        return len(self._live)

    def stop(self) -> None:
        for h in (self._end_handle, self._start_handle):
            if h is not None:
                self._ctx.cancel(h)
        self._end_handle = self._start_handle = self._end_at = self._start_at = None
        for entry in self._live.values():
            if isinstance(entry[0], TimedBean):
                entry[0].unwatch(self._watch_cb)
        self._live.clear()
        self._by_bean.clear()
        self._ends.clear()
        self._starts.clear()


def _from_expressions(start: ViewArg, end: ViewArg) -> Lifetime:
    s_eval, e_eval = start.evaluate, end.evaluate

    def lifetime(bean: EventBean) -> Optional[tuple[int, int]]:
        s = s_eval(bean)
        if s is None:
            return None
        e = e_eval(bean)
        return to_ms(s), (INFINITY if e is None else to_ms(e))
    return lifetime


@frozen_dataclass
class IntervalWindowFactory:
    start: Optional[ViewArg] = None
    end: Optional[ViewArg] = None
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "IntervalWindowFactory":
        check_count(view, args, 0, 2, "no parameters, or a start and an end expression")
        if len(args) == 1:
            check_count(view, args, 2, 2, "no parameters, or a start and an end expression")
        return cls(*args)

    def make(self, ctx: ViewContext) -> IntervalWindow:
        if self.start is None:
            return IntervalWindow(ctx, lifetime_of)
        return IntervalWindow(ctx, _from_expressions(self.start, self.end))
