"""The scheduler: callbacks ordered by (time, slot, sequence), so that callbacks due at the
same instant fire in the same order on every run. Time services drive it; views and
patterns never read a clock, they schedule through it.

Rules (Esper's): `advance_time(t)` jumps to t and fires every callback due at or before t,
in (time, slot) order, with `now` already at t. `advance_time_span(t)` steps through each
due instant, each callback firing with `now` at its own time. Time never moves backwards.
"""
from __future__ import annotations

import heapq
import itertools
from typing import Any, Callable, Optional

from engine.contracts.errors import TimeError

Slot = Any  # any comparable value; statements use (statement order, local number)


class ScheduleHandle:
    """A scheduled callback; `cancel` marks it dead (lazy removal from the heap)."""

    __slots__ = ("time", "slot", "seq", "callback", "active")

    def __init__(self, time: int, slot: Slot, seq: int, callback: Callable[[], None]) -> None:
        self.time = time
        self.slot = slot
        self.seq = seq
        self.callback = callback
        self.active = True

    def __lt__(self, other: "ScheduleHandle") -> bool:
        return (self.time, self.slot, self.seq) < (other.time, other.slot, other.seq)

    def __repr__(self) -> str:
        return f"ScheduleHandle(t={self.time}, slot={self.slot}, active={self.active})"


class Scheduler:
    """Holds pending callbacks and the engine's current time."""

    def __init__(self, start: int = 0) -> None:
        self.now: int = start
        self._heap: list[ScheduleHandle] = []
        self._seq = itertools.count()
        self._active = 0

    def schedule(self, at: int, slot: Slot, callback: Callable[[], None]) -> ScheduleHandle:
        h = ScheduleHandle(at, slot, next(self._seq), callback)
        heapq.heappush(self._heap, h)
        self._active += 1
        return h

    def schedule_after(self, delay: int, slot: Slot, callback: Callable[[], None]) -> ScheduleHandle:
        return self.schedule(self.now + delay, slot, callback)

    def cancel(self, handle: Optional[ScheduleHandle]) -> None:
        if handle is not None and handle.active:
            handle.active = False
            self._active -= 1
            # keep the heap from filling with dead entries on long runs
            if len(self._heap) > 64 and self._active * 2 < len(self._heap):
                self._heap = [h for h in self._heap if h.active]
                heapq.heapify(self._heap)

    def extract(self, predicate: Callable[[Slot], bool]) -> list[ScheduleHandle]:
        """Take every live callback whose slot satisfies `predicate` off this scheduler, in
        (time, slot, sequence) order, to hand to another one's `adopt` (a statement instance
        moving between the engine and an isolated service)."""
        taken: list[ScheduleHandle] = []
        keep: list[ScheduleHandle] = []
        for h in self._heap:
            if h.active:
                (taken if predicate(h.slot) else keep).append(h)
        if taken:
            heapq.heapify(keep)     # dead entries go too: removal is lazy anyway
            self._heap = keep
            self._active -= len(taken)
            taken.sort()
        return taken

    def adopt(self, handles: list[ScheduleHandle], shift: int = 0) -> None:
        """Take over callbacks `extract`ed from another scheduler. Their due times move by
        `shift` (Esper shifts a moving statement's schedules by the gap between the two
        clocks), slots stay (one already due fires at this scheduler's next time advance);
        their sequence numbers are renewed in the order given, so that callbacks scheduled
        here later at the same time and slot still fire after them."""
        for h in handles:
            if h.active:
                h.time += shift
                h.seq = next(self._seq)
                heapq.heappush(self._heap, h)
                self._active += 1

    def pending_count(self) -> int:
        """Live scheduled callbacks (introspection: bounded memory checks)."""
        return self._active

    def next_time(self) -> Optional[int]:
        heap = self._heap
        while heap and not heap[0].active:
            heapq.heappop(heap)
        return heap[0].time if heap else None

    def collect_due(self, until: int) -> list[ScheduleHandle]:
        """Every live callback due at or before `until`, in (time, slot, sequence) order,
        taken off the queue. Callbacks scheduled while these fire wait for the next time
        advance, as in Esper. Fire each with `fire` (a handle cancelled meanwhile is skipped)."""
        heap = self._heap
        due = []
        while heap and heap[0].time <= until:
            h = heapq.heappop(heap)
            if h.active:
                due.append(h)
        return due

    def fire(self, handle: ScheduleHandle) -> None:
        if handle.active:
            handle.active = False
            self._active -= 1
            handle.callback()

    def pop_due(self, until: int) -> Optional[ScheduleHandle]:
        """The next live callback due at or before `until`, removed from the queue and
        marked fired (for simple drivers; the engine uses collect_due and fire)."""
        heap = self._heap
        while heap:
            h = heap[0]
            if not h.active:
                heapq.heappop(heap)
                continue
            if h.time > until:
                return None
            heapq.heappop(heap)
            h.active = False
            self._active -= 1
            return h
        return None

    def set_time(self, t: int) -> None:
        if t < self.now:
            raise TimeError(f"Time cannot move backwards: current time is {self.now}, requested {t}")
        self.now = t
