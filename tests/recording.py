"""Recording what statements deliver, for behaviour tests: assert after the step."""
from __future__ import annotations

from typing import Any


def rows(beans: Any) -> list[dict]:
    """Delivered events as plain dicts (an absent stream is an empty list)."""
    return [b.to_dict() for b in beans or ()]


class Rec:
    """Attached to a statement, records each delivery's insert stream as a list of dicts."""

    def __init__(self, stmt: Any) -> None:
        self.calls: list[list[dict]] = []
        stmt.add_listener(lambda new, old: self.calls.append(rows(new)))

    def pop(self) -> list[list[dict]]:
        out, self.calls = self.calls, []
        return out
