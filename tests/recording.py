"""Recording what statements deliver, for behaviour tests: assert after the step. Built on
the plugin's recorder (engine.testing), which new tests use directly through the fixtures
`epl_engine` and `epl_recorder`."""
from __future__ import annotations

from typing import Any

from engine.testing import Recorder, rows as rows

__all__ = ["Rec", "Recorder", "rows"]


class Rec:
    """Attached to a statement, records each delivery's insert stream as a list of dicts."""

    def __init__(self, stmt: Any) -> None:
        self.recorder = Recorder(stmt)

    @property
    def calls(self) -> list[list[dict]]:
        return [list(d.new) for d in self.recorder.deliveries]

    def pop(self) -> list[list[dict]]:
        return [list(d.new) for d in self.recorder.pop()]
