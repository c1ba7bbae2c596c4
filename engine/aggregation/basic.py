"""count, sum, avg, min and max (also minever/maxever and the filtered fmin/fmax family).

Nulls are ignored by all but count(*); sum/avg/min/max of no values is None, count is 0.
Sums are exact (see exact.py), so an expiring aggregate returns to None and 0 exactly.
min/max keep the present values in a SortedList: enter and leave cost O(log n), in any order.
"""
from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Callable

from sortedcontainers import SortedList

from engine.epl_types import BIGINT, DECIMAL, DOUBLE, EPLType, FLOAT, INT, LONG, PropertyType

from .base import AggCall, AggregationError, AggregationFactory, Aggregator
from .checks import expect_args, finish, numeric_arg, ordered_arg
from .exact import EXACT_DECIMAL, to_float


# ---------------------------------------------------------------- count

class CountAll:
    """count(*): every entering row, nulls included."""

    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def enter(self, value: Any) -> None:
        self.n += 1

    def leave(self, value: Any) -> None:
        if self.n > 0:
            self.n -= 1

    def value(self) -> int:
        return self.n

    def clear(self) -> None:
        self.n = 0


class CountValues(CountAll):
    """count(expr): the non-null values."""

    __slots__ = ()

    def enter(self, value: Any) -> None:
        if value is not None:
            self.n += 1

    def leave(self, value: Any) -> None:
        if value is not None and self.n > 0:
            self.n -= 1


# ---------------------------------------------------------------- sums of integers

