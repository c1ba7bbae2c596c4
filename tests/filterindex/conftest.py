"""Shared event types for the filter index tests."""
from __future__ import annotations

import pytest

from engine.event_types import EventTypeRegistry


@pytest.fixture
def types():
    reg = EventTypeRegistry()
    tick = reg.register_map("Tick", {"symbol": "string", "price": "double", "volume": "long"})
    sub = reg.register_map("Sub", {"extra": "int"}, inherits=["Tick"])
    other = reg.register_map("Other", {"x": "int"})
    return tick, sub, other
