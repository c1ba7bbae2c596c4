"""Statement-state rollback for the last-resort fault path: a statement that raises while
processing an event is put back, in place, to its state before the event (docs/errors.md).

`StateCapture` records the mutable state reachable from a statement instance's views
(windows, the result-set processor's aggregation rows, output limiters, user aggregators):
lists, dicts, sets and deques by content, other objects by their attributes. Objects that
are not the statement's state are pinned, never recorded or entered: events, event types,
the engine, statements, contexts, schedulers, functions and methods, classes, modules and
frozen dataclasses (compiled configuration). Restoring writes every recorded content back
into the same objects, so references from schedules and other statements stay valid.

`GuardChain` holds the views of each stream of a guarded statement: it records before
passing an event on, or before a callback its views scheduled runs (window expiry), and
restores when that raises, then re-raises for the engine's fault report. Schedules the
failed step added in the statement's slots are cancelled, the ones it cancelled are live
again, and a failed callback runs again at the next time advance.

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
from dataclasses import dataclass
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


def _pinned_classes(ctx: Any) -> tuple:
    """Classes known only at run time: the engine (the class of the statement's engine: the
    runtime does not import the facade), statements and their contexts."""
    from .instance import StatementContext
    from .statement import Statement
    engine = getattr(getattr(ctx, "statement", None), "engine", None)
    return ((type(engine),) if engine is not None else ()) + (Statement, StatementContext)


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
    if issubclass(cls, _ATOMIC) or issubclass(cls, pinned) or _class_info(cls)[0]:
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


class GuardedCall:
    """A scheduled callback of a guarded chain (window expiry): run under the guard."""

    __slots__ = ("chain", "callback", "handle")

    def __init__(self, chain: "GuardChain", callback: Callable[[], None]) -> None:
        self.chain = chain
        self.callback = callback
        self.handle: Any = None

    def __call__(self) -> None:
        # a callback that fails is live again afterwards: it runs at the next time advance
        self.chain.guarded(self.callback, revive=self.handle)


class GuardedContext:
    """The views' context inside a guarded chain: the statement's, with the callbacks they
    schedule run under the guard."""

    __slots__ = ("ctx", "chain")

    def __init__(self, ctx: Any, chain: "GuardChain") -> None:
        self.ctx = ctx
        self.chain = chain

    def schedule(self, at: int, callback: Callable[[], None]) -> Any:
        call = GuardedCall(self.chain, callback)
        call.handle = self.ctx.schedule(at, call)
        return call.handle

    def schedule_after_views(self, at: int, callback: Callable[[], None]) -> Any:
        call = GuardedCall(self.chain, callback)
        call.handle = self.ctx.schedule_after_views(at, call)
        return call.handle

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            ctx = object.__getattribute__(self, "ctx")
        except AttributeError:          # while unpickling
            raise AttributeError(name) from None
        return getattr(ctx, name)


class GuardChain:
    """A guarded stream's views: each update, and each callback they scheduled, runs after
    recording the statement instance's state, which is restored if it raises (the
    exception then goes on to the engine's fault report)."""

    __slots__ = ("views", "ctx", "enabled", "pinned", "_child")

    def __init__(self, factories: tuple, ctx: Any) -> None:
        self.ctx = ctx
        self.enabled = True
        self.pinned = _pinned_classes(ctx)
        self._child: Any = None
        inner = GuardedContext(ctx, self)
        self.views = [f.make(inner) for f in factories]
        for a, b in zip(self.views, self.views[1:]):
            a.child = b
            if getattr(b, "source", False) is None:    # a view that reads its parent on demand
                b.source = a

    @property
    def child(self) -> Any:
        return self._child

    @child.setter
    def child(self, sink: Any) -> None:
        self._child = sink
        if self.views:
            self.views[-1].child = sink

    def update(self, new: Events, old: Events) -> None:
        first = self.views[0] if self.views else self._child
        self.guarded(first.update, new, old)

    def guarded(self, fn: Callable[..., None], *args: Any, revive: Any = None) -> None:
        if not self.enabled:
            fn(*args)
            return
        try:
            capture = StateCapture([self], self.pinned)
        except OverflowError:
            self.enabled = False
            log.warning("Statement state too large to roll back on faults; not guarded")
            fn(*args)
            return
        scheduler = getattr(self.ctx, "_scheduler", None)
        if not isinstance(scheduler, Scheduler):
            scheduler = None
        mark = next(scheduler._seq) if scheduler is not None else None
        try:
            fn(*args)
        except BaseException:
            capture.restore(scheduler)
            slot = getattr(self.ctx, "slot", None)
            if scheduler is not None and isinstance(slot, tuple):
                scheduler_cancel_since(scheduler, mark, slot)
            if scheduler is not None and isinstance(revive, ScheduleHandle) and not revive.active:
                scheduler_revive(scheduler, revive)
            raise

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self.views[-1]) if self.views else iter(())

    def __len__(self) -> int:
        return len(list(iter(self)))

    def stop(self) -> None:
        for v in self.views:
            v.stop()


@dataclass(frozen=True)
class GuardChainFactory:
    """Makes the GuardChain that replaces a guarded stream's views."""

    inner: tuple

    @property
    def is_data_window(self) -> bool:
        return any(getattr(f, "is_data_window", False) for f in self.inner)

    def make(self, ctx: Any) -> GuardChain:
        return GuardChain(self.inner, ctx)
