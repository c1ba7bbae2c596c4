"""Brute-force models of the aggregation functions: recompute from the present values, exactly
(fractions and high-precision decimals), for the property tests to compare against."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Context
from fractions import Fraction
from typing import Any, Optional

_SQRT = Context(prec=60, Emin=-10**6, Emax=10**6)


@dataclass
class State:
    """What an aggregator has seen since its last clear()."""

    present: list = field(default_factory=list)     # entry order
    entered: list = field(default_factory=list)
    left: list = field(default_factory=list)
    history: list = field(default_factory=list)     # (+1 | -1, value) in the order they came


class Bean:
    """A stand-in for EventBean: identity matters, equality is identity."""

    __slots__ = ("key", "n")

    def __init__(self, key: Any, n: int) -> None:
        self.key = key
        self.n = n

    def __repr__(self) -> str:
        return f"Bean({self.key!r}#{self.n})"


def nonnull(values: list) -> list:
    return [v for v in values if v is not None]


def exact_sum(values: list) -> Fraction:
    return sum((Fraction(v) for v in values), Fraction(0))


def sqrt_fraction(q: Fraction) -> float:
    return float((_SQRT.divide(q.numerator, q.denominator)).sqrt(_SQRT))


# ---------------------------------------------------------------- value models

def m_count_all(s: State) -> int:
    return len(s.present)


def m_count(s: State) -> int:
    return len(nonnull(s.present))


def m_count_distinct(s: State) -> int:
    return len(set(nonnull(s.present)))


def _wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def m_sum_int32(s: State) -> Optional[int]:
    """Java's int sum: wraps in two's complement."""
    vs = nonnull(s.present)
    return _wrap(sum(vs), 32) if vs else None


def m_sum_int64(s: State) -> Optional[int]:
    vs = nonnull(s.present)
    return _wrap(sum(vs), 64) if vs else None


def _esper_running(history: list) -> tuple[int, float]:
    """Esper's AggregatorSum over doubles: count and IEEE running sum, both reset to 0 when a
    leave takes the count to 0."""
    n, total = 0, 0.0
    for sign, v in history:
        if v is None:
            continue
        if sign > 0:
            n += 1
            total += float(v)
        elif n <= 1:
            n, total = 0, 0.0
        else:
            n -= 1
            total -= float(v)
    return n, total


def _distinct_history(history: list) -> list:
    """What a distinct aggregate passes on: a value's first entry and its last leave."""
    counts: dict = {}
    out = []
    for sign, v in history:
        if v is None:
            continue
        c = counts.get(v, 0)
        if sign > 0:
            if c == 0:
                out.append((1, v))
            counts[v] = c + 1
        else:
            if c == 1:
                out.append((-1, v))
            counts[v] = c - 1
    return out


def m_sum_float(s: State) -> Optional[float]:
    n, total = _esper_running(s.history)
    return total if n else None


def m_sum_float_distinct(s: State) -> Optional[float]:
    n, total = _esper_running(_distinct_history(s.history))
    return total if n else None


def m_avg(s: State) -> Optional[float]:
    n, total = _esper_running(s.history)
    return total / n if n else None


def m_avg_distinct(s: State) -> Optional[float]:
    n, total = _esper_running(_distinct_history(s.history))
    return total / n if n else None


def m_min(s: State) -> Any:
    vs = nonnull(s.present)
    return min(vs) if vs else None


def m_min_double(s: State) -> Any:
    vs = [float(v) for v in nonnull(s.present)]
    return min(vs) if vs else None


def m_max_double(s: State) -> Any:
    vs = [float(v) for v in nonnull(s.present)]
    return max(vs) if vs else None


def m_max(s: State) -> Any:
    vs = nonnull(s.present)
    return max(vs) if vs else None


def m_median(s: State) -> Optional[float]:
    vs = sorted(float(v) for v in nonnull(s.present))
    n = len(vs)
    if n == 0:
        return None
    if n % 2:
        return vs[n // 2]
    return (vs[n // 2 - 1] + vs[n // 2]) / 2


def m_stddev(s: State) -> Optional[float]:
    vs = [Fraction(float(v)) for v in nonnull(s.present)]
    n = len(vs)
    if n < 2:
        return None
    mean = sum(vs, Fraction(0)) / n
    return sqrt_fraction(sum(((v - mean) ** 2 for v in vs), Fraction(0)) / (n - 1))


def m_avedev(s: State) -> Optional[float]:
    vs = [Fraction(float(v)) for v in nonnull(s.present)]
    n = len(vs)
    if n == 0:
        return None
    mean = sum(vs, Fraction(0)) / n
    return float(sum((abs(v - mean) for v in vs), Fraction(0)) / n)


def m_nth(index: int):
    def model(s: State) -> Any:
        vs = nonnull(s.present)
        return vs[-1 - index] if len(vs) > index else None
    return model


def m_countever_all(s: State) -> int:
    return len(s.entered)


def m_countever(s: State) -> int:
    return len(nonnull(s.entered))


def m_firstever(s: State) -> Any:
    vs = nonnull(s.entered)
    return vs[0] if vs else None


def m_lastever(s: State) -> Any:
    vs = nonnull(s.entered)
    return vs[-1] if vs else None


def m_leaving(s: State) -> bool:
    return bool(s.left)


# ---------------------------------------------------------------- event models (rows are (key, bean))

def _rank(k: Any) -> tuple:
    if k is None:
        return (0, 0)
    if k != k:
        return (2, 0)
    return (1, k)


def m_first(index: int = 0):
    def model(s: State) -> Any:
        return s.present[index][0] if len(s.present) > index else None
    return model


def m_last(index: int = 0):
    def model(s: State) -> Any:
        return s.present[-1 - index][0] if len(s.present) > index else None
    return model


def m_window(s: State) -> Any:
    return [r[0] for r in s.present] or None


def m_maxby(s: State) -> Any:
    best = None
    for r in s.present:
        if best is None or _rank(r[0]) > _rank(best[0]):
            best = r
    return best[1] if best else None


def m_minby(s: State) -> Any:
    best = None
    for r in s.present:
        if best is None or _rank(r[0]) < _rank(best[0]):
            best = r
    return best[1] if best else None


def m_sorted(desc: bool):
    def model(s: State) -> Any:
        rows = sorted(s.present, key=lambda r: _rank(r[0]), reverse=desc)   # stable
        return [r[1] for r in rows] or None
    return model


def same(got: Any, want: Any, rel: float = 0.0) -> bool:
    """Equal results: floats exactly (or within rel), NaN equal to NaN, lists elementwise,
    beans by identity; an int result must be an int."""
    if want is None or got is None:
        return got is None and want is None
    if isinstance(want, Bean):
        return got is want
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(
            same(g, w, rel) for g, w in zip(got, want))
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if isinstance(want, float):
        if not isinstance(got, float):
            return False
        if math.isnan(want):
            return math.isnan(got)
        # with a tolerance, subnormal results (stddev of 5e-324) may round either way
        return got == want or (rel > 0 and math.isclose(got, want, rel_tol=rel, abs_tol=1e-300))
    if isinstance(want, int) and isinstance(got, float):
        return False
    return got == want
