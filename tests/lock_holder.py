"""Another thread holding an engine's lock, for tests of what a send does while the lock is
taken (tests/engine/test_send_pending.py, tests/engine/test_raw_batch_split.py)."""
from __future__ import annotations

import threading

from engine import Engine


def holding_the_lock(engine: Engine) -> tuple[threading.Thread, threading.Event]:
    """A started thread holding `engine.lock` until the returned event is set."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with engine.lock:
            held.set()
            release.wait(10)
    t = threading.Thread(target=hold)
    t.start()
    held.wait(10)
    return t, release
