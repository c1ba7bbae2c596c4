"""`#correl(x, y [, expr ...])`: the correlation of two numeric expressions over the events
the parent holds (property `correlation`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from engine import epl_types as T
from engine.bean import EventBean

from ._derived import DerivedFactory, DerivedView, Moments, check_number, derived_type, extras, number
from ._util import check_count
from .base import ViewArg, ViewContext


class CorrelView(DerivedView):
    __slots__ = ("_x", "_y", "_m")

    def __init__(self, factory: "CorrelViewFactory") -> None:
        super().__init__(factory.event_type, factory.extras)
        self._x, self._y = factory.x, factory.y
        self._m = Moments()

    def _point(self, e: EventBean) -> Any:
        x, y = number(self._x(e)), number(self._y(e))
        return None if x is None or y is None else (x, y)

    def _add(self, e: EventBean) -> None:
        p = self._point(e)
        if p is not None:
            self._m.add(*p)

    def _remove(self, e: EventBean) -> None:
        p = self._point(e)
        if p is not None:
            self._m.remove(*p)

    def _values(self) -> dict:
        return {"correlation": self._m.correlation()}


@dataclass(frozen=True)
class CorrelViewFactory(DerivedFactory):
    x: Callable[[EventBean], Any] = lambda bean: None
    y: Callable[[EventBean], Any] = lambda bean: None

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "CorrelViewFactory":
        check_count(view, args, 2, None, "two numeric expressions and optional additional properties")
        check_number(view, args[0])
        check_number(view, args[1])
        return cls(derived_type(view, {"correlation": T.DOUBLE}, args[2:]), extras(args[2:]),
                   args[0].evaluate, args[1].evaluate)

    def make(self, ctx: ViewContext) -> CorrelView:
        return CorrelView(self)
