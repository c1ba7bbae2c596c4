"""Statement-state rollback for the last-resort fault path: a statement that raises while
processing an event is put back, in place, to its state before the event (docs/errors.md).

`StateCapture` records the mutable state reachable from a statement instance (windows, the
result-set processor's aggregation rows, output limiters, pattern state, joins, user
aggregators): lists, dicts, sets and deques by content, other objects by their attributes.
Objects that are not the statement's state are pinned, never recorded or entered: events,
event types, the engine, statements, contexts, schedulers, the filter index and its
registrations, named windows and tables, functions and methods, classes, modules and frozen
dataclasses (compiled configuration). Restoring writes every recorded content back into the
same objects, so references from schedules and other statements stay valid.

`StatementGuard` guards one statement instance: every way work reaches it goes through the
guard (its streams' first views, the filters its pattern registers, the callbacks its views,
patterns and output limiter schedule), which records the state before the first step of an
event and restores it when a step raises, then re-raises for the engine's fault report. The
statement's other steps for that event are skipped (it skips the event whole). Schedules the
failed step added are cancelled, the ones it cancelled are live again, filters its pattern
added or removed are taken out or put back, and a failed callback runs again at the next time
advance. When the step failed on an event waiting in a batch window (the batch is processed
when it posts, see `blame`), that event leaves the batch and the step runs again without it.

Recording costs time proportional to the statement's state, per event: statements are
guarded when they run user code that can raise mid-update (registered aggregations), not
otherwise (epl/compiler/guard.py decides).
"""
from __future__ import annotations

import enum
import heapq
import logging
import threading
import types
from collections import deque
from decimal import Decimal
from typing import Any, Callable, Iterator, Optional

from views.base import Events

from engine.contracts.bean import EventBean
from engine.contracts.event_types import EventType
from engine.contracts.scheduler import ScheduleHandle, Scheduler

log = logging.getLogger("epl.engine")

_ATOMIC = (type(None), bool, int, float, complex, str, bytes, Decimal, range, frozenset,
           types.FunctionType, types.BuiltinFunctionType, types.MethodType,
           types.BuiltinMethodType, types.ModuleType, type, EventBean, EventType, Scheduler,
           enum.Enum, logging.Logger, type(threading.Lock()), type(threading.RLock()))
_MISSING = object()
# a statement whose state is larger than this is not guarded (logged once)
MAX_OBJECTS = 200_000


_class_infos: dict[type, tuple[bool, tuple[str, ...]]] = {}


def _class_info(cls: type) -> tuple[bool, tuple[str, ...]]:
    """(whether instances are frozen dataclasses, the slot names over the class's MRO)."""
    info = _class_infos.get(cls)
    if info is None:
        seen: list[str] = []
        for k in cls.__mro__:
            for s in getattr(k, "__slots__", ()):
                if isinstance(s, str) and s not in ("__dict__", "__weakref__") and s not in seen:
                    seen.append(s)
        params = getattr(cls, "__dataclass_params__", None)
        info = _class_infos[cls] = (params is not None and params.frozen, tuple(seen))
    return info


def _slots_of(cls: type) -> tuple[str, ...]:
    return _class_info(cls)[1]


# what the walk does with an object, by its class (decided once per class)
_LIST, _DICT, _SET, _DEQUE, _OBJECT, _SKIP, _TUPLE, _HANDLE = 0, 1, 2, 3, 4, 5, 6, 7
_categories: dict[type, int] = {}


def _categorize(cls: type, pinned: tuple) -> int:
    if issubclass(cls, _ATOMIC) or issubclass(cls, pinned) or _class_info(cls)[0] \
            or getattr(cls, "shared_state", False):
        cat = _SKIP                           # values, shared objects, frozen configuration
    elif cls is tuple:
        cat = _TUPLE
    elif cls is ScheduleHandle:
        cat = _HANDLE
    elif issubclass(cls, list):
        cat = _LIST
    elif issubclass(cls, dict):
        cat = _DICT
    elif issubclass(cls, set):
        cat = _SET
    elif issubclass(cls, deque):
        cat = _DEQUE
    else:
        cat = _OBJECT
    _categories[cls] = cat
    return cat


_LEAF_TYPES = frozenset((type(None), bool, int, float, str, bytes, Decimal, EventBean))


def _leafy(x: Any) -> bool:
    """Whether `x` holds nothing to record: a value or event, or a tuple of them (judged by
    its ends, as containers are)."""
    t = type(x)
    if t in _LEAF_TYPES:
        return True
    if t is tuple:
        return not x or (type(x[0]) in _LEAF_TYPES and type(x[-1]) in _LEAF_TYPES)
    return False


