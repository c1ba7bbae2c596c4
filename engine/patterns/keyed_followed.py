"""The keyed followed-by fast path: `every a=A(...) -> b=B(x = a.y, ...)`, optionally with
`where timer:within(t)` on the B side, run as per-key waiting lists (and, with `within`, a
queue of deadlines) instead of a live filter (a filter-index insert and remove) per A event.

The shape (found at compile time by epl/compiler/pattern_fastpath.py, described by
epl/plans/keyed_followed.py; anything else keeps the state machines):
- a followed-by of two children without `-[N]>` limits;
- the first is `every` over a tagged filter of type A (its filter any constant condition);
- the second is a filter of type B (tag optional) or that filter `where timer:within(t)`;
  B's condition is a conjunction of equalities `B.x = a.y` between a B property and a
  property of the A tag (the keys, one or more) and conditions that read neither tag;
- A and B distinct types, neither a subtype of the other, no variant stream; the key
  properties of equal declared types with exact equality (strings, integers, booleans).
The general path's observable behaviour is kept: one registration per type in the filter
index (the statement's order and @drop), the waiting A events of a key completed oldest
first, the matches of one B reaching the stream in that order (each with its own fault
isolation unless they go straight to the statement's rows), the engine-wide sub-expression
limit counted per waiting A, and each `within` ending at its deadline (before an event at
that instant). Statements with @SuppressOverlappingMatches, @DiscardPartialsOnMatch or
`@consume` take the general path, as do context conditions and `on pattern` triggers (only
pattern streams of selects use this).

Expiry is lazy: an instance whose deadline has passed is never matched, and it leaves the
waiting lists at a later A event (for a constant period, in batches a sixteenth of the
period apart) or when anyone reads the pattern-limit count (limits.PatternLimit asks each
run for its live count). No schedule is needed, except for a period of zero or less: such
an instance ends at the next time step even to the same instant (the state machines' timer
fires then), so one schedule at that instant ends them. B's and C's filters test deadlines
themselves, so that an event whose key has only ended instances is discarded unchecked.

B's filter leaf: without `within`, for one key property of a map type, `key in keys of
waiting` (FilterOp.IN_KEYS), tested inline by the filter index's generated code; else a
predicate. Without a pattern limit the handles run functions that keep no count (the
count is read off the waiting lists); PatternLimit.configure switches them.

Delivery: for `select *` (the stream's events are the statement's rows), the matches of a
B event that only this run's B filter wanted, while nothing waits for dispatch, go straight
to the statement's listeners, as Statement._deliver_now does for a stream's own events;
otherwise they take the statement's output queue (`_emit`) or its stream handle.
"""
from __future__ import annotations

import heapq
import sys
import uuid
from collections import deque
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.faults import statement_failed
from engine.fastpath_switch import fast_paths
from engine.statement import late_subscriber
from epl.plans.keyed_followed import KeyedFollowedPlan
from filterindex.spec import FilterOp, FilterParam, FilterSpec

from .limits import PatternLimit, pattern_limit

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

_new_bean = EventBean.__new__   # a match's bean without its __init__ frame

# keys with a null (`x = null` never holds): A events wait under one, B events look up the other
_NULL_A = object()
_NULL_B = object()
# a period of zero or less ends at the next time step: its deadline is kept half a
# millisecond after its start, so that only that step's schedule (not a lazy check at the
# same instant) ends it
_HALF = 0.5


def start_keyed(fast: KeyedFollowedPlan, instance: Any, handle: Any) -> Optional["KeyedFollowedRun"]:
    """The run for one statement instance, or None when the general path must run it
    (fast paths off, overlapping-match annotations on the statement)."""
    if not fast_paths(instance.engine):
        return None
    names = {a.name.lower() for a in getattr(instance.statement, "annotations", ()) or ()}
    if "suppressoverlappingmatches" in names or "discardpartialsonmatch" in names:
        return None
    return KeyedFollowedRun(fast, instance, handle).start()


