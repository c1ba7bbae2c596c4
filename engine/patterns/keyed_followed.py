"""The keyed followed-by fast path: `every a=A(...) -> b=B(x = a.y, ...)`, optionally with

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime
`where timer:within(t)` on the B side, run as per-key waiting lists and a deadline heap
instead of a live filter (a filter-index insert and remove) per A event.

The shape (found at compile time by `detect`, epl/compiler/pattern_fastpath.py; anything else keeps the state machines):
- a followed-by of two children without `-[N]>` limits;
- the first is `every` over a tagged filter of type A (its filter any constant condition);
- the second is a filter of type B (tag optional) or that filter `where timer:within(t)`;
  B's condition is a conjunction of equalities `B.x = a.y` between a B property and a
  property of the A tag (the keys, one or more) and conditions that read neither tag;
- A and B distinct types, neither a subtype of the other, no variant stream; the key
  properties of equal declared types with exact equality (strings, integers, booleans).
The general path's observable behaviour is kept: one registration per type in the filter
index (the statement's order and @drop), the waiting A events of a key completed oldest
first, one match at a time to the stream (each with its own fault isolation), the
engine-wide sub-expression limit counted per waiting A, and each `within` ending at its
deadline on the statement's schedule (before an event at that instant). Statements with
@SuppressOverlappingMatches, @DiscardPartialsOnMatch or `@consume` take the general path, as
do context conditions and `on pattern` triggers (only pattern streams of selects use this).
"""
from __future__ import annotations

import heapq
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.contracts.epl_types import EPLType
from engine.faults import statement_failed
from engine.fastpath_switch import fast_paths
from filterindex.spec import FilterOp, FilterParam, FilterSpec

from .limits import PatternLimit, pattern_limit

_EXACT_KINDS = frozenset({EPLType.STRING, EPLType.BOOLEAN, EPLType.BYTE, EPLType.SHORT,
                          EPLType.INT, EPLType.LONG, EPLType.BIGINT})
# keys with a null (`x = null` never holds): A events wait under one, B events look up the other
_NULL_A = object()
_NULL_B = object()


@dataclass(frozen=True)
class KeyedFollowedPlan:
    """The compiled shape: A's template (constant), B's constant part, the key getters and
    the `within` period (None without a guard)."""

    a_template: Any
    a_type: Any
    a_tag: str
    a_props: tuple[str, ...]
    b_template: Any
    b_type: Any
    b_tag: Optional[str]
    b_props: tuple[str, ...]
    within: Optional[Callable[[dict], int]]
    match_type: Any

    def start(self, pattern: Any, instance: Any, handle: Any) -> Optional["KeyedFollowedRun"]:
        """The run for one statement instance, or None when the general path must run it
        (fast paths off, overlapping-match annotations on the statement)."""
        engine = instance.engine
        if not fast_paths(engine):
            return None
        names = {a.name.lower() for a in getattr(instance.statement, "annotations", ()) or ()}
        if "suppressoverlappingmatches" in names or "discardpartialsonmatch" in names:
            return None
        return KeyedFollowedRun(self, instance, handle).start()


class _Handle:
    """A filter-index handle of the run: A events or B events of the statement."""

    __slots__ = ("on_event", "order", "drop", "statement")

    def __init__(self, on_event: Callable[[Any], None], statement: Any) -> None:
        self.on_event = on_event
        self.order = statement._match_key
        self.drop = statement.drop
        self.statement = statement


