"""The progress bar of `epl run` on stderr: percentage of the file read, events per second
and the time left. Drawn by tqdm when it is installed (a dependency of the package), else
by a plain line with the same figures."""
from __future__ import annotations

import sys
import time as _time
from typing import Any, Optional, TextIO


class Progress:
    """`update(bytes_read, events)` now and then, `close()` at the end; does nothing when
    disabled."""

    def __init__(self, enabled: bool, total_bytes: Optional[int], label: str,
                 stream: TextIO = sys.stderr) -> None:
        self.enabled = enabled
        self.total = total_bytes or None
        self.stream = stream
        self.start = _time.monotonic()
        self.last = 0.0
        self.events = 0
        self._bar: Any = None
        if not enabled:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self._bar = tqdm(total=self.total, desc=label, unit="B", unit_scale=True,
                         unit_divisor=1024, file=stream, leave=True, mininterval=0.5,
                         dynamic_ncols=True)

    def update(self, position: int, events: int) -> None:
        if not self.enabled:
            return
        self.events = events
        if self._bar is not None:
            self._bar.update(position - self._bar.n)
            now = _time.monotonic()
            if now - self.last >= 0.5:
                self.last = now
                self._bar.set_postfix_str(f"{events:,} events, {self._rate(now):,.0f} ev/s", refresh=False)
            return
        now = _time.monotonic()
        if now - self.last >= 0.5:
            self.last = now
            self.stream.write("\r\033[K" + self._line(position, now))
            self.stream.flush()

    def _rate(self, now: float) -> float:
        return self.events / max(now - self.start, 1e-9)

    def _line(self, position: int, now: float) -> str:
        elapsed = now - self.start
        text = f"{self.events:,} events, {self._rate(now):,.0f} events/s"
        if self.total:
            done = min(position / self.total, 1.0)
            eta = elapsed * (1 - done) / done if done > 0 else 0.0
            text = f"{done:4.0%} " + text + f", ETA {eta:,.0f} s"
        return text

    def close(self, position: int, events: int) -> None:
        if not self.enabled:
            return
        self.events = events
        if self._bar is not None:
            self._bar.update(position - self._bar.n)
            self._bar.set_postfix_str(f"{self.events:,} events, {self._rate(_time.monotonic()):,.0f} ev/s")
            self._bar.close()
            return
        self.stream.write("\r\033[K" + self._line(position, _time.monotonic()) + "\n")
        self.stream.flush()
