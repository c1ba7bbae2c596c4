"""Fused statements over a time batch, length batch or sliding time window (see
epl/compiler/fused/windows_sink.py): the window the general chain built stays where it is
(timers, batches, iteration, stop, relocation and checkpoints see the same object); its
child, the general sink, is replaced by the generated `update`, and the statement's filter
handle by one whose `on_event` is generated too."""
from __future__ import annotations

import heapq
import sys
from collections import defaultdict
from functools import partial
from itertools import islice, repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterator, Optional, Sequence

from views.length import LengthWindow
from views.length_batch import LengthBatchWindow
from views.time import TimeWindow
from views.time_batch import TimeBatchWindow

from engine.contracts.bean import EventBean
from engine.contracts.faults import statement_of_slot
from .faults import statement_failed
from .resultset.java_order import java_hash

# the window classes the fused sink takes updates from, by their EPL view names
SINK_VIEWS = {TimeBatchWindow: "time_batch", LengthBatchWindow: "length_batch", TimeWindow: "time",
              LengthWindow: "length"}

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

_MAX_CACHED = 65536


class FusedSink:
    """The child of a fused statement's window: `update(new, old)` is generated."""

    __slots__ = ("update",)

    def __init__(self, update: Callable[[Any, Any], None]) -> None:
        self.update = update


class RawBatchWindow(TimeBatchWindow):
    """The time batch of a fused statement whose batches hold, after the bean of their
    first event, the underlying dicts of the later events of that bean's type (what its
    generated code appends: epl/compiler/fused/sink_steps.py holds_raw); the same object
    as before, its class switched (no slots of its own). Iteration makes beans of them."""

    __slots__ = ()

    def __iter__(self) -> Iterator[EventBean]:
        return iter(beans_of(self._batch))


def beans_of(batch: list) -> list:
    """A raw batch's entries as beans: a dict as an event of the batch's first bean's type."""
    if not batch:
        return []
    et = batch[0].event_type
    new = EventBean.__new__
    out = []
    for x in batch:
        if type(x) is dict:
            b = new(EventBean)
            b.event_type = et
            b.underlying = x
            x = b
        out.append(x)
    return out


def hashmap_order(kinds: Sequence[Any]) -> Callable[[dict], list]:
    """`java_order.hashmap_order(keys, types)` for a one-property group key of the given
    EPL type kind: distinct keys (a dict's, or a list of them) in their order of insertion,
    as a fresh java.util.HashMap iterates them. String keys' hashes are remembered (a
    group's key recurs in every batch)."""
    kind = kinds[0] if len(kinds) == 1 else None
    cache: dict[str, int] = {}

    def spread(k: Any) -> int:
        if type(k) is str:
            h = cache.get(k)
            if h is None:
                if len(cache) >= _MAX_CACHED:
                    cache.clear()
                h = java_hash(k, kind) & 0xFFFFFFFF
                h = cache[k] = h ^ (h >> 16)
            return h
        h = java_hash(k, kind) & 0xFFFFFFFF
        return h ^ (h >> 16)

    # per table size, the bucket of each string key seen (the keys recur: sorting on a
    # dict's __getitem__ makes no Python call per key)
    buckets: dict[int, dict[str, int]] = {}

    def order(reps: Collection[Any]) -> list:
        n = len(reps)
        cap = 16
        while n > cap * 0.75:
            cap *= 2
        mask = cap - 1
        at = buckets.get(mask)
        if at is None:
            at = buckets[mask] = {}
        # a stable sort: keys of one bucket stay in insertion order, as in the map's list
        try:
            return sorted(reps, key=at.__getitem__)
        except KeyError:        # a key not seen, or not a string
            if len(at) >= _MAX_CACHED:
                at.clear()
            for k in reps:
                if type(k) is str and k not in at:
                    at[k] = spread(k) & mask
            return sorted(reps, key=lambda k: spread(k) & mask)
    return order


