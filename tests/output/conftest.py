"""Fixtures for output-limiting tests."""
from __future__ import annotations

import pytest
from output_support import Recorder, make_engine


@pytest.fixture
def engine():
    e = make_engine()
    e.epl("create schema T(k string, a int)")
    yield e
    close = getattr(e, "close", None)
    if close is not None:
        close()


@pytest.fixture
def rec():
    return Recorder()
