"""`#weighted_avg(x, weight [, expr ...])`: the weighted average of x over the events the
parent holds (property `average`)."""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from engine.contracts.frozen import frozen_dataclass
import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean

from ._derived import DerivedFactory, DerivedView, check_number, derived_type, extras, number
from ._util import check_count
from .base import ViewArg, ViewContext


class WeightedAvgView(DerivedView):
    """Sums of x*w and of w, NaN until the first point (Esper's starting state); the
    average is NaN while the weights sum to zero."""

    __slots__ = ("_x", "_w", "_sxw", "_sw")

    def __init__(self, factory: "WeightedAvgViewFactory") -> None:
        super().__init__(factory.event_type, factory.extras)
        self._x, self._w = factory.x, factory.w
        self._sxw = math.nan
        self._sw = math.nan

    def _point(self, e: EventBean) -> Any:
        x, w = number(self._x(e)), number(self._w(e))
        return None if x is None or w is None else (x, w)

    def _add(self, e: EventBean) -> None:
        p = self._point(e)
        if p is None:
            return
        x, w = p
        if math.isnan(self._sxw):
            self._sxw, self._sw = x * w, w
        else:
            self._sxw += x * w
            self._sw += w

    def _remove(self, e: EventBean) -> None:
        p = self._point(e)
        if p is None:
            return
        x, w = p
        self._sxw -= x * w
        self._sw -= w

    def _values(self) -> dict:
        sw = self._sw
        return {"average": self._sxw / sw if sw != 0 and not math.isnan(sw) else math.nan}


@frozen_dataclass
class WeightedAvgViewFactory(DerivedFactory):
    x: Callable[[EventBean], Any] = lambda bean: None
    w: Callable[[EventBean], Any] = lambda bean: None

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "WeightedAvgViewFactory":
        check_count(view, args, 2, None, "a numeric expression, a weight expression and optional "
                                         "additional properties")
        check_number(view, args[0])
        check_number(view, args[1])
        return cls(derived_type(view, {"average": T.DOUBLE}, args[2:]), extras(args[2:]),
                   args[0].evaluate, args[1].evaluate)

    def make(self, ctx: ViewContext) -> WeightedAvgView:
        return WeightedAvgView(self)
