"""The view contract: data windows and derived views receive `update(new, old)` from their
parent and forward what enters and leaves to their child.

Contract (Esper's):
- `update(new, old)`: `new` are events entering (oldest first), `old` events leaving (oldest
  first); each is a list or None, and an empty list means the same as None.
- A view calls `self.child.update(new, old)` only when something entered or left, with the
  events the child must see: a length window passes each new event with the event it
  pushed out; a batch window passes the whole batch as new and the previous batch as old.
- Time-based views never read a clock: they ask `ctx.now()` and schedule through
  `ctx.schedule(at, callback)`; callbacks fire with `ctx.now()` at the engine's time.
- `__iter__` yields the current contents oldest first (Esper's iterator / `for row in stmt`).
- `stop()` cancels the view's schedules and releases its contents.
"""
from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Iterator, Optional, Protocol, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass
from engine.contracts.view_context import ViewContext as ViewContext

Events = Optional[list]


class UpdateSink(Protocol):
    def update(self, new: Events, old: Events) -> None: ...


class ViewParameterError(ValueError):
    """A view got a wrong number or kind of parameters; the compiler reports it as an
    EPLValidationError naming the view."""


class _NotConstant:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_CONSTANT"


NOT_CONSTANT: Any = _NotConstant()


@frozen_dataclass
class ViewArg:
    """One view parameter as the compiler hands it over.

    - `text`: the EPL text, for error messages.
    - `value`: the constant value when the argument is constant (NOT_CONSTANT otherwise).
      For a time period (`5.5 sec`) it is the length in milliseconds (`is_time_period`).
    - `evaluate(bean)`: the argument evaluated against one event (property expressions such
      as `#unique(account)`, `#ext_timed(ts, 2 sec)`); always set.
    - `compile_with(names)`: for expression views (`#expr(current_count <= 3)`), compiles the
      argument again with extra built-in names; the result is called as
      `fn(bean, values_by_name)`.
    - `result_type`: the PropertyType of the expression.
    - `descending`: for sort criteria (`#sort(3, price desc)`), True when written `desc`;
      `text` may then end with ' desc' and `evaluate` evaluates the expression alone.
    - `add_period`: for a time period with months or years (`1 month`), the instant one
      period after a given engine time, by the calendar (UTC), as Esper computes it; None
      for periods of fixed length.
    """

    text: str
    value: Any = NOT_CONSTANT
    is_time_period: bool = False
    evaluate: Callable[[EventBean], Any] = field(default=lambda bean: None, compare=False)
    compile_with: Optional[Callable[[Sequence[str]], Callable[[EventBean, dict], Any]]] = field(default=None, compare=False)
    result_type: Any = None
    descending: bool = False
    add_period: Optional[Callable[[int], int]] = field(default=None, compare=False)

    @property
    def is_constant(self) -> bool:
        return self.value is not NOT_CONSTANT

    def msec(self, view: str) -> float:
        """This argument as a time span in milliseconds: a time period, or a number of seconds."""
        if not self.is_constant or isinstance(self.value, bool) or not isinstance(self.value, (int, float)):
            raise ViewParameterError(
                f"Error in view '{view}': invalid parameter '{self.text}', expected a time period or a number of seconds")
        return float(self.value) if self.is_time_period else float(self.value) * 1000.0

    def integer(self, view: str, minimum: int = 1) -> int:
        v = self.value
        if not self.is_constant or isinstance(v, bool) or not isinstance(v, int) or v < minimum:
            raise ViewParameterError(
                f"Error in view '{view}': invalid parameter '{self.text}', expected an integer of at least {minimum}")
        return v


class View:
    """Base class for views: holds the child and a no-op stop."""

    __slots__ = ("child",)

    def __init__(self) -> None:
        self.child: UpdateSink = _NULL_SINK

    def update(self, new: Events, old: Events) -> None:
        raise NotImplementedError

    def __iter__(self) -> Iterator[EventBean]:
        return iter(())

    def stop(self) -> None:
        pass


class _NullSink:
    __slots__ = ()

    def update(self, new: Events, old: Events) -> None:
        pass


_NULL_SINK = _NullSink()


class ViewFactory(Protocol):
    """Built at compile time from validated arguments; `make` builds one view instance per
    statement instance (contexts and `groupwin` make many)."""

    def make(self, ctx: ViewContext) -> View: ...

    # True for views that keep every event they are given until they expire it (data windows);
    # derived views (e.g. size) set False.
    is_data_window: bool
