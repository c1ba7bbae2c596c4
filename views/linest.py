"""`#linest(x, y [, expr ...])`: linear regression of y on x over the events the parent holds,
with Esper's property names (slope, YIntercept, XAverage, ..., sumXY, sumYSq). As Esper's
regression suite shows, the first expression is X: `#linest(price, volume)` over (70, 1000)
and (70.5, 1500) has slope 1000 and YIntercept -69000."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from engine import epl_types as T
from engine.bean import EventBean

from ._derived import DerivedFactory, DerivedView, Moments, check_number, derived_type, extras, number
from ._util import check_count
from .base import ViewArg, ViewContext

_D = T.DOUBLE
PROPERTIES = {"slope": _D, "YIntercept": _D, "XAverage": _D, "XStandardDeviationPop": _D,
              "XStandardDeviationSample": _D, "XSum": _D, "XVariance": _D, "YAverage": _D,
              "YStandardDeviationPop": _D, "YStandardDeviationSample": _D, "YSum": _D,
              "YVariance": _D, "dataPoints": T.LONG, "n": T.LONG, "sumX": _D, "sumXSq": _D,
              "sumXY": _D, "sumY": _D, "sumYSq": _D}


class LinestView(DerivedView):
    __slots__ = ("_x", "_y", "_m")

    def __init__(self, factory: "LinestViewFactory") -> None:
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
        m = self._m
        return {"slope": m.slope(), "YIntercept": m.intercept(),
                "XAverage": m.average(m.sx), "XStandardDeviationPop": m.stddev_pop(m.sx, m.sxx),
                "XStandardDeviationSample": m.stddev_sample(m.sx, m.sxx), "XSum": m.sx,
                "XVariance": m.variance(m.sx, m.sxx),
                "YAverage": m.average(m.sy), "YStandardDeviationPop": m.stddev_pop(m.sy, m.syy),
                "YStandardDeviationSample": m.stddev_sample(m.sy, m.syy), "YSum": m.sy,
                "YVariance": m.variance(m.sy, m.syy),
                "dataPoints": m.n, "n": m.n, "sumX": m.sx, "sumXSq": m.sxx, "sumXY": m.sxy,
                "sumY": m.sy, "sumYSq": m.syy}


@dataclass(frozen=True)
class LinestViewFactory(DerivedFactory):
    x: Callable[[EventBean], Any] = lambda bean: None
    y: Callable[[EventBean], Any] = lambda bean: None

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "LinestViewFactory":
        check_count(view, args, 2, None, "two numeric expressions (x and y) and optional "
                                         "additional properties")
        check_number(view, args[0])
        check_number(view, args[1])
        return cls(derived_type(view, PROPERTIES, args[2:]), extras(args[2:]),
                   args[0].evaluate, args[1].evaluate)

    def make(self, ctx: ViewContext) -> LinestView:
        return LinestView(self)
