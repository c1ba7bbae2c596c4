"""The view-context protocol: what a data window or derived view may ask of the runtime
(engine time, a schedule slot, the scheduler); views/base.py documents the view contract."""
from __future__ import annotations

from typing import Any, Callable, Protocol


class ViewContext(Protocol):
    """What a view may ask of its statement: time, a schedule slot, and the scheduler."""

    def now(self) -> int: ...

    def schedule(self, at: int, callback: Callable[[], None]) -> Any: ...

    def cancel(self, handle: Any) -> None: ...

    @property
    def msec_per_unit(self) -> float:
        """1.0 when engine time is in milliseconds, 1000.0 when in microseconds."""
        ...