class IntSum:
    """sum over integral types: Python's exact integers."""

    __slots__ = ("n", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0

    def enter(self, value: Any) -> None:
        if value is None:
            return
        self.n += 1
        self.total += value if type(value) is int else int(value)

    def leave(self, value: Any) -> None:
        if value is None:
            return
        self.n -= 1
        if self.n <= 0:
            self.clear()
        else:
            self.total -= value if type(value) is int else int(value)

    def value(self) -> Any:
        return self.total if self.n else None

    def clear(self) -> None:
        self.n = 0
        self.total = 0


class IntAvg(IntSum):
    """avg over integral types: the exact sum divided once."""

    __slots__ = ()

    def value(self) -> Any:
        return to_float(self.total, self.n) if self.n else None


class BigIntAvg(IntSum):
    """avg over BigInteger: a BigDecimal result, as Esper's."""

    __slots__ = ()

    def value(self) -> Any:
        return Decimal(self.total) / self.n if self.n else None


# ---------------------------------------------------------------- sums of floats

class FloatTotal:
    """The exact sum of floats (and ints) as acc / 2**k, with non-finite values counted apart."""

    __slots__ = ("n", "acc", "k", "nan", "pinf", "ninf")

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.n = 0
        self.acc = 0
        self.k = 0
        self.nan = 0
        self.pinf = 0
        self.ninf = 0

    def _put(self, value: Any, sign: int) -> None:
        if type(value) is int:
            self.acc += sign * (value << self.k)
            return
        x = value if type(value) is float else float(value)
        if x - x != 0.0:               # inf - inf and nan - nan are nan
            if x != x:
                self.nan += sign
            elif x > 0:
                self.pinf += sign
            else:
                self.ninf += sign
            return
        num, den = x.as_integer_ratio()
        k = den.bit_length() - 1
        if k > self.k:
            self.acc <<= k - self.k
            self.k = k
        self.acc += sign * (num << (self.k - k))

    # enter and leave inline _put's finite-float case: the per-event path of avg/sum(double)
    def enter(self, value: Any) -> None:
        if value is None:
            return
        self.n += 1
        if type(value) is float and value - value == 0.0:
            num, den = value.as_integer_ratio()
            k = den.bit_length() - 1
            sk = self.k
            if k > sk:
                self.acc = (self.acc << (k - sk)) + num
                self.k = k
            else:
                self.acc += num << (sk - k)
            return
        self._put(value, 1)

    def leave(self, value: Any) -> None:
        if value is None:
            return
        self.n -= 1
        if self.n <= 0:
            self.clear()                # exactly zero again, and the scale shrinks back
            return
        if type(value) is float and value - value == 0.0:
            num, den = value.as_integer_ratio()
            k = den.bit_length() - 1
            sk = self.k
            if k > sk:
                self.acc = (self.acc << (k - sk)) - num
                self.k = k
            else:
                self.acc -= num << (sk - k)
            return
        self._put(value, -1)

    def special(self) -> float | None:
        """The result when a non-finite value is present, else None."""
        if self.nan or (self.pinf and self.ninf):
            return math.nan
        if self.pinf:
            return math.inf
        if self.ninf:
            return -math.inf
        return None

    def value(self) -> Any:
        raise NotImplementedError


class FloatSum(FloatTotal):
    __slots__ = ()

    def value(self) -> Any:
        if not self.n:
            return None
        if self.nan or self.pinf or self.ninf:
            return self.special()
        try:
            return self.acc / (1 << self.k)
        except OverflowError:
            return to_float(self.acc, 1 << self.k)


class FloatAvg(FloatTotal):
    __slots__ = ()

    def value(self) -> Any:
        n = self.n
        if not n:
            return None
        if self.nan or self.pinf or self.ninf:
            return self.special()
        try:
            return self.acc / (n << self.k)
        except OverflowError:
            return to_float(self.acc, n << self.k)


# ---------------------------------------------------------------- sums of decimals

def _decimal(value: Any) -> Decimal:
    return value if type(value) is Decimal else Decimal(value)


class DecimalSum:
    """sum over BigDecimal: Decimal additions that never round."""

    __slots__ = ("n", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total = Decimal(0)

    def enter(self, value: Any) -> None:
        if value is None:
            return
        self.n += 1
        self.total = EXACT_DECIMAL.add(self.total, _decimal(value))

    def leave(self, value: Any) -> None:
        if value is None:
            return
        self.n -= 1
        if self.n <= 0:
            self.clear()
        else:
            self.total = EXACT_DECIMAL.subtract(self.total, _decimal(value))

    def value(self) -> Any:
        return self.total if self.n else None

    def clear(self) -> None:
        self.n = 0
        self.total = Decimal(0)


class DecimalAvg(DecimalSum):
    """avg over BigDecimal: divided in the current decimal context (28 digits by default)."""

    __slots__ = ()

    def value(self) -> Any:
        return self.total / self.n if self.n else None


# ---------------------------------------------------------------- min / max

class _Extreme:
    """The present non-null values, sorted; NaN counted apart (Java orders it above all)."""

    __slots__ = ("values", "nan")

    def __init__(self) -> None:
        self.values = SortedList()
        self.nan = 0

    def enter(self, value: Any) -> None:
        if value is None:
            return
        if value != value:
            self.nan += 1
        else:
            self.values.add(value)

    def leave(self, value: Any) -> None:
        if value is None:
            return
        if value != value:
            self.nan = max(0, self.nan - 1)
        else:
            self.values.remove(value)

    def clear(self) -> None:
        self.values.clear()
        self.nan = 0


class Min(_Extreme):
    __slots__ = ()

    def value(self) -> Any:
        if self.values:
            return self.values[0]
        return math.nan if self.nan else None


class Max(_Extreme):
    __slots__ = ()

    def value(self) -> Any:
        if self.nan:
            return math.nan
        return self.values[-1] if self.values else None


class _Doubles(_Extreme):
    """min/max of a double expression: ints that arrive are taken as doubles."""

    __slots__ = ()

    def enter(self, value: Any) -> None:
        _Extreme.enter(self, value if value is None or type(value) is float else float(value))

    def leave(self, value: Any) -> None:
        _Extreme.leave(self, value if value is None or type(value) is float else float(value))


class MinDouble(_Doubles, Min):
    __slots__ = ()


class MaxDouble(_Doubles, Max):
    __slots__ = ()


class MinEver:
    """minever: the least value ever entered; leave is ignored."""

    __slots__ = ("best",)

    def __init__(self) -> None:
        self.best: Any = None

    def enter(self, value: Any) -> None:
        if value is None:
            return
        b = self.best
        if b is None or b != b or value < b:
            self.best = value

    def leave(self, value: Any) -> None:
        pass

    def value(self) -> Any:
        return self.best

    def clear(self) -> None:
        self.best = None


class MaxEver(MinEver):
    """maxever: the greatest value ever entered; NaN, once seen, stays (Java's order)."""

    __slots__ = ()

    def enter(self, value: Any) -> None:
        if value is None:
            return
        b = self.best
        if b is None or value != value or (b == b and value > b):
            self.best = value


# ---------------------------------------------------------------- builders

_SUM_TYPES = {
    EPLType.BYTE: INT, EPLType.SHORT: INT, EPLType.INT: INT, EPLType.LONG: LONG,
    EPLType.BIGINT: BIGINT, EPLType.FLOAT: FLOAT, EPLType.DOUBLE: DOUBLE, EPLType.DECIMAL: DECIMAL,
}


def build_count(call: AggCall) -> AggregationFactory:
    if call.star:
        if call.distinct:
            raise AggregationError("Invalid use of the 'distinct' keyword with count and wildcard")
        expect_args(call, 0, 1)        # count(*) may carry the wildcard's own type
        return finish(call, LONG, CountAll)
    expect_args(call, 1, 1)
    return finish(call, LONG, CountValues)


def build_sum(call: AggCall) -> AggregationFactory:
    expect_args(call, 1, 1)
    rtype = _SUM_TYPES[numeric_arg(call).kind]
    maker: Callable[[], Aggregator]
    if rtype.kind is EPLType.DECIMAL:
        maker = DecimalSum
    elif rtype.is_integral:
        maker = IntSum
    else:
        maker = FloatSum
    return finish(call, rtype, maker)


def build_avg(call: AggCall) -> AggregationFactory:
    expect_args(call, 1, 1)
    kind = numeric_arg(call).kind
    if kind is EPLType.DECIMAL:
        return finish(call, DECIMAL, DecimalAvg)
    if kind is EPLType.BIGINT:
        return finish(call, DECIMAL, BigIntAvg)
    if kind in (EPLType.FLOAT, EPLType.DOUBLE):
        return finish(call, DOUBLE, FloatAvg)
    return finish(call, DOUBLE, IntAvg)


def _min_max(maker: Callable[[], Aggregator], filtered: bool,
             doubles: Callable[[], Aggregator] | None = None) -> Callable[[AggCall], AggregationFactory]:
    def build(call: AggCall) -> AggregationFactory:
        if filtered and "filter" not in call.named:
            raise AggregationError(f"{call.name}-filtered aggregation function must have a "
                                   f"filter expression as a second parameter")
        expect_args(call, 1, 1)
        t: PropertyType = ordered_arg(call)
        if doubles is not None and t.kind in (EPLType.DOUBLE, EPLType.FLOAT):
            return finish(call, t, doubles)
        return finish(call, t, maker)
    return build


BUILDERS: dict[str, Callable[[AggCall], AggregationFactory]] = {
    "count": build_count,
    "sum": build_sum,
    "avg": build_avg,
    "min": _min_max(Min, False, MinDouble),
    "max": _min_max(Max, False, MaxDouble),
    "minever": _min_max(MinEver, False),
    "maxever": _min_max(MaxEver, False),
    "fmin": _min_max(Min, True, MinDouble),
    "fmax": _min_max(Max, True, MaxDouble),
    "fminever": _min_max(MinEver, True),
    "fmaxever": _min_max(MaxEver, True),
}
