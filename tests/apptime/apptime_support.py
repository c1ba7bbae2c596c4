"""Test support for application time: a recording listener that notes engine time, and
engines with the schemas the reference examples use."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from engine import Engine
from engine.apptime import to_ms


class Recorder:
    """Listener recording (engine time, new rows, old rows) as plain dicts."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.calls: list[tuple[int, list[dict], list[dict]]] = []

    def __call__(self, new: Any, old: Any) -> None:
        self.calls.append((self.engine.now, [e.to_dict() for e in new or ()],
                           [e.to_dict() for e in old or ()]))

    def inserts(self) -> list[tuple[int, dict]]:
        return [(t, r) for t, new, _ in self.calls for r in new]

    def removes(self) -> list[tuple[int, dict]]:
        return [(t, r) for t, _, old in self.calls for r in old]


def listen(engine: Engine, epl: str) -> Recorder:
    rec = Recorder(engine)
    engine.epl(epl).add_listener(rec)
    return rec


def utc(text: str) -> datetime:
    """'2009-07-15 09:13:33.317' as an aware UTC datetime."""
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


def ms(text: str) -> int:
    return to_ms(utc(text))