class KeyedFollowedRun:
    """One statement instance's matcher: `waiting` maps a key to the A events (or, with
    `within`, the entries [deadline, seq, key, A event]) waiting for their B, oldest first;
    `deadlines` is the heap of those entries, one schedule at its earliest live deadline."""

    def __init__(self, fast: KeyedFollowedPlan, instance: Any, handle: Any) -> None:
        self.fast = fast
        self.engine = instance.engine
        self.index = self.engine.filters
        self.ctx = instance.ctx
        self.statement = instance.statement
        self.handle = handle
        self.addendum = getattr(instance, "pattern_filter_addendum", None)
        self.waiting: dict[Any, list] = {}
        self.count = 0                      # waiting A events, counted against the limit
        self.deadlines: list[list] = []
        self.seq = 0
        self.timer: Any = None
        self.timer_at: Optional[int] = None
        self.tokens: list[Any] = []
        self.a_key = _key_reader(fast.a_type, fast.a_props, _NULL_A)
        self.b_key = _key_reader(fast.b_type, fast.b_props, _NULL_B)

    # -- lifecycle -----------------------------------------------------------------------
    def start(self) -> "KeyedFollowedRun":
        fast = self.fast
        empty = (EventBean(fast.match_type, {}),)
        a_spec, b_spec = fast.a_template.bind(empty), fast.b_template.bind(empty)
        # B events reach the run only when A events wait for their key (a predicate leaf read
        # at routing time): like the state machines' per-instance filters, the index
        # discards the others before any handle, bean or type check
        wanted = FilterParam("", FilterOp.BOOL_EXPR, self._b_wanted, key=f"keyed-followed:{uuid.uuid4().hex}")
        b_spec = FilterSpec(b_spec.event_type, tuple(path + (wanted,) for path in b_spec.paths))
        if self.addendum is not None:
            a_spec, b_spec = self.addendum(a_spec), self.addendum(b_spec)
        on_a = self._on_a_within if fast.within is not None else self._on_a
        self.tokens = [self.index.add(a_spec, _Handle(on_a, self.statement)),
                       self.index.add(b_spec, _Handle(self._on_b, self.statement))]
        return self

    def stop(self) -> None:
        tokens, self.tokens = self.tokens, []
        for t in tokens:
            self.index.remove(t)
        if self.timer is not None:
            self.ctx.cancel(self.timer)
            self.timer = self.timer_at = None
        self.waiting = {}
        self.deadlines = []
        if self.count:
            self._release(self.count)

    def relocate(self, runtime: "Runtime") -> None:
        """Continue in another runtime: the two registrations move to its filter index (the
        schedule moves with the instance's context)."""
        from engine.instance import move_filter
        old, new = self.index, runtime.filters
        if new is not old:
            self.tokens = [move_filter(t, old, new) for t in self.tokens]
        self.engine, self.index = runtime, new

    def _limit(self) -> PatternLimit:
        lim = self.engine.services.pattern_limit
        if lim.__class__ is not PatternLimit:
            lim = pattern_limit(self.engine)
        return lim

    # -- events --------------------------------------------------------------------------
    def _b_wanted(self, bean: Any) -> bool:
        try:
            return self.b_key(bean) in self.waiting
        except Exception:       # an unhashable value: no A waits for it
            return False

    def _acquire(self) -> bool:
        """Count one more waiting A against the engine-wide limit (limits.PatternLimit's
        try_acquire, inlined for the common case of a counter without a limit)."""
        lim = self.engine.services.pattern_limit
        if lim.__class__ is PatternLimit and lim.max_instances is None:
            lim.count += 1
            per = lim.per_statement
            name = self.statement.name
            per[name] = per.get(name, 0) + 1
        elif not self._limit().try_acquire(self.engine, self.statement):
            return False
        self.count += 1
        return True

    def _on_a(self, bean: Any) -> None:
        if not self.tokens:                 # stopped while this event was being routed
            return
        key = self.a_key(bean)
        # limits.PatternLimit.try_acquire inlined for a counter without a limit (most runs)
        lim = self.engine.services.pattern_limit
        if lim.__class__ is PatternLimit and lim.max_instances is None:
            lim.count += 1
            per = lim.per_statement
            name = self.statement.name
            per[name] = per.get(name, 0) + 1
            self.count += 1
        elif not self._acquire():
            return
        w = self.waiting.get(key)
        if w is None:
            self.waiting[key] = [bean]
        else:
            w.append(bean)

    def _on_a_within(self, bean: Any) -> None:
        if not self.tokens:
            return
        key = self.a_key(bean)
        lim = self.engine.services.pattern_limit
        if lim.__class__ is PatternLimit and lim.max_instances is None:     # as in _on_a
            lim.count += 1
            per = lim.per_statement
            name = self.statement.name
            per[name] = per.get(name, 0) + 1
            self.count += 1
        elif not self._acquire():
            return
        fast = self.fast
        deadline = self.ctx.now() + fast.within({fast.a_tag: bean})
        self.seq += 1
        entry = [deadline, self.seq, key, bean]
        w = self.waiting.get(key)
        if w is None:
            self.waiting[key] = [entry]
        else:
            w.append(entry)
        heapq.heappush(self.deadlines, entry)
        if self.timer_at is None or deadline < self.timer_at:
            self._reschedule(deadline)

    def _on_b(self, bean: Any) -> None:
        if not self.tokens:
            return
        w = self.waiting.pop(self.b_key(bean), None)
        if w is None:
            return
        fast = self.fast
        a_tag, b_tag, mt = fast.a_tag, fast.b_tag, fast.match_type
        within = fast.within is not None
        stmt = self.statement
        if len(w) == 1:
            a = w[0]
            if within:
                a[3], a = None, a[3]
            if a is not None:
                self._release(1)
                self.handle.on_event(EventBean(mt, {a_tag: a, b_tag: bean} if b_tag is not None else {a_tag: a}))
        else:
            if within:
                alive = []
                for entry in w:
                    a = entry[3]
                    if a is not None:       # else expired (only with variable periods)
                        entry[3] = None
                        alive.append(a)
                w = alive
            self._release(len(w))
            on_event = self.handle.on_event
            for a in w:
                match = {a_tag: a, b_tag: bean} if b_tag is not None else {a_tag: a}
                # each completed instance is its own filter match in the general path: a
                # failure in one does not keep the others from the stream
                try:
                    on_event(EventBean(mt, match))
                except Exception as exc:
                    statement_failed(self.engine, stmt, bean, exc)
        if within and self.deadlines and self.deadlines[0][3] is None:
            self._drop_dead_heads()

    def _release(self, n: int) -> None:
        self.count -= n
        lim = self.engine.services.pattern_limit
        if lim.__class__ is PatternLimit and lim.max_instances is None and lim.count >= n:
            lim.count -= n
            per = lim.per_statement
            name = self.statement.name
            left = per.get(name, 0) - n
            if left > 0:
                per[name] = left
            else:
                per.pop(name, None)
            lim._warned = False
        else:
            lim = self._limit()
            for _ in range(n):
                lim.release(self.statement)

    # -- within --------------------------------------------------------------------------
    def _reschedule(self, at: Optional[int]) -> None:
        if self.timer is not None:
            self.ctx.cancel(self.timer)
            self.timer = None
        self.timer_at = at
        if at is not None:
            self.timer = self.ctx.schedule(at, self._expire)

    def _drop_dead_heads(self) -> None:
        """Pop completed entries off the heap top, so the schedule waits for a live one."""
        heap = self.deadlines
        if heap and heap[0][3] is None:
            while heap and heap[0][3] is None:
                heapq.heappop(heap)
            self._reschedule(heap[0][0] if heap else None)

    def _expire(self) -> None:
        self.timer = self.timer_at = None
        now = self.ctx.now()
        heap = self.deadlines
        ended = 0
        while heap and heap[0][0] <= now:
            entry = heapq.heappop(heap)
            if entry[3] is None:
                continue
            entry[3] = None
            key = entry[2]
            w = self.waiting.get(key)
            if w is not None:
                if w[0] is entry:
                    del w[0]
                else:
                    w.remove(entry)
                if not w:
                    del self.waiting[key]
            ended += 1
        if ended:
            self._release(ended)
        while heap and heap[0][3] is None:
            heapq.heappop(heap)
        if heap:
            self._reschedule(heap[0][0])


