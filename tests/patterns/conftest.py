"""An engine on simulated time with the pattern service, and helpers to collect matches."""
from __future__ import annotations

import pytest

from engine import Engine
from engine.patterns import install


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    install(e)          # no-op once Engine.__init__ installs it
    e.epl("create schema A(id int, v int)")
    e.epl("create schema B(id int, v int)")
    e.epl("create schema C(id int, v int)")
    yield e
    e.close()


class Rows:
    """Listener recording rows per call (plain dicts; events inside become their dicts)."""

    def __init__(self) -> None:
        self.calls: list[list[dict]] = []

    def __call__(self, new, old) -> None:
        self.calls.append([_plain(e.to_dict()) for e in new or []])

    @property
    def rows(self) -> list[dict]:
        return [r for c in self.calls for r in c]

    def take(self) -> list[dict]:
        rows = self.rows
        self.calls = []
        return rows


def _plain(v):
    from engine.bean import EventBean
    if isinstance(v, EventBean):
        return _plain(v.to_dict())
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


@pytest.fixture
def listen(engine):
    """`rows = listen("select ...")`: create the statement and record what it delivers."""
    def make(epl: str) -> Rows:
        rows = Rows()
        engine.epl(epl).add_listener(rows)
        return rows
    return make