def _ignore(bean: Any) -> None:
    """A stopped run's handles: an event routed before the stop reaches nothing."""


class _Handle:
    """A filter-index handle of the run: A events or B events of the statement."""

    __slots__ = ("on_event", "order", "drop", "statement")

    def __init__(self, on_event: Callable[[Any], None], statement: Any) -> None:
        self.on_event = on_event
        self.order = statement._match_key
        self.drop = statement.drop
        self.statement = statement


def _waited(spec: FilterSpec, wanted: Callable[[Any], bool], prop: Optional[str],
            waiting: dict, live: bool) -> FilterSpec:
    """B's (or C's) filter narrowed to keys some A waits for: like the state machines'
    per-instance filters, the index discards the other events before any handle, bean or
    type check. For one key property of a map type, a leaf `prop in keys of waiting`,
    which the index's generated code tests inline (no call); else, or when `live` (with
    `within`: only a key with a live instance is wanted), a predicate leaf `wanted` (after
    the inline test, which ranks first: an event whose key nobody waits for costs no call)."""
    key = f"keyed-followed:{uuid.uuid4().hex}"
    leaves: tuple = ()
    if prop is not None:
        leaves += (FilterParam(prop, FilterOp.IN_KEYS, waiting, key=key),)
    if prop is None or live:
        leaves += (FilterParam("", FilterOp.BOOL_EXPR, wanted, key=key + ":live"),)
    return FilterSpec(spec.event_type, tuple(path + leaves for path in spec.paths))


class KeyedFollowedRun:
    """One statement instance's matcher. `waiting` maps a key to what waits for its B,
    oldest first: one entry or a list of entries (an entry is the A event, or with `within`
    the tuple (deadline, key, A event) for a constant positive period, else (deadline, seq,
    key, A event)); `due` holds the `within` entries by deadline (for a constant positive
    period a queue of buckets, lists of entries in creation order; for another constant a
    queue; else a heap). The per-event work is in closures built by `_build` (`fns`:
    the handles' `on_event`, B's and C's filter leaves), with their state in local cells."""

    def __init__(self, fast: KeyedFollowedPlan, instance: Any, handle: Any) -> None:
        self.fast = fast
        self.engine = instance.engine
        self.index = self.engine.filters
        self.ctx = instance.ctx
        self.statement = instance.statement
        self.handle = handle
        self.addendum = getattr(instance, "pattern_filter_addendum", None)
        self.limit: PatternLimit = pattern_limit(self.engine)
        self.tokens: list[Any] = []
        self.handles: list[_Handle] = []
        self.fns: Optional[_Fns] = None
        self._live: Callable[[], int] = lambda: 0
        self._clear: Callable[[], None] = lambda: None

    # -- lifecycle -----------------------------------------------------------------------
    def start(self) -> "KeyedFollowedRun":
        fast = self.fast
        fns = self.fns = _build(self)
        self._live, self._clear = fns.live, fns.clear
        empty = (EventBean(fast.match_type, {}),)
        specs = [fast.a_template.bind(empty),
                 _waited(fast.b_template.bind(empty), fns.b_wanted, fns.b_prop, fns.waiting, fns.live_leaf)]
        handles = [_Handle(fns.on_a, self.statement), _Handle(fns.on_b, self.statement)]
        if fast.c_template is not None:
            specs.append(_waited(fast.c_template.bind(empty), fns.c_wanted, fns.c_prop, fns.waiting,
                                 fns.live_leaf))
            handles.append(_Handle(fns.on_c, self.statement))
        if self.addendum is not None:
            specs = [self.addendum(s) for s in specs]
        self.handles = handles
        fns.choose(handles)
        fns.rebind(self.index, handles[1])
        self.tokens = [self.index.add(s, h) for s, h in zip(specs, handles)]
        self.limit.sources.append(self)
        return self

    def stop(self) -> None:
        tokens, self.tokens = self.tokens, []
        for h in self.handles:
            h.on_event = _ignore
        for t in tokens:
            self.index.remove(t)
        self._clear()
        if self in self.limit.sources:
            self.limit.sources.remove(self)
            self.limit.released()

    def relocate(self, runtime: "Runtime") -> None:
        """Continue in another runtime: the two registrations move to its filter index (the
        zero-period schedule moves with the instance's context; the pattern limit is
        engine-wide, an isolated runtime's is the engine's)."""
        from engine.instance import move_filter
        old, new = self.index, runtime.filters
        if new is not old:
            self.tokens = [move_filter(t, old, new) for t in self.tokens]
        self.engine, self.index = runtime, new
        self.fns.rebind(new, self.handles[1])

    def live_count(self) -> int:
        """Waiting A events (sub-expression instances), after ending the expired ones."""
        return self._live()

    def limit_changed(self) -> None:
        """The pattern limit was configured: count the waiting A events from now on only
        while a limit is set (PatternLimit.configure calls this)."""
        if self.tokens:
            self.fns.choose(self.handles)