def fuse_window(inst: Any, shape: Any, classes: list, code_for: Callable[[str], Any],
                generate: Callable[..., str], handle_type: type, ns: dict,
                checked: Sequence[str], sink_type: type, ctx_type: type) -> Optional[Any]:
    """Fuse a statement instance whose one view is a sink window (checked by the caller:
    shape, processor, aggregations, select); returns the new filter handle, or None when
    the instance is not of the shape after all. `checked`: the properties send's type
    check tests (each against the global `_ok<i>`, bound by the caller); `sink_type` and
    `ctx_type`: engine.instance's SingleStreamSink and StatementContext (the only sink the
    fused one replaces, the context whose clock the time window's handle reads)."""
    plan, stmt, proc = inst.plan, inst.statement, inst.processor
    chain = inst.views[0]
    if len(chain) != 1 or SINK_VIEWS.get(type(chain[0])) != shape.window:
        return None
    w = chain[0]
    handle = inst.handles[0]
    if handle.target is not w or type(w.child) is not sink_type:
        return None
    if shape.window == "time" and type(w._ctx) is not ctx_type:
        return None         # (the generated on_event reads a StatementContext's clock)
    if shape.group is not None and len(proc.key_types) != 1:
        return None
    aggs = proc.aggs
    src = generate(shape, classes, proc.select.names, aggs.reclaim, stmt._listeners_only, checked,
                   (bool(proc.want_new), bool(proc.want_old)))
    code = code_for(src)
    # _memo: the list last posted as the new batch, its split into groups, the changes its
    # entering made (exact aggregators), the batch that left at the last post (its beans
    # to reuse) and whether send_many's loops filled the current batch; _direct[0]: the
    # timed loop lets the next row go to the listeners at once; _pool: reusable beans
    # _memo[5]: the split of values recorded as the changes of the batch last posted as new,
    # when `_memo[2]` is that same object (a values end's record: batch_ends.py
    # _values_steady); _memo[6]: the rows that end delivered (their beans reused when
    # nothing else holds them)
    ns.update(_w=w, _memo=[None, None, None, None, False, None, None], _direct=[False], _pool=[],
              _refcount=sys.getrefcount, _max=max, _map=map, _INF=float("inf"),
              _heappop=heapq.heappop, _heappush=heapq.heappush, _next=next, _KeyError=KeyError,
              _callback_failed=_callback_failed,
              _order=hashmap_order([t.kind for t in proc.key_types]) if shape.group is not None else None)
    # _acc: a time batch's split by group as send_many's timed loop fills it (the batch,
    # how many of its events, the split, whether all of them passed send's check on its
    # fast path); _split: a new split (a list per group made at its first event, in C);
    # _sumfast: whether that fast path makes every value the batch end sums in C an int
    # (batch_ends.py _grouped)
    # (batch_ends.py _values_end's split in C)
    ns.update(_frozenset=frozenset, _islice=islice, _repeat=repeat, _set=set, _any=any,
              _list=list, _zip=zip,
              _append=list.append, _dget=dict.__getitem__, _TypeError=TypeError)
    ns.update(_acc=[None, 0, None, False], _split=partial(defaultdict, list), _sum=sum,
              _sumfast=_sums_in_c(shape, classes, checked, ns), _keyexact=_exact_key(shape, checked, ns))
    for i, agg in enumerate(shape.aggs):
        if agg.prop is not None:
            ns[f"_ig{i}"] = itemgetter(agg.prop)
    exec(code, ns)
    if ns.get("_raw_batches"):
        if type(w) is not TimeBatchWindow or w._batch or w._last:
            return None
        w.__class__ = RawBatchWindow
    expire = ns.get("expire")
    if expire is not None:
        if w._handle is not None:
            return None     # (a window fused before any event: its expiry not scheduled yet)
        w._expire_cb = expire
    w.child = FusedSink(ns["update"])
    fused = handle_type(handle.target, stmt, handle.stream_index)
    # _self, _rt: on_event tests that the engine's routing hands its type's events to this
    # handle alone (the router, one per filter index and type, kept with its index)
    ns.update(_self=fused, _rt=[None, None])
    fused.on_event = ns["on_event"]
    fused.run = ns.get("run", _not_batched)
    fused.namespace = ns
    fused.shape = shape
    fused.event_type = plan.streams[0].event_type
    return fused


def _sums_in_c(shape: Any, classes: Sequence[str], checked: Sequence[str], ns: dict) -> bool:
    """Whether an event passing send's check on its fast path (each checked property's
    value of the type `_t<i>` exactly) gives every count and integer sum of the statement a
    value it takes as it is: an int for a sum, not null for a count of values."""
    at = {p: i for i, p in enumerate(checked)}
    for agg, cls in zip(shape.aggs, classes):
        if agg.prop is None:
            continue
        i = at.get(agg.prop)
        t = ns.get(f"_t{i}") if i is not None else None
        if t is None or (cls in ("IntSum32", "IntSum64") and t is not int):
            return False
    return True


def _exact_key(shape: Any, checked: Sequence[str], ns: dict) -> bool:
    """Whether the group key of an event passing send's check on its fast path is a str
    or an int (`_t<i>` of the group property): two equal such keys are the same value, so
    a group's key stands for its last event's (batch_ends.py _values_end)."""
    if shape.group is None or shape.group not in checked:
        return False
    return ns.get(f"_t{list(checked).index(shape.group)}") in (str, int)


def _not_batched(engine: "Runtime", events: Any, i: int, *rest: Any) -> int:
    """send_many's batch loop of a window statement: not taken (events go one by one
    through the filter scanner to `on_event`)."""
    return i


def _callback_failed(engine: "Runtime", handle: Any, exc: Exception) -> None:
    """A callback a fused loop fired raised: that statement's callback alone is lost, as
    the engine's own firing reports it."""
    statement_failed(engine, statement_of_slot(engine, handle.slot), None, exc)