class StateCapture:
    """One recording of the state reachable from some roots; `restore` puts it back."""

    __slots__ = ("records", "handles", "pinned")

    def __init__(self, roots: list, pinned: tuple) -> None:
        self.records: list[tuple[Any, int, Any]] = []
        self.handles: list[tuple[ScheduleHandle, bool]] = []
        self.pinned = pinned
        self._walk(roots)

    def _walk(self, roots: list) -> None:
        records, handles, pinned = self.records, self.handles, self.pinned
        seen: set[int] = set()
        stack = list(roots)
        leafy, categories = _leafy, _categories
        while stack:
            obj = stack.pop()
            cls = type(obj)
            cat = categories.get(cls)
            if cat is None:
                cat = _categorize(cls, pinned)
            if cat is _SKIP:
                continue
            oid = id(obj)
            if oid in seen:
                continue
            seen.add(oid)
            if len(seen) > MAX_OBJECTS:
                raise OverflowError("statement state too large to guard")
            if cat is _TUPLE:
                if not leafy(obj):
                    stack.extend(obj)
                continue
            if cat is _HANDLE:
                handles.append((obj, obj.active))
                continue
            if cat <= 3:                  # list, dict, set, deque
                if cat == 1:
                    saved: Any = dict(obj)
                    items = list(saved.values())
                    # keys can be state too (a pattern node's live children)
                    keys = list(saved)
                    if keys and not (leafy(keys[0]) and leafy(keys[-1])):
                        stack.extend(keys)
                else:
                    saved = items = list(obj)
                records.append((obj, cat, saved))
                # window contents are events (or tuples of them) throughout: when the first
                # and the last element hold nothing to record, the others are not visited
                if items and not (leafy(items[0]) and leafy(items[-1])):
                    stack.extend(items)
                continue
            d = getattr(obj, "__dict__", None)
            if d is not None:
                records.append((obj, 4, dict(d)))
                stack.extend(d.values())
            names = _class_info(cls)[1]
            if names:
                values = tuple(getattr(obj, n, _MISSING) for n in names)
                records.append((obj, 5, values))
                stack.extend(values)

    def restore(self, scheduler: Optional[Scheduler]) -> None:
        for obj, kind, saved in self.records:
            if kind == 0:
                obj[:] = saved
            elif kind == 1:
                obj.clear()
                obj.update(saved)
            elif kind == 2:
                obj.clear()
                obj.update(saved)
            elif kind == 3:
                obj.clear()
                obj.extend(saved)
            elif kind == 4:
                d = obj.__dict__
                d.clear()
                d.update(saved)
            else:
                for name, value in zip(_slots_of(type(obj)), saved):
                    if value is _MISSING:
                        if hasattr(obj, name):
                            object.__delattr__(obj, name)
                    else:
                        object.__setattr__(obj, name, value)
        if scheduler is not None:
            for h, active in self.handles:
                if active and not h.active:
                    scheduler_revive(scheduler, h)


def scheduler_revive(scheduler: Scheduler, handle: ScheduleHandle) -> None:
    """Make a callback cancelled during a rolled-back event live again."""
    handle.active = True
    scheduler._active += 1
    if not any(h is handle for h in scheduler._heap):
        heapq.heappush(scheduler._heap, handle)


def scheduler_cancel_since(scheduler: Scheduler, mark: int, slot: Any) -> None:
    """Cancel the live callbacks scheduled after `mark` in `slot` or the slots under it."""
    n = len(slot)
    for h in list(scheduler._heap):
        if h.active and h.seq > mark and isinstance(h.slot, tuple) and h.slot[:n] == slot:
            scheduler.cancel(h)



def blame(exc: BaseException, eps: Any) -> None:
    """Note on `exc` the events (a tuple, one per stream) whose aggregation raised it, unless
    an inner loop already did: a guard then knows which waiting event to leave out."""
    if eps is not None and getattr(exc, "epl_events", None) is None:
        try:
            exc.epl_events = eps       # type: ignore[attr-defined]
        except (AttributeError, TypeError):     # an exception class refusing attributes
            pass


