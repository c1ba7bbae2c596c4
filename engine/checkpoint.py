"""Checkpoint and recover: an engine's whole runtime state as versioned bytes or an atomic file.

The payload is the engine object graph pickled with the engine-state pickler of
`engine.state` (cloudpickle underneath: compiled closures and generated functions travel by
value; locks, counters and signals are rebuilt fresh; module globals of the engine's own
packages travel by reference). A checkpoint adds to that:

- a header: magic bytes, format version, engine version and Python version (pickled code
  objects are bytecode: another Python minor version cannot load them), the engine clock and
  a small JSON `meta` the application chooses (e.g. how many input events it covers);
- no receivers: statement listeners and subscribers, and receivers of the engine's signals,
  are user code and not engine state. They are re-attached on restore (`listeners=`,
  `subscribers=`) or afterwards through `engine.statement(name)`;
- the system timer: a thread cannot travel, so a system-time engine is restored with a new
  timer thread at the same resolution, its clock catching up with the wall clock at the
  first tick (schedules due by then fire at that tick).

A checkpoint is trusted data: unpickling runs code. Never restore one from an untrusted
source.
"""
from __future__ import annotations

import copyreg
import io
import json
import os
import pickle
import struct
import sys
import tempfile
import threading
from dataclasses import field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Union

from engine.contracts.frozen import frozen_dataclass
import engine.state as _state
from engine.contracts.errors import EngineError
from .listeners import SubscriberAdapter
from .statement import Statement
from .time_service import TimerThread

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

MAGIC = b"EPLCKPT\x00"
FORMAT_VERSION = 1
_PREFIX = struct.Struct(">HI")      # format version, header length

PathLike = Union[str, "os.PathLike[str]"]


class CheckpointError(EngineError):
    """A checkpoint that cannot be taken, read or restored (bad magic, version mismatch,
    engine busy inside a send, state that cannot travel)."""


def engine_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("epl-engine")
    except PackageNotFoundError:   # running from a source tree that is not installed
        return _SOURCE_VERSION


_SOURCE_VERSION = "0.1.0"       # pyproject's version: keep in step
_PYTHON = f"{sys.version_info[0]}.{sys.version_info[1]}"


@frozen_dataclass
class CheckpointInfo:
    """A checkpoint's header, readable without unpickling anything."""

    format_version: int
    engine_version: str
    python: str
    time_mode: str
    now: int
    statements: tuple[str, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)
    resolution_ms: Optional[int] = None


# -- the pickler ---------------------------------------------------------------------------------

def _none() -> None:
    return None


def _statement_state(stmt: Statement) -> dict:
    """A statement's attributes without its receivers (user code, re-attached on restore)."""
    st = dict(stmt.__dict__)
    st.pop("_deliver_now", None)            # a closure over the single listener
    st["_listeners"] = ()
    st["_subscriber"] = None
    st["has_receivers"] = False
    return st


def _fresh_event(is_set: bool) -> threading.Event:
    ev = threading.Event()
    if is_set:
        ev.set()
    return ev


def _refuse(what: str) -> Any:
    raise CheckpointError(f"Cannot checkpoint {what}")


_CONDITION = threading.Condition


def _reduce_extra(obj: Any) -> Any:
    """Reductions for what the state pickler does not know: receivers, the timer, threads."""
    if isinstance(obj, Statement):
        return copyreg.__newobj__, (type(obj),), _statement_state(obj)
    t = type(obj)
    if t is SubscriberAdapter or t is TimerThread:
        return _none, ()
    if t is threading.Event:
        return _fresh_event, (obj.is_set(),)
    if t is _CONDITION:
        return _CONDITION, ()
    if t is threading.Thread:
        return _refuse(f"a thread ({obj.name})")
    if isinstance(obj, threading.local):
        return type(obj), ()
    return NotImplemented


_CLASSES: dict[int, type] = {}


def _checkpoint_pickler(cp: Any) -> type:
    cls = _CLASSES.get(id(cp))
    if cls is None:
        base = _state._pickler_class(cp)

        def reducer_override(self: Any, obj: Any) -> Any:
            r = _reduce_extra(obj)
            if r is not NotImplemented:
                return r
            return base.reducer_override(self, obj)

        cls = type("CheckpointPickler", (base,), {"reducer_override": reducer_override})
        _CLASSES[id(cp)] = cls
    return cls


# -- taking a checkpoint ---------------------------------------------------------------------------

