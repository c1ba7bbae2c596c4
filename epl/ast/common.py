"""Source spans and the base node shared by every AST node."""
from __future__ import annotations

from engine.contracts.frozen import frozen_dataclass


@frozen_dataclass(slots=True)
class Span:
    """Where a node came from: 1-based line and column, and character offsets [start, end)."""

    line: int
    column: int
    start: int = 0
    end: int = 0


NO_SPAN = Span(0, 0)


class Node:
    """Base of all AST nodes. Subclasses are frozen slotted dataclasses with `span` last,
    excluded from equality so that tests compare trees."""

    __slots__ = ()