def _delegated(wrapper: Any, slot: str, name: str) -> Any:
    """`name` of the object a wrapper stands for (its `slot`); no dunders, and nothing while
    the wrapper is being unpickled."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        inner = object.__getattribute__(wrapper, slot)
    except AttributeError:
        raise AttributeError(name) from None
    return getattr(inner, name)


class GuardedCall:
    """A scheduled callback of a guarded statement (window expiry, batch end, pattern timers,
    output limiting): run under the guard."""

    __slots__ = ("guard", "callback", "handle")

    def __init__(self, guard: "StatementGuard", callback: Callable[[], None]) -> None:
        self.guard = guard
        self.callback = callback
        self.handle: Any = None

    def __call__(self) -> None:
        # a callback that fails is live again afterwards: it runs at the next time advance
        self.guard.step(self.callback, revive=self.handle)


class GuardedContext:
    """A guarded statement's context as its views, patterns and output limiter see it: the
    statement's, with the callbacks they schedule run under the guard."""

    __slots__ = ("ctx", "guard")

    def __init__(self, ctx: Any, guard: "StatementGuard") -> None:
        self.ctx = ctx
        self.guard = guard

    def schedule(self, at: int, callback: Callable[[], None]) -> Any:
        call = GuardedCall(self.guard, callback)
        call.handle = self.ctx.schedule(at, call)
        return call.handle

    def schedule_after_views(self, at: int, callback: Callable[[], None]) -> Any:
        call = GuardedCall(self.guard, callback)
        call.handle = self.ctx.schedule_after_views(at, call)
        return call.handle

    def schedule_after(self, delta: int, callback: Callable[[], None]) -> Any:
        return self.schedule(self.ctx.now() + delta, callback)

    def __getattr__(self, name: str) -> Any:
        return _delegated(self, "ctx", name)


class GuardedTarget:
    """Stands for a guarded stream's first view (or sink): what the stream's handle, a named
    window or a pattern hands it goes through the guard. The event is the step's key: a
    statement that failed on an event skips its other streams' steps for that event."""

    __slots__ = ("inner", "guard")

    def __init__(self, inner: Any, guard: "StatementGuard") -> None:
        self.inner = inner
        self.guard = guard

    def update(self, new: Events, old: Events) -> None:
        self.guard.step(self.inner.update, new, old,
                        key=new[0] if new and len(new) == 1 else None)

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self.inner)

    def __len__(self) -> int:
        return len(self.inner)

    def __getattr__(self, name: str) -> Any:
        return _delegated(self, "inner", name)


class GuardedFilterHandle:
    """A filter a guarded statement's pattern registers: the filter index calls it, and the
    pattern's own node runs under the guard."""

    __slots__ = ("inner", "guard", "order", "drop", "statement")

    def __init__(self, inner: Any, guard: "StatementGuard") -> None:
        self.inner = inner
        self.guard = guard
        self.order = inner.order
        self.drop = inner.drop
        self.statement = inner.statement

    def on_event(self, bean: EventBean) -> None:
        self.guard.step(self.inner.on_event, bean, key=bean)


def _pinned_runtime_classes() -> tuple:
    """Shared objects a statement reaches but does not own: the filter index and its
    registrations. Statements, their contexts, named windows and tables (other statements'
    state) say so themselves with a `shared_state` class attribute."""
    from filterindex.tree import FilterIndex, _Registration
    return (FilterIndex, _Registration, StatementGuard, GuardedContext)


