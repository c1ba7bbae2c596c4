"""What a filter is, as the compiler hands it to the index: per event type, an `or` of
conjunctions (paths), each conjunction a tuple of (property, operator, value) parameters.

A stream filter `Tick(symbol='S7' and price > 50)` becomes one path of two parameters; an
`or` is split into several paths by the planner; what cannot be indexed becomes a BOOL_EXPR
parameter whose value is a compiled predicate over the event. Pattern sub-expressions and
context partitions build specs with the values of earlier tags already bound in.
"""
from __future__ import annotations

import enum
from dataclasses import field
from typing import Any, Callable, Optional

from engine.contracts.frozen import frozen_dataclass


class FilterOp(enum.Enum):
    EQ = "="                    # value: constant; None never matches
    IS = "is"                   # value: constant; None matches None
    NE = "!="                   # None never matches
    IS_NOT = "is not"
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    RANGE_CLOSED = "[]"         # value: (low, high), both ends included (also `between`)
    RANGE_OPEN = "()"
    RANGE_HALF_OPEN = "[)"      # low included, high excluded
    RANGE_HALF_CLOSED = "(]"    # low excluded, high included
    NOT_RANGE_CLOSED = "![]"
    NOT_RANGE_OPEN = "!()"
    NOT_RANGE_HALF_OPEN = "![)"
    NOT_RANGE_HALF_CLOSED = "!(]"
    IN_LIST = "in"              # value: tuple of constants
    NOT_IN_LIST = "not in"
    BOOL_EXPR = "expr"          # value: predicate(bean) -> bool|None; identity is `key`
    # value: a live container (dict or set), read per event: the value must be one of its
    # keys (its owner keeps null out); identity is `key`. A pattern's waiting keys, say:
    # the container changes without the filter changing
    IN_KEYS = "in keys"


@frozen_dataclass(slots=True)
class FilterParam:
    """One indexable condition. `lookup` names the property (path) and, together with `op`
    and `value` (or `key` for BOOL_EXPR), is what identical filters share. `getter` reads the
    property from the event's underlying object and is not part of identity."""

    lookup: str
    op: FilterOp
    value: Any
    getter: Optional[Callable[[Any], Any]] = field(default=None, compare=False, hash=False)
    key: Optional[str] = None   # BOOL_EXPR: the expression's canonical text (+ bindings); IN_KEYS: its identity


@frozen_dataclass(slots=True)
class FilterSpec:
    """The filter of one stream on one event type: an `or` of paths, each a conjunction of
    parameters. `paths == ((),)` means "every event of the type"."""

    event_type: Any   # engine.event_types.EventType
    paths: tuple[tuple[FilterParam, ...], ...] = ((),)
