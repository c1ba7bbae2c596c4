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
objects, as the engine requires. Keys made of object ids (`d[id(obj)]`) are rebuilt for the
new objects on restore (see `_IdKeys`).

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
import importlib
import io
import itertools
import pickle
import re
import sys
import threading
from collections import ChainMap
from types import ModuleType
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime
from engine.contracts.errors import EngineError
from engine.contracts.event_types import EventType
from engine.contracts.signals import EngineSignals

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
    return copyreg.__newobj__, (type(t),), t.__getstate__()


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
_DELEGATES: dict[type, bool] = {}


def _delegates(cls: type) -> bool:
    """Whether instances answer unknown attributes through `__getattr__` (proxies)."""
    d = _DELEGATES.get(cls)
    if d is None:
        d = any("__getattr__" in vars(k) for k in cls.__mro__[:-1]) and cls.__module__ != "builtins"
        _DELEGATES[cls] = d
    return d


def _set_dict(obj: Any, state: dict) -> None:
    obj.__dict__.update(state)


def _pickler_class(cp: ModuleType) -> type:
    """cloudpickle's pickler with our reducers. The C pickler reads `dispatch_table` when it
    is created, and consults it after reducer_override (cloudpickle's: functions, classes)
    and before an object's own __reduce__ (EventType's by-name one): a class attribute it is.

    Proxies whose `__getattr__` reads an attribute of their own recurse without end when
    pickle looks up `__setstate__` on the empty new instance: their state goes in through a
    state setter instead."""
    cls = _PICKLERS.get(id(cp))
    if cls is None:
        base = cp.CloudPickler

        def reducer_override(self: Any, obj: Any) -> Any:
            t = type(obj)
            if t is not EventType and isinstance(obj, EventType):   # kinds of types (XML): by value too
                return _reduce_event_type(obj)
            if _delegates(t) and isinstance(getattr(obj, "__dict__", None), dict):
                return copyreg.__newobj__, (t,), obj.__dict__, None, None, _set_dict
            return base.reducer_override(self, obj)

        def persistent_id(self: Any, obj: Any) -> Any:
            ref = self.globals_.get(id(obj))
            if ref is not None and ref[2] is obj:
                return ("global", ref[0], ref[1])
            ids = self.id_keys
            if ids is not None:
                ids.see(obj)
            return None

        cls = type("SnapshotPickler", (base,),
                   {"dispatch_table": ChainMap(_EXTRA_REDUCERS, base.dispatch_table),
                    "reducer_override": reducer_override, "persistent_id": persistent_id,
                    "id_keys": None, "globals_": {}})
        _PICKLERS[id(cp)] = cls
    return cls


_ATOMIC = (type(None), bool, int, float, str, bytes, complex)
_ID_IN_TEXT = re.compile(r"@(\d+)")


class _IdKeys:
    """Dicts and sets keyed by object ids (`d[id(obj)]`), as the filter index, aggregations
    and contexts keep them. Unpickled objects get new ids, so such keys are rebuilt from the
    objects on restore. Every object pickled is seen; an int key (alone, in a tuple key, or
    as `@<id>` in a text key) that is the id of one of them is taken for an id."""

    __slots__ = ("seen", "candidates")

    def __init__(self) -> None:
        self.seen: dict[int, Any] = {}
        self.candidates: list[Any] = []

    def see(self, obj: Any) -> None:
        t = type(obj)
        if t in _ATOMIC:
            return
        self.seen[id(obj)] = obj
        if isinstance(obj, (dict, set)) and obj:
            self.candidates.append(obj)

    def _spec(self, k: Any) -> Any:
        t = type(k)
        seen = self.seen
        if t is int:
            o = seen.get(k)
            return None if o is None else ("id", o)
        if t is tuple:
            parts = [("id", seen[x]) if type(x) is int and x in seen else ("=", x) for x in k]
            return ("tuple", tuple(parts)) if any(p[0] == "id" for p in parts) else None
        if t is str and "@" in k:
            refs = [(m.start(1), m.end(1), seen[int(m.group(1))]) for m in _ID_IN_TEXT.finditer(k)
                    if int(m.group(1)) in seen]
            return ("str", k, tuple(refs)) if refs else None
        return None

    def fixups(self) -> list:
        out = []
        for c in self.candidates:
            entries = [(k, spec) for k in c for spec in (self._spec(k),) if spec is not None]
            if entries:
                out.append((c, entries))
        return out

    @staticmethod
    def _key(spec: Any) -> Any:
        kind = spec[0]
        if kind == "id":
            return id(spec[1])
        if kind == "tuple":
            return tuple(id(v) if how == "id" else v for how, v in spec[1])
        text, parts, last = spec[1], [], 0
        for start, end, obj in spec[2]:
            parts.append(text[last:start])
            parts.append(str(id(obj)))
            last = end
        parts.append(text[last:])
        return "".join(parts)

    @classmethod
    def apply(cls, fixups: list) -> None:
        for c, entries in fixups:
            remap = {old: cls._key(spec) for old, spec in entries}
            if isinstance(c, dict):
                items = list(c.items())
                c.clear()
                c.update((remap.get(k, k), v) for k, v in items)
            else:
                items = list(c)
                c.clear()
                c.update(remap.get(k, k) for k in items)


