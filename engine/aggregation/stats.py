"""median, stddev and avedev: always double results, nulls ignored, values taken as doubles.

- median keeps a SortedList: enter/leave O(log n) in any order, value O(log n).
- stddev is the sample standard deviation (n - 1), None below two values. It keeps the exact
  sums of x and x*x (exact.py), so the result is right to the last bits whatever entered and
  left before: O(1) per enter/leave and per value (on integers of a few hundred bits).
- avedev is the mean absolute deviation from the mean. It keeps each distinct value with its
  count and the exact sum; value() costs O(distinct values present), computed exactly.
A NaN or infinite value present makes stddev and avedev NaN (as Esper's double arithmetic).
"""
from __future__ import annotations

import math
from typing import Any, Callable

from sortedcontainers import SortedList

from engine.contracts.epl_types import DOUBLE

from engine.contracts.aggregation import AggCall, AggregationFactory
from .checks import expect_args, finish, numeric_arg
from .exact import sqrt_ratio, to_float


def _double(value: Any) -> float:
    return value if type(value) is float else float(value)


class Median:
    """The middle present value, or the mean of the two middle ones; NaN sorts last."""

    __slots__ = ("values", "nan")

    def __init__(self) -> None:
        self.values = SortedList()
        self.nan = 0

    def enter(self, value: Any) -> None:
        if value is None:
            return
        x = _double(value)
        if x != x:
            self.nan += 1
        else:
            self.values.add(x)

    def leave(self, value: Any) -> None:
        if value is None:
            return
        x = _double(value)
        if x != x:
            self.nan = max(0, self.nan - 1)
        else:
            self.values.remove(x)

    def _at(self, i: int) -> float:
        return self.values[i] if i < len(self.values) else math.nan

    def value(self) -> Any:
        n = len(self.values) + self.nan
        if n == 0:
            return None
        middle = n >> 1
        if n & 1:
            return self._at(middle)
        return (self._at(middle - 1) + self._at(middle)) / 2

    def clear(self) -> None:
        self.values.clear()
        self.nan = 0


class _Scaled:
    """Present values as exact integers v = x * 2**k; k only grows until the group empties."""

    __slots__ = ("n", "k", "s1", "bad")

    def __init__(self) -> None:
        self.n = 0
        self.k = 0
        self.s1 = 0
        self.bad = 0        # non-finite values present

    def clear(self) -> None:
        self.n = 0
        self.k = 0
        self.s1 = 0
        self.bad = 0

    def _rescale(self, k: int) -> None:
        d = k - self.k
        self.s1 <<= d
        self.k = k

    def _scaled(self, x: float) -> int | None:
        """x as an integer at the current scale (rescaling if needed); None if not finite."""
        if x - x != 0.0:
            return None
        num, den = x.as_integer_ratio()
        k = den.bit_length() - 1
        if k > self.k:
            self._rescale(k)
        return num << (self.k - k)


class Stddev(_Scaled):
    __slots__ = ("s2",)

    def __init__(self) -> None:
        super().__init__()
        self.s2 = 0

    def clear(self) -> None:
        super().clear()
        self.s2 = 0

    def _rescale(self, k: int) -> None:
        self.s2 <<= 2 * (k - self.k)
        super()._rescale(k)

    def enter(self, value: Any) -> None:
        if value is None:
            return
        self.n += 1
        v = self._scaled(_double(value))
        if v is None:
            self.bad += 1
        else:
            self.s1 += v
            self.s2 += v * v

    def leave(self, value: Any) -> None:
        if value is None:
            return
        self.n -= 1
        if self.n <= 0:
            self.clear()
            return
        v = self._scaled(_double(value))
        if v is None:
            self.bad -= 1
        else:
            self.s1 -= v
            self.s2 -= v * v

    def value(self) -> Any:
        n = self.n
        if n < 2:
            return None
        if self.bad:
            return math.nan
        # variance = (n*S2 - S1^2) / (n (n-1)), both sums scaled by 2**k and 2**2k
        return sqrt_ratio(n * self.s2 - self.s1 * self.s1, (n * (n - 1)) << (2 * self.k))


class Avedev(_Scaled):
    """counts maps each distinct present value to [count, scaled value, scale of that value]."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[float, list[int]] = {}

    def clear(self) -> None:
        super().clear()
        self.counts = {}

    def enter(self, value: Any) -> None:
        if value is None:
            return
        x = _double(value)
        self.n += 1
        v = self._scaled(x)
        if v is None:
            self.bad += 1
            return
        self.s1 += v
        entry = self.counts.get(x)
        if entry is None:
            self.counts[x] = [1, v, self.k]
        else:
            entry[0] += 1

    def leave(self, value: Any) -> None:
        if value is None:
            return
        self.n -= 1
        if self.n <= 0:
            self.clear()
            return
        x = _double(value)
        v = self._scaled(x)
        if v is None:
            self.bad -= 1
            return
        self.s1 -= v
        entry = self.counts.get(x)
        if entry is not None:
            if entry[0] <= 1:
                del self.counts[x]
            else:
                entry[0] -= 1

    def value(self) -> Any:
        n = self.n
        if n == 0:
            return None
        if self.bad:
            return math.nan
        # sum |x - mean| / n  ==  sum |n*v - S1| / (n^2 * 2**k), v = x * 2**k
        k, s1 = self.k, self.s1
        total = 0
        for entry in self.counts.values():
            c, v, kv = entry
            if kv != k:                 # scaled before the scale last grew
                v <<= k - kv
                entry[1] = v
                entry[2] = k
            total += c * abs(n * v - s1)
        return to_float(total, (n * n) << k)


def _stat(maker: Callable[[], Any]) -> Callable[[AggCall], AggregationFactory]:
    def build(call: AggCall) -> AggregationFactory:
        expect_args(call, 1, 1)
        numeric_arg(call)
        return finish(call, DOUBLE, maker)
    return build


BUILDERS: dict[str, Callable[[AggCall], AggregationFactory]] = {
    "median": _stat(Median),
    "stddev": _stat(Stddev),
    "avedev": _stat(Avedev),
}
