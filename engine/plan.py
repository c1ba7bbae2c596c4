"""Statement plans: everything the compiler decided, immutable, built once per statement.
The runtime instantiates a plan (once, or per context partition) without looking at EPL."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from engine.contracts.event_types import EventType


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class InsertIntoPlan:
    event_type: EventType
    columns: tuple[tuple[str, str], ...]   # (output column, target property), in select order
    selector: str = "istream"        # 'istream' | 'rstream' | 'irstream'
    passthrough: bool = False        # `insert into X select *` of the same type: route as is
    member: Optional["InsertIntoPlan"] = None   # into a variant stream: builds the member event


@dataclass(frozen=True)
class SelectPlan:
    """A compiled select statement."""

    streams: tuple[StreamPlan, ...]
    where: Optional[Callable[[Sequence[Any]], bool]]
    make_processor: Callable[[], Any]          # fresh result-set processor (own aggregation state)
    out_type: EventType
    columns: tuple[str, ...]
    passthrough: bool                          # single-stream `select *`
    selector: str = "istream"
    insert_into: Optional[InsertIntoPlan] = None
    make_output: Optional[Callable[..., Any]] = None      # (ctx, emit, processor, iterate) -> limiter
    make_join: Optional[Callable[[Any], Any]] = None     # join factory for multi-stream statements
    context: Optional[str] = None
    extra: dict = field(default_factory=dict)
