"""Esper's operator semantics on Python values: SQL three-valued logic, null propagation,
Java-style division and modulo, string matching with LIKE and regexp."""
from __future__ import annotations

import math
import re
from decimal import Decimal
from functools import lru_cache
from typing import Any, Optional


def divide(a: Any, b: Any) -> Any:
    """Esper divides as doubles (its default, `expression.integer_division` off): x/0 is
    +-Infinity (the signs of x and of the zero, as Java's doubles) and 0/0 is NaN (also the
    default, `division_by_zero_is_null` off). BigDecimal by zero is null: Java's BigDecimal
    has no infinity."""
    try:
        return a / b
    except ZeroDivisionError:
        if isinstance(a, Decimal) or isinstance(b, Decimal):
            return None
        if a != a or a == 0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    except ArithmeticError:             # Decimal 0/0 (InvalidOperation) and overflow
        return None


def int_divide(a: int, b: int) -> Optional[int]:
    """Java integer division truncates toward zero; division by zero yields null."""
    if b == 0:
        return None
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def modulo(a: Any, b: Any) -> Any:
    """Java's remainder takes the dividend's sign; by zero: null for integers, NaN for doubles."""
    if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool):
        if b == 0:
            return None
        r = abs(a) % abs(b)
        return r if a >= 0 else -r
    if isinstance(a, Decimal) or isinstance(b, Decimal):
        try:
            return Decimal(a) % Decimal(b)     # the dividend's sign, as BigDecimal.remainder
        except ArithmeticError:
            return None
    try:
        return math.fmod(a, b)
    except (ZeroDivisionError, ValueError):
        return math.nan


def compare(op: str, a: Any, b: Any) -> Optional[bool]:
    if a is None or b is None:
        return None
    try:
        if op == "<":
            return a < b
        if op == "<=":
            return a <= b
        if op == ">":
            return a > b
        return a >= b
    except TypeError:
        return None


def equals(a: Any, b: Any) -> Optional[bool]:
    if a is None or b is None:
        return None
    return a == b


def is_equal(a: Any, b: Any) -> bool:
    """`is`: equality where null equals null."""
    if a is None or b is None:
        return a is None and b is None
    return a == b


@lru_cache(maxsize=512)
def like_regex(pattern: str, escape: Optional[str] = None) -> re.Pattern:
    """SQL LIKE to a regular expression: % any run, _ one character, escape char optional."""
    out = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if escape is not None and ch == escape and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        if ch == "%":
            out.append(".*")
        elif ch == "_":
            out.append(".")
        else:
            out.append(re.escape(ch))
        i += 1
    return re.compile("".join(out), re.DOTALL)


def like(value: Any, pattern: Any, escape: Optional[str] = None) -> Optional[bool]:
    if value is None or pattern is None:
        return None
    return like_regex(pattern, escape).fullmatch(str(value)) is not None


@lru_cache(maxsize=512)
def _regex(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def regexp(value: Any, pattern: Any) -> Optional[bool]:
    """Java's String.matches: the whole value must match."""
    if value is None or pattern is None:
        return None
    return _regex(pattern).fullmatch(str(value)) is not None


def and3(values) -> Optional[bool]:
    unknown = False
    for v in values:
        if v is None:
            unknown = True
        elif not v:
            return False
    return None if unknown else True


def or3(values) -> Optional[bool]:
    unknown = False
    for v in values:
        if v is None:
            unknown = True
        elif v:
            return True
    return None if unknown else False


def not3(v: Any) -> Optional[bool]:
    return None if v is None else not v
