"""`engine.lock`: the engine's re-entrant lock, which also says in one attribute whether anyone holds it.

An `RLock` with `threading.RLock`'s API (`acquire(blocking, timeout)`, `release`, `with`,
and what `threading.Condition` uses) whose `held` counts the acquisitions now held (by the
owning thread; 0 when the lock is free). Only the owner changes `held`, holding the lock, so
a reader on another thread sees a whole value. The per-event fronts (engine/lean_send.py)
read it without taking the lock: an event no filter wants is discarded when nobody holds the
lock (docs/performance.md, "The lock"). Code that takes the underlying lock itself (the
fronts, `Engine.send`) bumps `held` around whatever may run user code, so `held` is never 0
while an event or a time step is processed.
"""
from __future__ import annotations

import _thread
from typing import Any


class EngineLock:
    """A re-entrant lock whose `held` is the number of acquisitions now held (0: free)."""

    __slots__ = ("_lock", "held")

    def __init__(self) -> None:
        self._lock = _thread.RLock()
        self.held = 0

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if self._lock.acquire(blocking, timeout):
            self.held += 1          # the lock held: no other thread changes `held`
            return True
        return False

    def __enter__(self) -> bool:
        self._lock.acquire()
        self.held += 1
        return True

    def release(self) -> None:
        lock = self._lock
        if not lock._is_owned():
            raise RuntimeError("cannot release un-acquired lock")
        self.held -= 1              # still held: before another thread may take it
        lock.release()

    def __exit__(self, *exc: Any) -> None:
        # `with` acquired it on this thread: release without release()'s frame and test
        self.held -= 1
        self._lock.release()

    # what threading.Condition uses with a re-entrant lock
    def _is_owned(self) -> bool:
        return self._lock._is_owned()

    def _release_save(self) -> Any:
        if not self._lock._is_owned():
            raise RuntimeError("cannot release un-acquired lock")
        held, self.held = self.held, 0
        return self._lock._release_save(), held

    def _acquire_restore(self, state: Any) -> None:
        self._lock._acquire_restore(state[0])
        self.held = state[1]

    def __reduce__(self) -> Any:
        return EngineLock, ()       # a snapshot gets a free lock

    def __repr__(self) -> str:
        return f"<EngineLock held={self.held}>"
