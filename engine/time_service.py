"""System time: a timer thread that advances the engine's clock to the wall clock at a
fixed resolution (100 ms by default), as Esper's internal timer does."""
from __future__ import annotations

import threading
import time as _time
from typing import Callable


def wall_clock_ms() -> int:
    return int(_time.time() * 1000)


class TimerThread:
    """Calls `tick(now_ms)` every `resolution_ms` until stopped; a daemon so that it never
    keeps the interpreter alive."""

    def __init__(self, tick: Callable[[int], None], resolution_ms: int = 100) -> None:
        self._tick = tick
        self._interval = resolution_ms / 1000.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="epl-timer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self._tick(wall_clock_ms())
            except Exception:  # deliberate: a failing tick must not kill the clock thread
                import logging
                logging.getLogger("epl.engine").exception("timer tick failed")

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=2)
