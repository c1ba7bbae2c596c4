"""Engine snapshots: the whole runtime state of a simulated-time engine as bytes, and back.

A snapshot is the engine object graph pickled with cloudpickle, which pickles the closures
and generated functions that compiled statements are made of. Everything an engine holds
comes along: event types, statements and their listeners, windows, aggregation state,
pattern instances, context partitions, pending schedules and the current time. What cannot
travel is rebuilt fresh: locks, and the engine's blinker signals (their receivers are not
part of a snapshot; reconnect them after `restore`). Listeners must be picklable by
cloudpickle (plain functions, closures and objects are).

Event types normally pickle by name (see `EventType.__reduce__`, for state pickled apart from
its engine); inside a snapshot they pickle by value, and pickle's memo keeps them identical
objects, as the engine requires.

>>> from engine import Engine
>>> e = Engine(time="simulated")
>>> _ = e.epl("create schema T(a int)")
>>> _ = e.epl("select a from T#length(2)")
>>> e.send({"a": 1}, "T")
>>> e2 = restore(snapshot(e))
>>> [r["a"] for r in e2.statements[1]]
[1]
"""
from __future__ import annotations

import copyreg
import io
import itertools
import pickle
import threading
from collections import ChainMap
from types import ModuleType
from typing import Any, Optional

from .engine import Engine
from .errors import EngineError
from .event_types import EventType
from .signals import EngineSignals

_LOCK_TYPE = type(threading.Lock())
_RLOCK_TYPE = type(threading.RLock())


def _fresh_lock() -> Any:
    return threading.Lock()


def _fresh_rlock() -> Any:
    return threading.RLock()


def _count_from(n: int) -> "itertools.count[int]":
    return itertools.count(n)


def _reduce_count(c: "itertools.count[int]") -> Any:
    # itertools pickling is deprecated (3.12) and gone in 3.14: go through the repr, 'count(5)'
    text = repr(c)
    return _count_from, (int(text[text.index("(") + 1:text.rindex(")")].split(",")[0]),)


def _reduce_signals(_: EngineSignals) -> Any:
    return EngineSignals, ()


def _reduce_event_type(t: EventType) -> Any:
    return copyreg.__newobj__, (EventType,), t.__getstate__()


def _cloudpickle(module: Optional[ModuleType]) -> ModuleType:
    if module is not None:
        return module
    try:
        import cloudpickle
        return cloudpickle
    except ImportError:
        pass
    try:  # pyspark ships a copy; imported only here, so the engine never needs pyspark
        from pyspark import cloudpickle as spark_cloudpickle
        return spark_cloudpickle
    except ImportError:
        raise EngineError("engine snapshots need cloudpickle (pip install cloudpickle)") from None


_EXTRA_REDUCERS = {
    _LOCK_TYPE: lambda _: (_fresh_lock, ()),
    _RLOCK_TYPE: lambda _: (_fresh_rlock, ()),
    itertools.count: _reduce_count,
    EngineSignals: _reduce_signals,
    EventType: _reduce_event_type,
}
_PICKLERS: dict[int, type] = {}


def _pickler_class(cp: ModuleType) -> type:
    """cloudpickle's pickler with our reducers. The C pickler reads `dispatch_table` when it
    is created, and consults it after cloudpickle's reducer_override (functions, classes) and
    before an object's own __reduce__ (EventType's by-name one): a class attribute it is."""
    cls = _PICKLERS.get(id(cp))
    if cls is None:
        base = cp.CloudPickler
        cls = type("SnapshotPickler", (base,),
                   {"dispatch_table": ChainMap(_EXTRA_REDUCERS, base.dispatch_table)})
        _PICKLERS[id(cp)] = cls
    return cls


def snapshot(engine: Engine, *, pickler: Optional[ModuleType] = None) -> bytes:
    """The engine's whole state as bytes (`restore` turns them back into an engine).
    Only simulated-time engines: a system-time engine's clock is a running thread.
    `pickler` is a cloudpickle module (default: cloudpickle, else pyspark's copy)."""
    if engine.time_mode != "simulated" or getattr(engine, "_timer", None) is not None:
        raise EngineError("Only engines on simulated time can be snapshot")
    cp = _cloudpickle(pickler)
    buf = io.BytesIO()
    _pickler_class(cp)(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(engine)
    return buf.getvalue()


def restore(data: bytes) -> Engine:
    """An engine from `snapshot` bytes, ready to take events and time from where it was."""
    engine = pickle.loads(data)
    if not isinstance(engine, Engine):
        raise EngineError(f"Not an engine snapshot (got {type(engine).__name__})")
    return engine


def next_schedule_time(engine: Engine) -> Optional[int]:
    """When the engine's earliest pending callback is due (None: nothing scheduled): a
    driver on application time wakes the engine up then (a Spark timer, say)."""
    return engine._scheduler.next_time()
