"""`#linest(x, y [, expr ...])`: linear regression of y on x over the events the parent holds,
with Esper's property names (slope, YIntercept, XAverage, ..., sumXY, sumYSq). As Esper's
regression suite shows, the first expression is X: `#linest(price, volume)` over (70, 1000)
and (70.5, 1500) has slope 1000 and YIntercept -69000."""
from __future__ import annotations

from typing import ClassVar

from engine.contracts.frozen import frozen_dataclass
import engine.contracts.epl_types as T

from ._derived import PairFactory, PairView

_D = T.DOUBLE
PROPERTIES = {"slope": _D, "YIntercept": _D, "XAverage": _D, "XStandardDeviationPop": _D,
              "XStandardDeviationSample": _D, "XSum": _D, "XVariance": _D, "YAverage": _D,
              "YStandardDeviationPop": _D, "YStandardDeviationSample": _D, "YSum": _D,
              "YVariance": _D, "dataPoints": T.LONG, "n": T.LONG, "sumX": _D, "sumXSq": _D,
              "sumXY": _D, "sumY": _D, "sumYSq": _D}


class LinestView(PairView):
    __slots__ = ()

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


@frozen_dataclass
class LinestViewFactory(PairFactory):
    view_class: ClassVar[type] = LinestView
    properties: ClassVar[dict] = PROPERTIES
    expected: ClassVar[str] = "two numeric expressions (x and y) and optional additional properties"
