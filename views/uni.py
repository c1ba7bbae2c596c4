"""`#uni(expr [, expr ...])`: univariate statistics of a numeric expression over the events
the parent holds: datapoints, total, average, variance, stddev, stddevpa."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from engine.contracts.frozen import frozen_dataclass
import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean

from ._derived import DerivedFactory, DerivedView, Moments, check_number, derived_type, extras, number
from ._util import check_count
from .base import ViewArg, ViewContext

PROPERTIES = {"datapoints": T.LONG, "total": T.DOUBLE, "average": T.DOUBLE, "variance": T.DOUBLE,
              "stddev": T.DOUBLE, "stddevpa": T.DOUBLE}


class UniView(DerivedView):
    __slots__ = ("_x", "_m")

    def __init__(self, factory: "UniViewFactory") -> None:
        super().__init__(factory.event_type, factory.extras)
        self._x = factory.x
        self._m = Moments()

    def _add(self, e: EventBean) -> None:
        x = number(self._x(e))
        if x is not None:
            self._m.add(x, 0.0)

    def _remove(self, e: EventBean) -> None:
        x = number(self._x(e))
        if x is not None:
            self._m.remove(x, 0.0)

    def _values(self) -> dict:
        m = self._m
        return {"datapoints": m.n, "total": m.sx, "average": m.average(m.sx),
                "variance": m.variance(m.sx, m.sxx), "stddev": m.stddev_sample(m.sx, m.sxx),
                "stddevpa": m.stddev_pop(m.sx, m.sxx)}


@frozen_dataclass
class UniViewFactory(DerivedFactory):
    x: Callable[[EventBean], Any] = lambda bean: None

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "UniViewFactory":
        check_count(view, args, 1, None, "a numeric expression and optional additional properties")
        check_number(view, args[0])
        return cls(derived_type(view, PROPERTIES, args[1:]), extras(args[1:]), args[0].evaluate)

    def make(self, ctx: ViewContext) -> UniView:
        return UniView(self)