# Objects that are globals of these packages (sentinels, registries, shared constants)
# pickle by reference, so that `is` tests against them still hold after a restore.
_PACKAGES = frozenset({"engine", "epl", "views", "filterindex", "pipeline"})
_GLOBALS: dict[str, Any] = {"modules": -1, "refs": {}}


def _module_globals() -> dict[int, tuple[str, str, Any]]:
    mods = [(n, m) for n, m in list(sys.modules.items())
            if m is not None and n.partition(".")[0] in _PACKAGES]
    if _GLOBALS["modules"] != len(mods):
        refs: dict[int, tuple[str, str, Any]] = {}
        for name, mod in mods:
            for attr, v in list(vars(mod).items()):
                if type(v) in _ATOMIC or isinstance(v, ModuleType) or attr.startswith("__"):
                    continue
                refs.setdefault(id(v), (name, attr, v))
        _GLOBALS["modules"], _GLOBALS["refs"] = len(mods), refs
    return _GLOBALS["refs"]


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        kind, module, name = pid
        if kind != "global":
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        return getattr(importlib.import_module(module), name)


# -- module-level counters (snapshot and checkpoint) ---------------------------------------
# Module globals of the engine's packages travel by reference (sentinels, registries). Some
# are `itertools.count`s that hand out keys living in engine state (filter-tree slots,
# partition orders): a new process starts them at zero, and keys they hand out would collide
# with restored ones. Their values travel in the header and are caught up before the state
# is loaded (before: closures unpickled by value bind the module's counter object).

def module_counters() -> list:
    out = []
    for name, mod in list(sys.modules.items()):
        if mod is None or name.partition(".")[0] not in _PACKAGES:
            continue
        for attr, v in list(vars(mod).items()):
            if type(v) is itertools.count:
                out.append([name, attr, _count_value(v)])
    return out


def _count_value(c: "itertools.count[int]") -> int:
    text = repr(c)
    return int(text[text.index("(") + 1:text.rindex(")")].split(",")[0])


def catch_up_counters(counters: list) -> None:
    for name, attr, value in counters:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        cur = getattr(mod, attr, None)
        if type(cur) is itertools.count and _count_value(cur) < value:
            setattr(mod, attr, itertools.count(value))


def snapshot(engine: "Runtime", *, pickler: Optional[ModuleType] = None) -> bytes:
    """The engine's whole state as bytes (`restore` turns them back into an engine).
    Only simulated-time engines: a system-time engine's clock is a running thread.
    `pickler` is a cloudpickle module (default: cloudpickle, else pyspark's copy)."""
    if engine.time_mode != "simulated" or engine.timer_resolution_ms is not None:
        raise EngineError("Only engines on simulated time can be snapshot")
    cp = _cloudpickle(pickler)
    buf = io.BytesIO()
    p = _pickler_class(cp)(buf, protocol=pickle.HIGHEST_PROTOCOL)
    p.id_keys = ids = _IdKeys()
    p.globals_ = _module_globals()
    p.dump(module_counters())      # first: restore catches them up before the state loads
    p.dump(engine)
    p.id_keys = None
    # the same pickler (and memo): the fixups refer to the very objects pickled above
    p.dump(ids.fixups())
    return buf.getvalue()


def restore(data: bytes) -> "Runtime":
    """An engine from `snapshot` bytes, ready to take events and time from where it was."""
    u = _Unpickler(io.BytesIO(data))
    counters = u.load()
    if not isinstance(counters, list):
        raise EngineError(f"Not an engine snapshot (got {type(counters).__name__})")
    catch_up_counters(counters)
    engine = u.load()
    if not is_engine(engine):
        raise EngineError(f"Not an engine snapshot (got {type(engine).__name__})")
    _IdKeys.apply(u.load())
    return engine


def next_schedule_time(engine: "Runtime") -> Optional[int]:
    """When the engine's earliest pending callback is due (None: nothing scheduled): a
    driver on application time wakes the engine up then (a Spark timer, say)."""
    return engine.scheduler.next_time()


def is_engine(obj: object) -> bool:
    """Whether `obj` is an Engine. By class name and module: snapshots and checkpoints sit
    beside the facade and do not import it (engine.engine imports them)."""
    return any(c.__name__ == "Engine" and c.__module__ == "engine.engine"
               for c in type(obj).__mro__)