class _Fns:
    """What `_build` makes for one run: the handles' per-event functions and the run's
    bookkeeping, closures over one set of local cells."""

    __slots__ = ("on_a", "on_b", "b_wanted", "on_c", "c_wanted", "live", "clear", "rebind", "choose",
                 "waiting", "b_prop", "c_prop", "live_leaf")

    def __init__(self, **fns: Callable) -> None:
        for k, v in fns.items():
            setattr(self, k, v)


def _build(run: KeyedFollowedRun) -> _Fns:
    """The run's per-event closures (see KeyedFollowedRun)."""
    fast = run.fast
    statement, handle, ctx, lim = run.statement, run.handle, run.ctx, run.limit
    a_type, b_type, a_tag, b_tag, mt = fast.a_type, fast.b_type, fast.a_tag, fast.b_tag, fast.match_type
    a_key = _key_reader(a_type, fast.a_props, _NULL_A)
    b_key = _key_reader(b_type, fast.b_props, _NULL_B)
    c_key = _key_reader(fast.c_type, fast.c_props, _NULL_B) if fast.c_type is not None else None
    # one property of a map type: the key read inline (else through the reader)
    # (interned: event dicts' keys written as literals are, and a lookup then matches by identity)
    a_prop = sys.intern(fast.a_props[0]) if len(fast.a_props) == 1 and a_type.representation.name == "MAP" else None
    b_prop = sys.intern(fast.b_props[0]) if len(fast.b_props) == 1 and b_type.representation.name == "MAP" else None
    c_prop = sys.intern(fast.c_props[0]) if fast.c_type is not None and len(fast.c_props) == 1 \
        and fast.c_type.representation.name == "MAP" else None
    within, within_ms = fast.within, fast.within_ms
    # a constant positive period: deadlines come in creation order, so the entries of one
    # key end oldest first (an ending entry, if still waiting, heads its key's list)
    steady = within_ms is not None and within_ms > 0
    slack = max(1, within_ms // 16) if steady else 0
    sweep_at: Any = float("-inf")       # when on_a_steady next ends what has ended
    waiting: dict[Any, Any] = {}
    waiting_get, waiting_pop, waiting_setdefault = waiting.get, waiting.pop, waiting.setdefault
    # a constant positive period: `due` holds buckets, lists of the entries made between two
    # sweeps (`bucket` the one filling), so that a sweep ends a bucket in one `for` loop
    due: Any = deque() if within_ms is not None else []
    bucket: list = []
    pop_due = due.popleft if within_ms is not None else partial(heapq.heappop, due)
    count = 0                           # waiting A events, counted against the limit
    seq = 0
    zero_timer: list = []               # the schedule ending periods of zero or less
    now = ctx.now
    from engine.instance import RowHandle, StatementContext
    # the statement's time without a call (StatementContext.now, inlined)
    plain_ctx = type(ctx) is StatementContext
    # matches go straight to the statement's rows when its stream has no views (RowHandle)
    emit = statement._emit if type(handle) is RowHandle else None
    # several rows in one call unless each is routed (insert into): then each on its own,
    # as the general path's separate matches, so that a failure keeps no other from the stream
    batch = emit is not None and getattr(statement, "_insert_into", None) is None
    engine_of = run                     # run.engine changes when the run moves
    eng = statement.engine              # the engine whose dispatch queue the statement uses

    # -- direct delivery -------------------------------------------------------------------
    # A B event that only this run's B filter wanted, while nothing waits for dispatch: its
    # rows go to the listeners at once, as Statement._deliver_now does for a stream's own
    # events (queueing them and draining the queue would call the same receivers with the
    # same rows with nothing in between). Whether the B filter is alone on B's events is
    # read off the filter index's tree when its route changes (its generated function is
    # replaced on every change: see filterindex/tree.py) and checked when the B event's
    # matches are delivered, against the route function of that moment (the one that routed
    # the event, unless code run while routing it changed the filters: then read again).
    direct = emit is not None and statement._listeners_only
    # the statement's attributes read per B event through its __dict__ (the same dict for
    # its lifetime): CPython 3.11 does not specialize attribute reads of an object whose
    # dict was materialized from its inline values (a Statement's is: statement.py pops
    # from it), so each `statement._listeners` would be a generic lookup
    sd = vars(statement)
    split = "_dispatch" in sd                   # a for-clause splits each delivery
    route = run.index.router(b_type)
    checked_fn: Any = None              # the route function `alone` was read for
    alone = False
    ls1: Any = None                     # the listener tuple `fn1` was read from
    fn1: Any = None
    empty: Any = ()

    def recheck(fn: Any) -> bool:
        nonlocal checked_fn, alone
        checked_fn, alone = fn, _alone(route, b_handle[0])
        return alone

    def receivers(rows: list) -> None:
        """Rows for the listeners when `ls1` is out of date: read them again."""
        nonlocal ls1, fn1, empty
        ls = statement._listeners
        if len(ls) == 1 and ls[0][1] == 2 and statement._subscriber is None and not split:
            ls1, fn1 = ls, ls[0][0]
            empty = None if getattr(eng, "none_for_empty", False) else ()
        else:
            ls1 = fn1 = None
        if statement.has_receivers:
            statement._dispatch(rows, None)

    def deliver(rows: list) -> None:
        """Rows of one B event, through the statement's output queue."""
        if batch:
            emit(rows, None)
            return
        if len(rows) == 1:
            if emit is None:
                handle.on_event(rows[0])
            else:
                emit(rows, None)
            return
        for row in rows:
            # each completed instance is its own filter match in the general path: a
            # failure in one does not keep the others from the stream
            try:
                if emit is None:
                    handle.on_event(row)
                else:
                    emit([row], None)
            except Exception as exc:
                statement_failed(engine_of.engine, statement, row, exc)

    def hand_out(bean: Any, rows: list) -> None:
        """Rows of one B event: to the statement's one listener at once when the routing
        hands B events to this handle alone and nothing waits for dispatch (what the
        dispatch would do), else through `deliver`. (on_b_plain has this inlined: keep
        the two the same.)"""
        if direct and not eng._dispatch_queue and bean.event_type is b_type \
                and (alone if route.fn is checked_fn else recheck(route.fn)):
            if sd["_listeners"] is ls1 and sd["_subscriber"] is None:
                try:
                    fn1(rows, empty)
                except Exception as exc:  # isolate listeners: log, signal, go on
                    statement._failed("Listener", fn1, exc)
                if sd["_subscriber"] is not None:
                    late_subscriber(statement, rows, empty)   # set by that listener
            else:
                receivers(rows)
            return
        deliver(rows)

    def admit() -> bool:
        """The limit's check for one more instance (only while a limit is set)."""
        return lim.admit(engine_of.engine, statement)

    def released(n: int) -> None:
        nonlocal count
        count -= n
        if lim.max_instances is not None:
            lim.released()

    # -- A events --------------------------------------------------------------------------
    def on_a(bean: Any) -> None:
        nonlocal count
        if a_prop is not None and bean.event_type is a_type:
            key = bean.underlying.get(a_prop)
            if key is None:
                key = _NULL_A
        else:
            key = a_key(bean)
        if lim.max_instances is not None and not admit():
            return
        count += 1
        w = waiting_get(key)
        if w is None:
            waiting[key] = bean
        elif type(w) is list:
            w.append(bean)
        else:
            waiting[key] = [w, bean]

    def end_entries(entries: list) -> int:
        """The entries (ended, oldest first) leave their keys' lists; how many were still
        waiting. Entries end in creation order, so an ending entry still waiting heads its
        key's list."""
        ended = 0
        for e in entries:
            # (popped and put back unless it ends: one lookup for an ending lone entry)
            w = waiting_pop(e[1], None)
            if w is e:
                ended += 1
            elif w is not None:
                if type(w) is list and w[0] is e:
                    del w[0]
                    ended += 1
                    if len(w) == 1:
                        w = w[0]
                waiting[e[1]] = w
        return ended

    def sweep(t: float) -> int:
        """The buckets of a constant period whose entries have all ended (the newest has)
        leave the queue, and their entries their keys' lists, oldest first (once per
        `slack`, not per event; the filling bucket stays); how many were still waiting."""
        ended = 0
        while due:
            b = due[0]
            if b is bucket or (b and b[-1][0] > t):
                break
            pop_due()
            ended += end_entries(b)
        return ended

    def expire_steady(t: float) -> None:
        """`expire` for a constant period: every entry ended at `t` leaves (whole buckets,
        then the ended head of the first bucket still holding a live entry, which stays)."""
        ended = sweep(t)
        if due:
            b = due[0]
            i = 0
            for e in b:
                if e[0] > t:
                    break
                i += 1
            if i:
                ended += end_entries(b[:i])
                del b[:i]
        if ended:
            released(ended)

    def on_a_steady(bean: Any) -> None:
        """`within` a constant positive period: entries (deadline, key, A event) in a queue.
        The ended ones leave in batches, a sixteenth of the period apart (one loop for
        several, oldest first, each the head of its key's list); until then B events and
        the live count (see `live_count`) skip them by their deadline."""
        nonlocal count, sweep_at, bucket
        if a_prop is not None and bean.event_type is a_type:
            key = bean.underlying.get(a_prop)
            if key is None:
                key = _NULL_A
        else:
            key = a_key(bean)
        t = ctx._scheduler.now - ctx.offset if plain_ctx else now()
        if t >= sweep_at:
            ended = sweep(t)
            sweep_at = t + slack
            bucket = []
            due.append(bucket)
            if ended:
                count -= ended
                if lim.max_instances is not None:
                    lim.released()
        if lim.max_instances is not None and not admit():
            return
        count += 1
        entry = (t + within_ms, key, bean)
        bucket.append(entry)
        w = waiting_get(key)
        if w is None:
            waiting[key] = entry
        elif type(w) is list:
            w.append(entry)
        else:
            waiting[key] = [w, entry]

    def on_a_within(bean: Any) -> None:
        """`within` a period per A event, or of zero or less: entries (deadline, seq, key, A
        event) in a heap (or a queue for a constant period)."""
        nonlocal count, seq
        if a_prop is not None and bean.event_type is a_type:
            key = bean.underlying.get(a_prop)
            if key is None:
                key = _NULL_A
        else:
            key = a_key(bean)
        t = now()
        if due and due[0][0] <= t:
            expire(t)
        if lim.max_instances is not None and not admit():
            return
        count += 1
        if within_ms is not None:
            period = within_ms
        else:
            period = within({a_tag: bean})
        if period > 0:
            entry = (t + period, seq, key, bean)
        else:
            entry = (t + _HALF, seq, key, bean)
            if not zero_timer:
                zero_timer.append(ctx.schedule(t, expire_zero))
        seq += 1
        if within_ms is not None:
            due.append(entry)
        else:
            heapq.heappush(due, entry)
        w = waiting_get(key)
        if w is None:
            waiting[key] = entry
        elif type(w) is list:
            w.append(entry)
        else:
            waiting[key] = [w, entry]

    # -- without a pattern limit: no count kept (`live_count` counts the waiting lists) ----
    # one key property of a map type on each side, a constant positive period or none
    plain_ok = a_prop is not None and b_prop is not None and (within is None or steady)
    plain = False                       # the handles run the functions below (see `choose`)

    def on_a_plain(bean: Any) -> None:
        """on_a without the limit's check and count."""
        if bean.event_type is a_type:
            key = bean.underlying.get(a_prop)
            if key is None:
                key = _NULL_A
        else:
            key = a_key(bean)
        w = waiting_get(key)
        if w is None:
            waiting[key] = bean
        elif type(w) is list:
            w.append(bean)
        else:
            waiting[key] = [w, bean]

    def on_a_steady_plain(bean: Any) -> None:
        """on_a_steady without the limit's check and count."""
        nonlocal sweep_at, bucket
        if bean.event_type is a_type:
            key = bean.underlying.get(a_prop)
            if key is None:
                key = _NULL_A
        else:
            key = a_key(bean)
        t = ctx._scheduler.now - ctx.offset if plain_ctx else now()
        if t >= sweep_at:
            sweep(t)
            sweep_at = t + slack
            bucket = []
            due.append(bucket)
        entry = (t + within_ms, key, bean)
        bucket.append(entry)
        w = waiting_setdefault(key, entry)      # (one lookup for a key nobody waits under)
        if w is not entry:
            if type(w) is list:
                w.append(entry)
            else:
                waiting[key] = [w, entry]

    def on_b_plain(bean: Any) -> None:
        """on_b without the limit's count, for one key property of a map type (and, with
        `within`, a constant positive period: entries (deadline, key, A event))."""
        if bean.event_type is b_type:
            w = waiting_pop(bean.underlying.get(b_prop, _NULL_B), None)
        else:
            w = waiting_pop(b_key(bean), None)
        if w is None:
            return
        if within is None:
            if type(w) is not list:         # one A waits (the common case)
                row = _new_bean(EventBean)
                row.event_type = mt
                row.underlying = {a_tag: w, b_tag: bean} if b_tag is not None else {a_tag: w}
                rows = [row]
            else:
                rows = []
                for a in w:
                    row = _new_bean(EventBean)
                    row.event_type = mt
                    row.underlying = {a_tag: a, b_tag: bean} if b_tag is not None else {a_tag: a}
                    rows.append(row)
        else:
            t = ctx._scheduler.now - ctx.offset if plain_ctx else now()
            if type(w) is not list:
                if w[0] <= t:
                    return                      # expired
                row = _new_bean(EventBean)
                row.event_type = mt
                row.underlying = {a_tag: w[2], b_tag: bean} if b_tag is not None else {a_tag: w[2]}
                rows = [row]
            else:
                rows = []
                for e in w:
                    if e[0] > t:                # the others have expired
                        row = _new_bean(EventBean)
                        row.event_type = mt
                        row.underlying = {a_tag: e[2], b_tag: bean} if b_tag is not None else {a_tag: e[2]}
                        rows.append(row)
                if not rows:
                    return
        # hand_out inlined (a call per matched B event is a tenth of its cost here)
        if direct and not eng._dispatch_queue and bean.event_type is b_type \
                and (alone if route.fn is checked_fn else recheck(route.fn)):
            if sd["_listeners"] is ls1 and sd["_subscriber"] is None:
                try:
                    fn1(rows, empty)
                except Exception as exc:  # isolate listeners: log, signal, go on
                    statement._failed("Listener", fn1, exc)
                if sd["_subscriber"] is not None:
                    late_subscriber(statement, rows, empty)   # set by that listener
            else:
                receivers(rows)
            return
        deliver(rows)

    def waiting_count() -> int:
        """The waiting A events (expired ones ended first)."""
        ended_now()
        return sum(len(w) if type(w) is list else 1 for w in waiting.values())

    def choose(handles: list) -> None:
        """Give the handles the functions for the limit as it is now: without one, the
        plain functions (no count kept), else the counting ones (the count taken from the
        waiting lists when switching to them)."""
        nonlocal plain, count
        p = plain_ok and lim.max_instances is None
        if p != plain and not p:
            count = waiting_count()
        plain = p
        handles[0].on_event = (on_a_steady_plain if within is not None else on_a_plain) if p else on
        handles[1].on_event = on_b_plain if p else on_b

    # -- B events --------------------------------------------------------------------------
    b_handle: list = [None]             # the run's B handle (set by `start`)

    def wanted(bean: Any) -> bool:
        """B's filter leaf when its key is not one property of a map type (else the index
        tests `waiting` inline: see _waited)."""
        try:
            return b_key(bean) in waiting
        except TypeError:       # an unhashable value: no A waits for it
            return False

    def on_b(bean: Any) -> None:
        nonlocal count
        if b_prop is not None and bean.event_type is b_type:
            w = waiting_pop(bean.underlying.get(b_prop, _NULL_B), None)
        else:
            w = waiting_pop(b_key(bean), None)
        if w is None:
            return
        if type(w) is not list:         # one A waits (the common case)
            count -= 1
            if lim.max_instances is not None:
                lim.released()
            if within is not None:
                if w[0] <= (ctx._scheduler.now - ctx.offset if plain_ctx else now()):
                    return                  # expired
                w = w[-1]
            row = _new_bean(EventBean)
            row.event_type = mt
            row.underlying = {a_tag: w, b_tag: bean} if b_tag is not None else {a_tag: w}
            rows = [row]
        else:
            count -= len(w)
            if lim.max_instances is not None:
                lim.released()
            if within is not None:
                t = ctx._scheduler.now - ctx.offset if plain_ctx else now()
                w = [e[-1] for e in w if e[0] > t]       # the others have expired
                if not w:
                    return
            rows = []
            for a in w:
                row = _new_bean(EventBean)
                row.event_type = mt
                row.underlying = {a_tag: a, b_tag: bean} if b_tag is not None else {a_tag: a}
                rows.append(row)
        hand_out(bean, rows)

    # -- C events (`and not C`) ------------------------------------------------------------
    def c_wanted(bean: Any) -> bool:
        try:
            return c_key(bean) in waiting
        except TypeError:       # an unhashable value: no A waits for it
            return False

    # -- with `within`: filter leaves that see only live instances ------------------------
    # Ended instances leave the waiting lists lazily, but B's and C's filters must let an
    # event through only while a live instance waits for its key (as the state machines'
    # filters, removed at the deadline): an event nobody wants is discarded unchecked.
    def live_under(key: Any) -> bool:
        try:
            w = waiting_get(key)
        except TypeError:       # an unhashable value: no A waits for it
            return False
        if w is None:
            return False
        t = ctx._scheduler.now - ctx.offset if plain_ctx else now()
        if type(w) is not list:
            return w[0] > t
        if steady:              # deadlines in creation order: the newest ends last
            return w[-1][0] > t
        for e in w:
            if e[0] > t:
                return True
        return False

    def wanted_live(bean: Any) -> bool:
        if b_prop is not None and bean.event_type is b_type:
            return live_under(bean.underlying.get(b_prop))
        return live_under(b_key(bean))

    def wanted_steady(bean: Any) -> bool:
        """wanted_live for a constant positive period and one key property of a map type
        (live_under inlined)."""
        if bean.event_type is not b_type:
            return live_under(b_key(bean))
        try:
            w = waiting_get(bean.underlying.get(b_prop))
        except TypeError:       # an unhashable value: no A waits for it
            return False
        if w is None:
            return False
        if type(w) is list:
            w = w[-1]           # deadlines in creation order: the newest ends last
        return w[0] > (ctx._scheduler.now - ctx.offset if plain_ctx else now())

    def c_wanted_live(bean: Any) -> bool:
        return live_under(c_key(bean))

    def on_c(bean: Any) -> None:
        """`not C` turned false: the instances waiting under C's key end."""
        w = waiting_pop(c_key(bean), None)
        if w is not None:
            released(len(w) if type(w) is list else 1)

    # -- expiry ----------------------------------------------------------------------------
    def expire(t: float) -> None:
        """End the waiting instances whose deadline is at or before `t`."""
        ended = 0
        while due and due[0][0] <= t:
            entry = pop_due()
            key = entry[-2]
            w = waiting_get(key)
            if w is None:
                continue                # completed by its B
            if w is entry:
                del waiting[key]
            elif type(w) is list:
                for i, x in enumerate(w):
                    if x is entry:
                        del w[i]
                        if len(w) == 1:
                            waiting[key] = w[0]
                        break
                else:
                    continue
            else:
                continue
            ended += 1
        if ended:
            released(ended)

    def expire_zero() -> None:
        zero_timer.clear()
        expire(now() + _HALF)

    def ended_now() -> None:
        """End what has ended at the current time."""
        t = now()
        if steady:
            expire_steady(t)
        elif due and due[0][0] <= t:
            expire(t)

    def live_count() -> int:
        if plain:
            return waiting_count()
        ended_now()
        return count

    def clear() -> None:
        nonlocal count, sweep_at
        if zero_timer:
            ctx.cancel(zero_timer.pop())
        waiting.clear()
        due.clear()
        sweep_at = float("-inf")        # the next A opens a bucket in the queue
        count = 0

    def rebind(index: Any, b: Any) -> None:
        """The run's filters live in `index` now; `b` is its B handle."""
        nonlocal route, checked_fn
        route, checked_fn = index.router(b_type), None
        b_handle[0] = b

    on = on_a if within is None else on_a_steady if steady else on_a_within
    if within is not None:      # the leaves test deadlines (after the inline key test)
        return _Fns(on_a=on, on_b=on_b, b_wanted=wanted_steady if steady and b_prop is not None else wanted_live,
                    on_c=on_c, c_wanted=c_wanted_live,
                    live=live_count, clear=clear, rebind=rebind, choose=choose, waiting=waiting,
                    b_prop=b_prop, c_prop=c_prop, live_leaf=True)
    return _Fns(on_a=on, on_b=on_b, b_wanted=wanted, on_c=on_c, c_wanted=c_wanted,
                live=live_count, clear=clear, rebind=rebind, choose=choose, waiting=waiting,
                b_prop=b_prop, c_prop=c_prop, live_leaf=False)


def _alone(route: Any, handle: Any) -> bool:
    """Whether the filters that `route` (filterindex.tree's routing of one event type) goes
    through hold `handle` and nothing else, in one chain of nodes that the route's function
    inlines (so that any registration added to them replaces that function)."""
    if route.pre is not None or len(route.roots) != 1:
        return False
    node = route.roots[0]
    while True:
        if node.indexes:
            if node.handles or len(node.indexes) != 1:
                return False
            entries = node.indexes[0].entries
            if len(entries) != 1:
                return False
            node = next(iter(entries.values()))
            if not node.inlined:
                return False
        else:
            return node.one is handle


def _key_reader(et: Any, props: tuple[str, ...], null: object) -> Callable[[Any], Any]:
    """bean -> the key (a value, or a tuple for several properties); `null` when one is
    null (`x = null` never holds). Events of a subtype read through their own type."""
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


def _register() -> None:
    from engine.patterns.run import FAST_PATHS
    FAST_PATHS[KeyedFollowedPlan] = start_keyed


_register()
