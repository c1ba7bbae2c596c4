"""The time-service protocol: what the runtime's clock and schedule offer to statements and
features (engine time in integer units, callbacks keyed by time then slot)."""
from __future__ import annotations

from typing import Callable, Optional, Protocol

from engine.contracts.scheduler import ScheduleHandle, Slot


class TimeService(Protocol):
    """Engine time and the schedule; `engine.contracts.scheduler.Scheduler` is the one
    implementation. Callbacks due at the same time fire in slot order, then in the order they
    were scheduled."""

    @property
    def now(self) -> int: ...

    def schedule(self, at: int, slot: Slot, callback: Callable[[], None]) -> ScheduleHandle: ...

    def schedule_after(self, delay: int, slot: Slot,
                       callback: Callable[[], None]) -> ScheduleHandle: ...

    def cancel(self, handle: Optional[ScheduleHandle]) -> None: ...

    def next_time(self) -> Optional[int]: ...
