"""Exact arithmetic on floats for running aggregates that go up and down.

A finite float is num / 2**k with integers num and k >= 0, so a running sum of floats can be
held exactly as one integer over a power of two. Values then enter and leave without any
rounding drift: when the last value leaves the sum is exactly 0, and every result is rounded
once, when it is read (Python's int / int is correctly rounded).
"""
from __future__ import annotations

import math
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context

# Decimal additions under this context never round (libmpdec sizes results by their digits).
EXACT_DECIMAL = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)


def split(x: float) -> tuple[int, int]:
    """(num, k) with x == num / 2**k exactly; x must be finite."""
    num, den = x.as_integer_ratio()
    return num, den.bit_length() - 1


def to_float(num: int, den: int) -> float:
    """num / den correctly rounded, infinite when too large for a float (as Java's double)."""
    try:
        return num / den
    except OverflowError:
        return math.inf if (num > 0) == (den > 0) else -math.inf


def sqrt_ratio(num: int, den: int) -> float:
    """sqrt(num / den) for num >= 0, den > 0, to within one unit in the last place."""
    if num == 0:
        return 0.0
    # Scale so the integer root carries ~64 significant bits, then round once.
    shift = max(0, 130 - (num.bit_length() - den.bit_length()))
    shift += shift & 1
    root = math.isqrt((num << shift) // den)
    return to_float(root, 1 << (shift // 2))


def java_divide(a: float, b: float) -> float:
    """a / b with Java double semantics: division by zero gives infinity or NaN."""
    if b == 0:
        if a == 0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b
