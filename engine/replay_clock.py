"""Engine time for a replay of recorded events, shared by `epl run`, `pipeline.run_local`,
`pipeline.replay` and `epl spark`, so that every replay path gives the same rows.

- Stepping `"span"` (the default) moves time to each event with `advance_time_span`: every
  scheduled instant fires at its own time, as it would have live. Stepping `"jump"` uses
  `advance_time` (Esper's advanceTime): everything due up to the event fires with the
  engine already at the event's time, so `#time` expiries land at the next event.
- Events with equal times go in arrival order; an event older than the engine's time is
  late: `"adjust"` sends it at the current time, `"drop"` leaves it out, `"fail"` raises
  LateEventError. Late events are counted.
- A replay starts at the first event's time and, after the last event, moves on by
  DEFAULT_FLUSH_MS (one hour) so time windows and batches post their last results."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .engine import Engine

Stepping = Literal["span", "jump"]
LatePolicy = Literal["adjust", "drop", "fail"]
STEPPINGS: tuple[str, ...] = ("span", "jump")
LATE_POLICIES: tuple[str, ...] = ("adjust", "drop", "fail")
DEFAULT_FLUSH_MS = 3_600_000


class LateEventError(ValueError):
    """An event older than the engine's time under the `"fail"` late policy."""

    def __init__(self, event_time: int, now: int) -> None:
        self.event_time = event_time
        self.now = now
        super().__init__(f"event time {event_time} is before the engine time {now} "
                         f"(events must be in time order; --late adjust or drop accepts them)")


def check_stepping(stepping: str) -> str:
    if stepping not in STEPPINGS:
        raise ValueError(f"stepping must be one of {', '.join(STEPPINGS)}, not {stepping!r}")
    return stepping


def check_late(late: str) -> str:
    if late not in LATE_POLICIES:
        raise ValueError(f"late must be one of {', '.join(LATE_POLICIES)}, not {late!r}")
    return late


class ReplayClock:
    """Moves one simulated-time engine along the times of recorded events."""

    __slots__ = ("engine", "stepping", "late", "late_count", "first_late", "_step")

    def __init__(self, engine: "Engine", stepping: str = "span", late: str = "adjust") -> None:
        self.engine = engine
        self.stepping = check_stepping(stepping)
        self.late = check_late(late)
        self.late_count = 0
        self.first_late: int | None = None    # the time of the first late event
        self._step = engine.advance_time_span if stepping == "span" else engine.advance_time

    def to(self, t: int) -> bool:
        """Move time to an event's time `t`; False when the event is to be left out."""
        now = self.engine.now
        if t > now:
            self._step(t)
            return True
        if t == now:
            return True
        self.late_count += 1
        if self.first_late is None:
            self.first_late = t
        if self.late == "fail":
            raise LateEventError(t, now)
        return self.late == "adjust"

    def finish(self, t: int) -> None:
        """Move time to the end of the replay (no-op when already there)."""
        if t > self.engine.now:
            self._step(t)
