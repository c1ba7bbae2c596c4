"""Plan data the compiler builds and the runtime executes: one stream of a statement (event
type, filter template, view factories) and the target of `insert into`."""
from __future__ import annotations

from typing import Any, Optional

from engine.contracts.event_types import EventType
from engine.contracts.frozen import frozen_dataclass


@frozen_dataclass
class StreamPlan:
    """One stream: which events (type and filter), which views, under which alias."""

    index: int
    event_type: EventType
    alias: Optional[str]
    filter: Any                      # has bind(bindings=None) -> FilterSpec
    views: tuple = ()                # view factories, in chain order
    unidirectional: bool = False
    pattern: Any = None              # a pattern plan for `pattern [...]` streams
    named_window: Any = None         # set when the stream consumes a named window
    contained: Any = None            # `Type[prop]`: bean -> the contained events to feed


@frozen_dataclass
class InsertIntoPlan:
    event_type: EventType
    columns: tuple[tuple[str, str], ...]   # (output column, target property), in select order
    selector: str = "istream"        # 'istream' | 'rstream' | 'irstream'
    passthrough: bool = False        # `insert into X select *` of the same type: route as is
    member: Optional["InsertIntoPlan"] = None   # into a variant stream: builds the member event
