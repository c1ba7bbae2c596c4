"""Lifetime modifications of an input's events (StreamInsight's time stamp modifications,
Odysseus's windows as end-time modifications), applied in order after the violation check.

Rules:
- `AlterEventDuration(d)`: end = start + d (d an int in ms, a timedelta, or a function of
  the event's underlying object returning one). Over point events, a duration of w turns
  the interval window into `#time(w)`; with a snapshot on top it is a sliding window.
- `ShiftEventTime(d)`: start and end move by d; the input's CTIs move by d as well, so
  that what was committed stays committed.
- `Clip(key=None)`: an event's end is cut back to the start of the next event with the
  same key (a property name, a function of the underlying, or None for one group), when
  that event is released. With `AlterEventDuration(INFINITY)` before it, point readings
  become intervals lasting until the next reading.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any, Callable, Optional, Union

from engine.contracts.frozen import frozen_dataclass
from engine.contracts.timed import INFINITY, to_span

Duration = Union[int, timedelta, Callable[[Any], Union[int, timedelta]]]


@frozen_dataclass
class AlterEventDuration:
    duration: Duration

    def __post_init__(self) -> None:
        if not callable(self.duration):
            if to_span(self.duration) < 0:
                raise ValueError(f"AlterEventDuration needs a duration >= 0, got {self.duration!r}")

    def apply(self, underlying: Any, start: int, end: int) -> tuple[int, int]:
        d = self.duration(underlying) if callable(self.duration) else self.duration
        span = to_span(d)
        if span >= INFINITY or start >= INFINITY - span:
            return start, INFINITY
        return start, start + span


@frozen_dataclass
class ShiftEventTime:
    shift: Union[int, timedelta]

    @property
    def shift_ms(self) -> int:
        return to_span(self.shift)

    def apply(self, underlying: Any, start: int, end: int) -> tuple[int, int]:
        d = self.shift_ms
        return start + d, (end if end >= INFINITY else end + d)


@frozen_dataclass
class Clip:
    key: Optional[Union[str, Callable[[Any], Any]]] = None

    def key_of(self, bean: Any) -> Any:
        k = self.key
        if k is None:
            return None
        if callable(k):
            return k(bean.underlying)
        return bean.get(k)


Modification = Union[AlterEventDuration, ShiftEventTime, Clip]


def check_modifications(mods: tuple, edge: bool) -> tuple[tuple, Optional[Clip], int]:
    """Validate a modification list: (the start/end transforms, the Clip if any, the total
    CTI shift). Clip must come last; edges take only shifts (their end comes from the end
    edge)."""
    transforms = []
    clip: Optional[Clip] = None
    shift = 0
    for i, m in enumerate(mods):
        if isinstance(m, Clip):
            if i != len(mods) - 1:
                raise ValueError("Clip must be the last lifetime modification")
            clip = m
        elif isinstance(m, (AlterEventDuration, ShiftEventTime)):
            transforms.append(m)
            if isinstance(m, ShiftEventTime):
                shift += m.shift_ms
        else:
            raise TypeError(f"Unknown lifetime modification {m!r}")
        if edge and not isinstance(m, ShiftEventTime):
            raise ValueError(f"Edge events take only ShiftEventTime, not {type(m).__name__}: "
                             f"their end comes from the end edge")
    return tuple(transforms), clip, shift
