"""Application time (StreamInsight, Odysseus): point, interval and edge events, CTIs and
their inputs, violation policies, lifetime modifications, snapshot rows and interval
algebra. `engine.input(type_name, ...)` opens an input; `#interval()` is the window that
keeps events for their lifetime.

The modules here are runtime; `install` (the interval-algebra methods' compile hook) is the
compiler's, epl/compiler/interval_methods.py, loaded on first use. This `__init__` is the
package's public face: nothing inside our packages imports it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional, Union

from engine.contracts.interval_algebra import (
    RELATIONS as RELATIONS,
    event_interval as event_interval,
    intersection as intersection,
    relate as relate,
    row_lifetime as row_lifetime,
)
from .cti import CtiGeneration as CtiGeneration
from .input import ApplicationInput as ApplicationInput
from .lifetime import (
    AlterEventDuration as AlterEventDuration,
    Clip as Clip,
    ShiftEventTime as ShiftEventTime,
)
from .release import ApplicationClock as ApplicationClock
from engine.contracts.timed import INFINITY as INFINITY
from engine.contracts.timed import TICK as TICK
from engine.contracts.timed import Shape as Shape
from engine.contracts.timed import TimedBean as TimedBean
from engine.contracts.timed import lifetime_of as lifetime_of
from engine.contracts.timed import to_ms as to_ms
from .snapshot import Snapshot as Snapshot, SnapshotRow as SnapshotRow, snapshot_rows as snapshot_rows
from .violations import ViolationCounts as ViolationCounts, ViolationPolicy as ViolationPolicy

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def clock(engine: "Runtime") -> ApplicationClock:
    """The engine's application clock, created on first use."""
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

if TYPE_CHECKING:
    from epl.compiler.interval_methods import install as install


def __getattr__(name: str) -> Any:
    if name == "install":
        from epl.compiler.interval_methods import install
        globals()["install"] = install
        return install
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
