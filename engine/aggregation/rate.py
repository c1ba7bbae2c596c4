"""rate: events (or a summed value) per second, in Esper's two notations.

- `rate(N)` (N seconds, a constant): arrivals per second over the last N seconds of engine
  time. Each enter stamps the engine time (`named['time_source']`, a callable returning the
  engine time). Stamps N seconds or more older than the newest are dropped; the result is
  None until that first happens (the interval has been seen whole), then
  count * one_second / interval. Leave is ignored: this form needs no data window.
- `rate(ts)` / `rate(ts, v)` (ts a non-constant long timestamp, v numeric): over a data
  window: the count (or sum of v) of the present rows, times one second, divided by the time
  from the timestamp of the row that left last to the timestamp of the row that entered
  last. None until a row has left. A division by zero gives Infinity or NaN, as Java's.

`named['one_second']` is the number of engine time units in a second (1000 by default; a
microsecond engine passes 1_000_000).
"""
from __future__ import annotations

from collections import deque
from typing import Any, Callable

from engine.contracts.epl_types import DOUBLE

from engine.contracts.aggregation import AggCall, AggregationError, AggregationFactory
from .basic import FloatSum
from .checks import finish, no_distinct
from .exact import java_divide


class RateEver:
    """rate(N): a queue of arrival stamps over the last N seconds."""

    __slots__ = ("points", "has_leave", "interval", "one_second", "now")

    def __init__(self, interval: int, one_second: int, now: Callable[[], int]) -> None:
        self.points: deque[int] = deque()
        self.has_leave = False
        self.interval = interval
        self.one_second = one_second
        self.now = now

    def _expire(self, newest: int) -> None:
        points = self.points
        if len(points) > 1:
            while points and newest - points[0] >= self.interval:
                points.popleft()
                self.has_leave = True

    def enter(self, value: Any) -> None:
        t = self.now()
        self.points.append(t)
        self._expire(t)

    def leave(self, value: Any) -> None:
        pass

    def value(self) -> Any:
        if self.points:
            self._expire(self.points[-1])
        if not self.has_leave:
            return None
        return len(self.points) * self.one_second / self.interval

    def clear(self) -> None:
        self.points.clear()
        self.has_leave = False


class RateWindow:
    """rate(ts[, v]) over a data window."""

    __slots__ = ("count", "total", "latest", "oldest", "is_set", "one_second", "summed")

    def __init__(self, one_second: int, summed: bool) -> None:
        self.one_second = one_second
        self.summed = summed
        self.count = 0
        self.total = FloatSum() if summed else None
        self.latest = 0
        self.oldest = 0
        self.is_set = False

    def enter(self, value: Any) -> None:
        if self.summed:
            ts, v = value[0], value[1]
            self.total.enter(v)
        else:
            ts = value
            self.count += 1
        if ts is not None:
            self.latest = ts

    def leave(self, value: Any) -> None:
        if self.summed:
            ts, v = value[0], value[1]
            self.total.leave(v)
        else:
            ts = value
            self.count -= 1
        if ts is not None:
            self.oldest = ts
        self.is_set = True

    def value(self) -> Any:
        if not self.is_set:
            return None
        if self.summed:
            acc = self.total.value() or 0.0
        else:
            acc = float(self.count)
        return java_divide(acc * self.one_second, float(self.latest - self.oldest))

    def clear(self) -> None:
        self.count = 0
        if self.total is not None:
            self.total.clear()
        self.latest = 0
        self.oldest = 0
        self.is_set = False


def build_rate(call: AggCall) -> AggregationFactory:
    no_distinct(call)
    if not call.arg_types and not call.is_constant(0):
        raise AggregationError("The rate aggregation function minimally requires a numeric "
                               "constant or expression as a parameter.")
    one_second = int(call.named.get("one_second", 1000))
    if call.is_constant(0):
        seconds = call.constant(0)
        if (len(call.arg_types) > 1 or isinstance(seconds, bool)
                or not isinstance(seconds, (int, float)) or not seconds > 0):
            raise AggregationError("The rate aggregation function requires a numeric constant or "
                                   "time period as the first parameter in the constant-value "
                                   "notation")
        now = call.named.get("time_source")
        if not callable(now):
            raise AggregationError("The rate aggregation function in the constant-value notation "
                                   "needs the engine time: pass named={'time_source': callable}")
        interval = seconds * one_second if isinstance(seconds, int) else round(seconds * one_second)
        interval = max(1, int(interval))
        return finish(call, DOUBLE, lambda: RateEver(interval, one_second, now))
    if len(call.arg_types) > 2:
        raise AggregationError("The 'rate' function expects at least 1 and up to 2 parameters "
                               f"but received {len(call.arg_types)}")
    if not call.arg_types[0].is_integral:
        raise AggregationError("The rate aggregation function requires a property or expression "
                               "returning a non-constant long-type value as the first parameter "
                               "in the timestamp-property notation")
    summed = len(call.arg_types) == 2
    if summed and not call.arg_types[1].is_numeric:
        raise AggregationError("The rate aggregation function accepts an expression returning a "
                               "numeric value to accumulate as an optional second parameter")
    return finish(call, DOUBLE, lambda: RateWindow(one_second, summed))


BUILDERS: dict[str, Callable[[AggCall], AggregationFactory]] = {"rate": build_rate}
