"""CTI generation (StreamInsight's AdvanceTimeGenerationSettings): a CTI every N events or
every time span, stamped with a delay behind the input's latest event, and a final CTI at
infinity when the input closes.

Rules:
- Only point, interval and start-edge events count, for the event count and for the time
  span; end edges never do. Every such event that arrives counts, violating ones too.
- A generated CTI is stamped `latest start - delay`, where the latest start is the highest
  start time the input has received: CTIs never move backwards. A negative delay is
  allowed: with a delay of -1 tick the CTI lands just after the event, which commits it
  at once (a delay of 0 leaves the last event uncommitted, as CTIs commit what lies
  strictly before them).
- By time span T: the first event sets a mark; a CTI is generated as soon as the latest
  start reaches mark + T, and the mark moves to that latest start.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Optional, Union

from engine.contracts.frozen import frozen_dataclass
from engine.contracts.timed import to_span

Span = Union[int, timedelta]


@frozen_dataclass
class CtiGeneration:
    """`CtiGeneration(every_events=10, delay=5_000, final_cti=True)`: a CTI after every 10
    events, 5 s behind the latest event, and one at infinity on close. Give `every_events`
    or `every_span` (or neither, for a final CTI only)."""

    every_events: Optional[int] = None
    every_span: Optional[Span] = None
    delay: Span = 0
    final_cti: bool = False

    def __post_init__(self) -> None:
        if self.every_events is not None and self.every_span is not None:
            raise ValueError("CtiGeneration takes every_events or every_span, not both")
        if self.every_events is not None and (isinstance(self.every_events, bool) or
                                              not isinstance(self.every_events, int) or
                                              self.every_events < 1):
            raise ValueError(f"every_events must be a positive integer, got {self.every_events!r}")
        if self.every_span is not None and to_span(self.every_span) <= 0:
            raise ValueError(f"every_span must be a positive duration, got {self.every_span!r}")
        to_span(self.delay)

    @property
    def delay_ms(self) -> int:
        return to_span(self.delay)


class CtiGenerator:
    """The running state of one input's CTI generation."""

    __slots__ = ("_every", "_span", "_delay", "_count", "_latest", "_mark")

    def __init__(self, settings: CtiGeneration) -> None:
        self._every = settings.every_events
        self._span = None if settings.every_span is None else to_span(settings.every_span)
        self._delay = settings.delay_ms
        self._count = 0
        self._latest: Optional[int] = None
        self._mark: Optional[int] = None

    def on_event(self, start: int) -> Optional[int]:
        """Count one event starting at `start`; the CTI to insert now, or None."""
        if self._latest is None or start > self._latest:
            self._latest = start
        latest = self._latest
        if self._every is not None:
            self._count += 1
            if self._count >= self._every:
                self._count = 0
                return latest - self._delay
            return None
        if self._span is not None:
            if self._mark is None:
                self._mark = start
            if latest >= self._mark + self._span:
                self._mark = latest
                return latest - self._delay
        return None
