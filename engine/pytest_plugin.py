"""The pytest plugin of epl-engine: fixtures for testing statements on simulated time. Its
`pytest11` entry point is named after this module, so that loading it also with `-p
engine.pytest_plugin` or a conftest's `pytest_plugins` registers it once.

- `epl_engine`: an Engine on simulated time starting at 0, closed after the test.
- `epl_recorder`: a factory, `epl_recorder(stmt_or_name, ...)` -> engine.testing.Recorder
  collecting every delivery of those statements (names are looked up in `epl_engine`).
- `epl_assert_streams` / `epl_assert_deliveries`: the assertion helpers, which print a
  readable diff of expected versus delivered insert and remove streams.

Without the installed package (a checkout), load it with `-p engine.pytest_plugin` or
`pytest_plugins = ["engine.pytest_plugin"]` in a conftest.py."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Union

import pytest

from .engine import Engine
from .statement import Statement
from .testing import Recorder, assert_deliveries, assert_streams


@pytest.fixture
def epl_engine() -> Iterator[Engine]:
    """An engine on simulated time at 0: move time with advance_time / advance_time_span."""
    engine = Engine(time="simulated", start_time=0)
    yield engine
    engine.close()


@pytest.fixture
def epl_recorder(epl_engine: Engine) -> Callable[..., Recorder]:
    """`epl_recorder(stmt, "name", ...)`: a Recorder on those statements of `epl_engine` (or of
    any engine, given statement objects)."""
    def make(*statements: Union[Statement, str]) -> Recorder:
        return Recorder(*statements, engine=epl_engine)
    return make


@pytest.fixture
def epl_assert_streams() -> Callable[..., None]:
    """`epl_assert_streams(recorder, new=[...], old=[...])`."""
    return assert_streams


@pytest.fixture
def epl_assert_deliveries() -> Callable[..., None]:
    """`epl_assert_deliveries(recorder, [(new, old), ...])` or with `(time, new, old)` entries."""
    return assert_deliveries


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "epl: a test of EPL statements (epl-engine)")