def dumps(engine: "Runtime", meta: Optional[Mapping[str, Any]] = None) -> bytes:
    """The engine's state as checkpoint bytes. Call it between events (not from a listener)."""
    if meta is not None:
        try:
            json.dumps(dict(meta))
        except (TypeError, ValueError) as exc:
            raise CheckpointError(f"Checkpoint meta must be JSON data: {exc}") from None
    with engine.lock:
        if engine.busy:
            raise CheckpointError("Cannot checkpoint while the engine processes an event "
                                  "(from a listener or callback): checkpoint between sends")
        header = {
            "engine_version": engine_version(), "python": _PYTHON,
            "time_mode": engine.time_mode, "now": engine.now,
            "statements": [s.name for s in engine.statements],
            "meta": dict(meta or {}),
            "resolution_ms": engine.timer_resolution_ms,
            "counters": _state.module_counters(),
        }
        cp = _state._cloudpickle(None)
        buf = io.BytesIO()
        p = _checkpoint_pickler(cp)(buf, protocol=pickle.HIGHEST_PROTOCOL)
        p.id_keys = ids = _state._IdKeys()
        p.globals_ = _state._module_globals()
        try:
            p.dump(engine)
            p.id_keys = None
            p.dump(ids.fixups())     # same pickler and memo: fixups name the objects above
        except CheckpointError:
            raise
        except Exception as exc:   # whatever pickling raised is the checkpoint's typed error
            raise CheckpointError(f"Engine state cannot be checkpointed: {exc}") from exc
    head = json.dumps(header, sort_keys=True).encode()
    return MAGIC + _PREFIX.pack(FORMAT_VERSION, len(head)) + head + buf.getvalue()


def write_atomic(path: PathLike, data: bytes) -> None:
    """Write `data` to `path` so that a crash leaves the old file or the new one, never a
    torn one: a temporary file in the same directory, fsync, rename, fsync the directory."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".ckpt-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:     # platforms without directory handles
        return
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


# -- reading and restoring ---------------------------------------------------------------------------

def _read(source: Union[bytes, bytearray, memoryview, PathLike]) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    with open(source, "rb") as f:
        return f.read()


def _split(data: bytes) -> tuple[dict, int]:
    if not data.startswith(MAGIC):
        raise CheckpointError("Not an epl-engine checkpoint (bad magic bytes)")
    try:
        fmt, n = _PREFIX.unpack_from(data, len(MAGIC))
    except struct.error:
        raise CheckpointError("Truncated checkpoint header") from None
    if fmt != FORMAT_VERSION:
        raise CheckpointError(f"Checkpoint format version {fmt} is not supported "
                              f"(this engine reads version {FORMAT_VERSION})")
    start = len(MAGIC) + _PREFIX.size
    try:
        header = json.loads(data[start:start + n])
    except ValueError:
        raise CheckpointError("Corrupt checkpoint header") from None
    return header, start + n


def _info(header: dict) -> CheckpointInfo:
    return CheckpointInfo(FORMAT_VERSION, header["engine_version"], header["python"],
                          header["time_mode"], header["now"], tuple(header["statements"]),
                          header.get("meta", {}), header.get("resolution_ms"))


def info(source: Union[bytes, PathLike]) -> CheckpointInfo:
    """A checkpoint's header (versions, clock, statement names, meta) without unpickling."""
    header, _ = _split(_read(source))
    return _info(header)


Receivers = Mapping[str, Union[Callable[..., Any], list, tuple]]


def loads(source: Union[bytes, PathLike], *, listeners: Optional[Receivers] = None,
          subscribers: Optional[Mapping[str, Any]] = None) -> "Runtime":
    """An engine rebuilt from a checkpoint, continuing where the checkpointed one stopped.
    `listeners` maps statement names to a listener or a list of them, `subscribers` maps
    statement names to a subscriber object."""
    data = _read(source)
    header, offset = _split(data)
    if header["engine_version"] != engine_version():
        raise CheckpointError(f"Checkpoint was written by epl-engine {header['engine_version']}; "
                              f"this is {engine_version()}: versions must match")
    if header["python"] != _PYTHON:
        raise CheckpointError(f"Checkpoint was written by Python {header['python']}; this is "
                              f"Python {_PYTHON}: compiled statements cannot move between versions")
    _state.catch_up_counters(header.get("counters", ()))
    u = _state._Unpickler(io.BytesIO(memoryview(data)[offset:]))
    try:
        engine = u.load()
        fixups = u.load()
    except Exception as exc:   # whatever unpickling raised is the checkpoint's typed error
        raise CheckpointError(f"Corrupt checkpoint: {exc}") from exc
    if not _state.is_engine(engine):
        raise CheckpointError(f"Not an engine checkpoint (got {type(engine).__name__})")
    _state._IdKeys.apply(fixups)
    engine.checkpoint_info = _info(header)
    names = {s.name for s in engine.statements}
    for name in list(listeners or ()) + list(subscribers or ()):
        if name not in names:
            raise CheckpointError(f"No statement named '{name}' in the checkpoint")
    for name, fns in (listeners or {}).items():
        stmt = engine.statement(name)
        for fn in (fns if isinstance(fns, (list, tuple)) else (fns,)):
            stmt.add_listener(fn)
    for name, obj in (subscribers or {}).items():
        engine.statement(name).set_subscriber(obj)
    if engine.time_mode == "system":
        engine.start_timer(header.get("resolution_ms") or 100)
    return engine
