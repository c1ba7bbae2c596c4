"""What the derived-value views (`#size`, `#uni`, `#linest`, `#correl`, `#weighted_avg`) share:
their own event type, additional properties, group columns under `#groupwin`, and Esper's
posting rule (the new statistics as new event, the previous statistics as old event)."""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Callable, ClassVar, Iterator, Optional, Sequence

from engine.contracts.frozen import frozen_dataclass
import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean
from engine.contracts.epl_types import PropertyType
from engine.contracts.event_types import EventType, Representation

from ._util import check_count, fail
from .base import Events, View, ViewArg, ViewContext

Extra = tuple[str, Callable[[EventBean], Any]]


class Moments:
    """Running sums over (x, y) points as Esper's statistics bean keeps them: additions and
    subtractions in arrival order, everything reset to zero when the last point leaves."""

    __slots__ = ("n", "sx", "sxx", "sy", "syy", "sxy")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.n = 0
        self.sx = self.sxx = self.sy = self.syy = self.sxy = 0.0

    def add(self, x: float, y: float) -> None:
        self.n += 1
        self.sx += x
        self.sxx += x * x
        self.sy += y
        self.syy += y * y
        self.sxy += x * y

    def remove(self, x: float, y: float) -> None:
        self.n -= 1
        if self.n <= 0:
            self.reset()
            return
        self.sx -= x
        self.sxx -= x * x
        self.sy -= y
        self.syy -= y * y
        self.sxy -= x * y

    # the statistics, with Esper's NaN for too few points
    @staticmethod
    def _sqrt(v: float) -> float:
        return math.sqrt(v) if v >= 0 else math.nan

    def average(self, s: float) -> float:
        return s / self.n if self.n else math.nan

    def variance(self, s: float, ss: float) -> float:
        n = self.n
        return (ss - s * s / n) / (n - 1) if n >= 2 else math.nan

    def stddev_sample(self, s: float, ss: float) -> float:
        return self._sqrt(self.variance(s, ss)) if self.n >= 2 else math.nan

    def stddev_pop(self, s: float, ss: float) -> float:
        n = self.n
        return self._sqrt((ss - s * s / n) / n) if n else math.nan

    def slope(self) -> float:
        n = self.n
        if not n:
            return math.nan
        ssx = self.sxx - self.sx * self.sx / n
        if ssx == 0:
            return math.nan
        return (self.sxy - self.sx * self.sy / n) / ssx

    def intercept(self) -> float:
        slope = self.slope()
        if math.isnan(slope):
            return math.nan
        return self.sy / self.n - slope * self.sx / self.n

    def correlation(self) -> float:
        n = self.n
        if not n:
            return math.nan
        num = self.sxy - self.sx * self.sy / n
        den = self._sqrt(self.sxx - self.sx * self.sx / n) * self._sqrt(self.syy - self.sy * self.sy / n)
        if den == 0 or math.isnan(den):
            return math.nan
        return num / den


def number(v: Any) -> Optional[float]:
    """A numeric value as a double, None for null (points with a null are not counted)."""
    if v is None or isinstance(v, bool):
        return None
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


class DerivedView(View):
    """Base of the derived-value views. Subclasses keep their state in `_add`/`_remove` and
    give their statistics in `_values`. Each update posts one new event with the current
    statistics and, as old event, the event posted before (the first time, the statistics
    before the update)."""

    __slots__ = ("_type", "_extras", "_fixed", "_extra_values", "_last")

    def __init__(self, event_type: EventType, extras: Sequence[Extra]) -> None:
        super().__init__()
        self._type = event_type
        self._extras = tuple(extras)
        self._fixed: dict = {}                 # group columns under #groupwin
        self._extra_values: dict = {n: None for n, _ in self._extras}
        self._last: Optional[EventBean] = None

    def set_group(self, values: dict) -> None:
        self._fixed = values

    def _values(self) -> dict:
        raise NotImplementedError

    def _add(self, e: EventBean) -> None:
        raise NotImplementedError

    def _remove(self, e: EventBean) -> None:
        raise NotImplementedError

    def _bean(self) -> EventBean:
        row = self._values()
        row.update(self._extra_values)
        for k, v in self._fixed.items():
            row.setdefault(k, v)
        return EventBean(self._type, row)

    def _changed(self, before: Any) -> bool:
        return True

    def _state(self) -> Any:
        return None

    def update(self, new: Events, old: Events) -> None:
        prior = self._bean() if self._last is None else None
        before = self._state()
        if new:
            for e in new:
                self._add(e)
            if self._extras:
                last = new[-1]
                self._extra_values = {n: ev(last) for n, ev in self._extras}
        if old:
            for e in old:
                self._remove(e)
        if not self._changed(before):
            return
        bean = self._bean()
        self.child.update([bean], [prior if self._last is None else self._last])
        self._last = bean

    def __iter__(self) -> Iterator[EventBean]:
        yield self._bean()


def extras(args: Sequence[ViewArg]) -> tuple[Extra, ...]:
    return tuple((a.text, a.evaluate) for a in args)


def check_number(view: str, arg: ViewArg) -> None:
    rt = arg.result_type
    if rt is not None and getattr(rt, "kind", None) is not T.EPLType.OBJECT and not rt.is_numeric:
        raise fail(view, f"invalid parameter '{arg.text}', expected a numeric expression")


def derived_type(view: str, props: dict[str, PropertyType], extra_args: Sequence[ViewArg]) -> EventType:
    out = dict(props)
    for a in extra_args:
        out.setdefault(a.text, a.result_type or T.OBJECT)
    return EventType(f"{view}", Representation.MAP, out)


@frozen_dataclass
class DerivedFactory:
    """Common factory fields: the output type and the additional properties; `group`
    adds the grouping columns of an enclosing `#groupwin`."""

    event_type: EventType
    extras: tuple
    is_data_window: ClassVar[bool] = False
    is_derived: ClassVar[bool] = True

    def with_group(self, columns: Sequence[tuple[str, PropertyType]]) -> "DerivedFactory":
        props = dict(self.event_type.properties)
        for name, t in columns:
            props.setdefault(name, t or T.OBJECT)
        return replace(self, event_type=EventType(self.event_type.name, Representation.MAP, props))

    def make(self, ctx: ViewContext) -> DerivedView:
        raise NotImplementedError


class PairView(DerivedView):
    """A derived view over (x, y) pairs (`#linest`, `#correl`): running moments of the pairs
    where both values are numbers; subclasses give the statistics in `_values`."""

    __slots__ = ("_x", "_y", "_m")

    def __init__(self, factory: "PairFactory") -> None:
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


@frozen_dataclass
class PairFactory(DerivedFactory):
    """Factory of a PairView subclass (`view_class`) with `properties` as its statistics:
    `#name(x, y [, additional properties])`."""

    x: Callable[[EventBean], Any] = lambda bean: None
    y: Callable[[EventBean], Any] = lambda bean: None
    view_class: ClassVar[type] = PairView
    properties: ClassVar[dict] = {}
    expected: ClassVar[str] = "two numeric expressions and optional additional properties"

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "PairFactory":
        check_count(view, args, 2, None, cls.expected)
        check_number(view, args[0])
        check_number(view, args[1])
        return cls(derived_type(view, cls.properties, args[2:]), extras(args[2:]),
                   args[0].evaluate, args[1].evaluate)

    def make(self, ctx: ViewContext) -> PairView:
        return self.view_class(self)