def _key_reader(et: Any, props: tuple[str, ...], null: object) -> Callable[[Any], Any]:
    """bean -> the key (a value, or a tuple for several properties); `null` when one is
    null (`x = null` never holds). Events of a subtype read through their own type."""
    if len(props) == 1 and et.representation.name == "MAP":
        prop = props[0]

        def one_map(bean: Any, _et=et, _p=prop, _null=null) -> Any:
            v = bean.underlying.get(_p) if bean.event_type is _et else bean.event_type.getter(_p)(bean.underlying)
            return _null if v is None else v
        return one_map
    if len(props) == 1:
        prop = props[0]
        g = et.getter(prop)

        def one(bean: Any, _g=g, _et=et, _p=prop, _null=null) -> Any:
            v = _g(bean.underlying) if bean.event_type is _et else bean.event_type.getter(_p)(bean.underlying)
            return _null if v is None else v
        return one
    getters = tuple(et.getter(p) for p in props)

    def several(bean: Any, _gs=getters, _et=et, _ps=props, _null=null) -> Any:
        u = bean.underlying
        if bean.event_type is _et:
            k = tuple(g(u) for g in _gs)
        else:
            t = bean.event_type
            k = tuple(t.getter(p)(u) for p in _ps)
        return _null if None in k else k
    return several
