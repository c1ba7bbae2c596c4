"""Application time (StreamInsight, Odysseus): point, interval and edge events, CTIs and
their inputs, violation policies, lifetime modifications, snapshot rows and interval
algebra. `engine.input(type_name, ...)` opens an input; `#interval()` is the window that
keeps events for their lifetime.

The modules here are runtime; `install` (the interval-algebra methods' compile hook) is the
compiler's, epl/compiler/interval_methods.py. This `__init__` is the package's public face
(names load on first use: an engine that never opens an input does not import the modules);
nothing inside our packages imports it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional, Union

from engine.contracts.lazy import lazy_exports as _lazy_exports

if TYPE_CHECKING:
    from engine.contracts.interval_algebra import RELATIONS as RELATIONS
    from engine.contracts.interval_algebra import event_interval as event_interval
    from engine.contracts.interval_algebra import intersection as intersection
    from engine.contracts.interval_algebra import relate as relate
    from engine.contracts.interval_algebra import row_lifetime as row_lifetime
    from engine.contracts.runtime import Runtime
    from engine.contracts.timed import INFINITY as INFINITY
    from engine.contracts.timed import TICK as TICK
    from engine.contracts.timed import Shape as Shape
    from engine.contracts.timed import TimedBean as TimedBean
    from engine.contracts.timed import lifetime_of as lifetime_of
    from engine.contracts.timed import to_ms as to_ms
    from epl.compiler.interval_methods import install as install

    from .cti import CtiGeneration as CtiGeneration
    from .input import ApplicationInput as ApplicationInput
    from .lifetime import AlterEventDuration as AlterEventDuration
    from .lifetime import Clip as Clip
    from .lifetime import ShiftEventTime as ShiftEventTime
    from .release import ApplicationClock as ApplicationClock
    from .snapshot import Snapshot as Snapshot
    from .snapshot import SnapshotRow as SnapshotRow
    from .snapshot import snapshot_rows as snapshot_rows
    from .violations import ViolationCounts as ViolationCounts
    from .violations import ViolationPolicy as ViolationPolicy


def clock(engine: "Runtime") -> ApplicationClock:
    """The engine's application clock, created on first use."""
    from .release import ApplicationClock
    c = engine.services.apptime
    if c is None:
        c = engine.services.apptime = ApplicationClock(engine)
    return c


def open_input(engine: "Runtime", type_: Union[str, type], *, name: Optional[str] = None,
               shape: Union[str, Shape, None] = None, policy: Union[str, ViolationPolicy] = "drop",
               generate: Optional[CtiGeneration] = None,
               import_from: Union[ApplicationInput, Iterable[ApplicationInput], None] = None,
               lifetime: Iterable[Any] = ()) -> ApplicationInput:
    """Open an application-time input for one event type (see ApplicationInput)."""
    from .input import ApplicationInput
    if engine.time_mode != "simulated":
        raise ValueError("Application-time inputs drive engine time: create the engine with "
                         "time='simulated'")
    if isinstance(type_, str):
        event_type = engine.types.get(type_)
    else:
        event_type = next((t for t in engine.types.all() if t.pyclass is type_), None)
        if event_type is None:
            event_type = engine.register_type(type_)
    with engine.lock:
        c = clock(engine)
        inp = ApplicationInput(c, event_type, name=name, shape=shape, policy=policy,
                               generate=generate, import_from=import_from, lifetime=lifetime)
        c.inputs.append(inp)
    return inp


__all__ = [
    "AlterEventDuration", "ApplicationClock", "ApplicationInput", "Clip", "CtiGeneration",
    "INFINITY", "RELATIONS", "ShiftEventTime", "Shape", "Snapshot", "SnapshotRow", "TICK",
    "TimedBean", "ViolationCounts", "ViolationPolicy", "clock", "event_interval", "install",
    "intersection", "lifetime_of", "open_input", "relate", "row_lifetime", "snapshot_rows",
    "to_ms",
]

# Where each public name is defined (clock and open_input are defined here); a name is
# imported on first use, then cached in the module dict, so later lookups never reach
# __getattr__.
_ORIGIN = {
    "AlterEventDuration": ("engine.apptime.lifetime", "AlterEventDuration"),
    "ApplicationClock": ("engine.apptime.release", "ApplicationClock"),
    "ApplicationInput": ("engine.apptime.input", "ApplicationInput"),
    "Clip": ("engine.apptime.lifetime", "Clip"),
    "CtiGeneration": ("engine.apptime.cti", "CtiGeneration"),
    "INFINITY": ("engine.contracts.timed", "INFINITY"),
    "RELATIONS": ("engine.contracts.interval_algebra", "RELATIONS"),
    "ShiftEventTime": ("engine.apptime.lifetime", "ShiftEventTime"),
    "Shape": ("engine.contracts.timed", "Shape"),
    "Snapshot": ("engine.apptime.snapshot", "Snapshot"),
    "SnapshotRow": ("engine.apptime.snapshot", "SnapshotRow"),
    "TICK": ("engine.contracts.timed", "TICK"),
    "TimedBean": ("engine.contracts.timed", "TimedBean"),
    "ViolationCounts": ("engine.apptime.violations", "ViolationCounts"),
    "ViolationPolicy": ("engine.apptime.violations", "ViolationPolicy"),
    "event_interval": ("engine.contracts.interval_algebra", "event_interval"),
    "install": ("epl.compiler.interval_methods", "install"),
    "intersection": ("engine.contracts.interval_algebra", "intersection"),
    "lifetime_of": ("engine.contracts.timed", "lifetime_of"),
    "relate": ("engine.contracts.interval_algebra", "relate"),
    "row_lifetime": ("engine.contracts.interval_algebra", "row_lifetime"),
    "snapshot_rows": ("engine.apptime.snapshot", "snapshot_rows"),
    "to_ms": ("engine.contracts.timed", "to_ms"),
}


__getattr__, __dir__ = _lazy_exports(__name__, _ORIGIN, __all__)