class StatementGuard:
    """Records a statement instance's state before each event's first step (and before each
    scheduled callback) and restores it when a step raises; see the module docstring."""

    __slots__ = ("instance", "enabled", "depth", "key", "capture", "mark", "failed", "pinned",
                 "retries")

    # how many waiting events one step may leave out before it gives up (docs/errors.md)
    MAX_RETRIES = 16

    def __init__(self, instance: Any) -> None:
        self.instance = instance
        self.enabled = True
        self.depth = 0
        self.key: Any = None
        self.capture: Optional[StateCapture] = None
        self.mark: Any = None
        self.failed: Any = None
        self.pinned: tuple = ()
        self.retries = 0

    def __getstate__(self) -> dict:
        # a checkpoint is taken between events: nothing recorded is worth keeping
        return {"instance": self.instance, "enabled": self.enabled}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["instance"])
        self.enabled = state["enabled"]

    def track(self, processor: Any) -> None:
        """Aggregations take the per-event path in a guarded statement, which notes on an
        exception the event that raised it (`blame`)."""
        aggs = getattr(processor, "aggs", None)
        if aggs is not None and hasattr(aggs, "plain"):
            aggs.plain = False

    # -- the engine's view of the statement ---------------------------------------------------
    def target(self, inner: Any) -> GuardedTarget:
        return GuardedTarget(inner, self)

    def context(self, ctx: Any) -> GuardedContext:
        return GuardedContext(ctx, self)

    def filter_handle(self, handle: Any) -> GuardedFilterHandle:
        return GuardedFilterHandle(handle, self)

    # -- steps --------------------------------------------------------------------------------
    def step(self, fn: Callable[..., None], *args: Any, key: Any = None, revive: Any = None) -> None:
        """Run `fn(*args)`, one step of the statement's work; `key` is the event the step
        processes (None: a step of its own, e.g. a callback or a window change)."""
        if self.depth:                 # inside a step of this statement already
            fn(*args)
            return
        if key is not None and key is self.failed:
            return                     # this statement skips the rest of that event
        if not self.enabled:
            fn(*args)
            return
        if key is None or key is not self.key or self.capture is None:
            if not self._record(key):
                fn(*args)
                return
        self.depth = 1
        try:
            fn(*args)
        except BaseException as exc:
            self.depth = 0
            self._undo()
            blamed = self._leave_out_blamed(exc, key)
            if blamed is not None:
                self.retries += 1
                try:
                    self._report(exc, blamed)
                    if self.retries <= self.MAX_RETRIES:
                        self.step(fn, *args, key=key, revive=revive)
                        return
                finally:
                    self.retries -= 1
            self.failed = key
            self.capture = None
            if isinstance(revive, ScheduleHandle) and not revive.active:
                scheduler = self._scheduler()
                if scheduler is not None:
                    scheduler_revive(scheduler, revive)
            raise
        finally:
            self.depth = 0
        if key is None:
            self.capture = None        # a step of its own: nothing else shares its recording

    def _scheduler(self) -> Optional[Scheduler]:
        s = getattr(self.instance.ctx, "_scheduler", None)
        return s if isinstance(s, Scheduler) else None

    def _record(self, key: Any) -> bool:
        """Record the state before a step; False when the statement became too large to
        guard (logged once, unguarded from then on)."""
        if not self.pinned:
            engine = self.instance.engine
            self.pinned = (type(engine),) + _pinned_runtime_classes()
        try:
            capture = StateCapture(self._roots(), self.pinned)
        except OverflowError:
            self.enabled = False
            self.capture = None
            log.warning("Statement state too large to roll back on faults; not guarded")
            return False
        scheduler = self._scheduler()
        self.mark = next(scheduler._seq) if scheduler is not None else None
        self.capture = capture
        self.failed = None
        if key is not None and self.key is not key:
            self.key = key
            after = getattr(self.instance.engine, "after_event", None)
            if after is not None:      # the recording serves this event's steps only
                after(self._forget)
        return True

    def _forget(self) -> None:
        self.key = self.failed = self.capture = None

    def _roots(self) -> list:
        inst = self.instance
        roots = [inst]
        limit = getattr(getattr(inst.engine, "services", None), "pattern_limit", None)
        if limit is not None and not isinstance(limit, int):
            roots.append(limit)         # instance counts move with the pattern's state
        return roots

    def _undo(self) -> None:
        """Put the recorded state back, with the statement's filters and schedules."""
        capture = self.capture
        if capture is None:
            return
        runs = [r for r in getattr(self.instance, "registrations", ()) if hasattr(r, "live")]
        after = [{id(f.token): f.token for f in r.live} for r in runs]
        scheduler = self._scheduler()
        capture.restore(scheduler)
        for run, post in zip(runs, after):
            _reconcile_filters(run, post)
        slot = getattr(self.instance.ctx, "slot", None)
        if scheduler is not None and isinstance(slot, tuple) and self.mark is not None:
            scheduler_cancel_since(scheduler, self.mark, slot)

    def _leave_out_blamed(self, exc: BaseException, key: Any) -> Optional[EventBean]:
        """When the step failed on an event waiting in one of the statement's batch windows
        (not the step's own event: that one the statement skips anyway), take it out of the
        batch, as if it had never arrived. The event taken out, or None."""
        eps = getattr(exc, "epl_events", None)
        if not eps:
            return None
        culprits = [e for e in eps if isinstance(e, EventBean) and e is not key]
        if not culprits:
            return None
        held = False
        for view in _batch_views(self.capture):
            batch = getattr(view, "_batch", None)
            if batch and any(c is e for c in culprits for e in batch):
                view._drop(culprits)
                held = True
        if not held:
            return None
        exc.epl_events = None      # type: ignore[attr-defined]
        self._record(key)
        return culprits[0]

    def _report(self, exc: BaseException, event: Optional[EventBean]) -> None:
        from .faults import statement_failed
        statement_failed(self.instance.engine, self.instance.statement, event, exc)


def _batch_views(capture: Optional[StateCapture]) -> list:
    """The statement's batch windows (BatchHeld views, grouped ones included): among the
    objects the recording went through."""
    from views._held import BatchHeld
    if capture is None:
        return []
    return [obj for obj, _kind, _saved in capture.records if isinstance(obj, BatchHeld)]


def _reconcile_filters(run: Any, post: dict) -> None:
    """After a pattern's state was put back: filters its failed step registered leave the
    index, filters it removed are registered again (same spec, same handle)."""
    index = run.index
    pre = {id(f.token): f for f in run.live}
    for tid, token in post.items():
        if tid not in pre:
            index.remove(token)
    for tid, f in pre.items():
        if tid not in post:
            token = f.token
            f.token = index.add(token.spec, token.handle)
