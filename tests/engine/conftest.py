"""A recording listener and an engine on simulated time, for behaviour tests."""
from __future__ import annotations

import pytest

from engine import Engine


class Recorder:
    """Records every delivery as (new rows, old rows) of plain dicts; assert after the step."""

    def __init__(self) -> None:
        self.calls: list[tuple[list, list]] = []

    def __call__(self, new, old) -> None:
        self.calls.append(([e.to_dict() for e in new or []], [e.to_dict() for e in old or []]))

    def reset(self) -> list:
        calls, self.calls = self.calls, []
        return calls

    @property
    def new(self) -> list:
        return [row for new, _ in self.calls for row in new]

    @property
    def old(self) -> list:
        return [row for _, old in self.calls for row in old]


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    yield e
    e.close()


@pytest.fixture
def recorder():
    return Recorder()
