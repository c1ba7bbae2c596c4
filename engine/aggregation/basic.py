"""count, sum, avg, min and max (also minever/maxever and the filtered fmin/fmax family).

Nulls are ignored by all but count(*); sum/avg/min/max of no values is None, count is 0.
Sums follow Esper's AggregatorSum: a running sum and a count; enter adds, leave subtracts,
and a leave that takes the count to 0 resets both to 0 (the next value starts afresh); no
values is null. Doubles (also the double sum behind avg of any non-big type) are plain IEEE
additions and subtractions in that order, so results equal Esper's bit for bit, including
the residue a subtraction can leave while values remain. int and long sums wrap as Java's.
BigInteger and BigDecimal sums are exact.
min/max keep the present values in a SortedList: enter and leave cost O(log n), in any order.
"""
from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Callable

from sortedcontainers import SortedList

from engine.contracts.epl_types import (BIGINT, DECIMAL, DOUBLE, EPLType, FLOAT, INT, LONG,
                                        PropertyType)

from engine.contracts.aggregation import AggCall, AggregationError, AggregationFactory, Aggregator
from .checks import expect_args, finish, numeric_arg, ordered_arg
from .exact import EXACT_DECIMAL


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
    """sum over int and long (Java's int/long sum, wrapping on overflow) and BigInteger
    (exact): Python's integers, wrapped when read; two's complement arithmetic wraps the
    same whether each step wraps or only the result."""

    __slots__ = ("n", "total")

    wrap: Any = None         # set per integral type below

    def __init__(self) -> None:
        self.n = 0
        self.total = 0

    # the value is converted before the count changes: a value that cannot convert leaves
    # the state as it was
    def enter(self, value: Any) -> None:
        if value is None:
            return
        self.total += value if type(value) is int else int(value)
        self.n += 1

    def leave(self, value: Any) -> None:
        if value is None:
            return
        if self.n <= 1:
            self.clear()
        else:
            self.total -= value if type(value) is int else int(value)
            self.n -= 1

    def value(self) -> Any:
        if not self.n:
            return None
        w = self.wrap
        return self.total if w is None else w(self.total)

    def clear(self) -> None:
        self.n = 0
        self.total = 0


def _wrapping(bits: int) -> Callable[[int], int]:
    lo, mask = -(1 << (bits - 1)), (1 << bits) - 1

    def wrap(v: int) -> int:
        return v if lo <= v <= -lo - 1 else ((v - lo) & mask) + lo
    return wrap


class IntSum32(IntSum):
    __slots__ = ()
    wrap = staticmethod(_wrapping(32))


class IntSum64(IntSum):
    __slots__ = ()
    wrap = staticmethod(_wrapping(64))


class BigIntAvg(IntSum):
    """avg over BigInteger: a BigDecimal result, as Esper's."""

    __slots__ = ()

    def value(self) -> Any:
        return Decimal(self.total) / self.n if self.n else None


# ---------------------------------------------------------------- sums of doubles

class FloatTotal:
    """Esper's running double sum: `sum += v` on enter, `sum -= v` on leave, both to 0 when
    the count would drop to 0."""

    __slots__ = ("n", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0

    def clear(self) -> None:
        self.n = 0
        self.total = 0.0

    def enter(self, value: Any) -> None:
        if value is None:
            return
        self.total += value if type(value) is float else float(value)
        self.n += 1

    def leave(self, value: Any) -> None:
        if value is None:
            return
        if self.n <= 1:
            self.n = 0
            self.total = 0.0
        else:
            self.total -= value if type(value) is float else float(value)
            self.n -= 1

    def value(self) -> Any:
        raise NotImplementedError


class FloatSum(FloatTotal):
    __slots__ = ()

    def value(self) -> Any:
        return self.total if self.n else None


class FloatAvg(FloatTotal):
    """avg of doubles, floats and of int/long/short/byte: the double sum over the count."""

    __slots__ = ()

    def value(self) -> Any:
        n = self.n
        return self.total / n if n else None


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
    elif rtype.kind is EPLType.INT:
        maker = IntSum32
    elif rtype.kind is EPLType.LONG:
        maker = IntSum64
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
    return finish(call, DOUBLE, FloatAvg)     # Esper's double sum over the count


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
