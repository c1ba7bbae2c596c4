"""Compile-time operand checks of `in (...)` and `between` / `in [a:b]`, with Esper's messages."""
from __future__ import annotations

from typing import Optional, Sequence

from engine.contracts.aggregation import type_name
from engine.contracts.epl_types import NUMERIC_RANK, EPLType

from .compiled import Compiled

# Kinds whose values can be told apart at compile time; other kinds (object, map, event,
# arrays, collections) are checked per event or are containers the `in` list opens.
_STRING, _BOOLEAN = EPLType.STRING, EPLType.BOOLEAN


def _known(c: Compiled) -> bool:
    if c.is_constant and c.constant is None:
        return False                     # a null constant: never a type conflict
    k = c.type.kind
    return k in NUMERIC_RANK or k in (_STRING, _BOOLEAN)


def in_list_error(operand: Compiled, items: Sequence[Compiled]) -> Optional[str]:
    """Esper's coercion check of `x in (a, b, ...)`: the operand and every item must share a
    type family (numbers, strings, booleans); the message of the first conflict, or None."""
    if not _known(operand):
        return None     # an untyped operand: values are compared per event
    known = [operand] + [c for c in items if _known(c)]
    if len(known) < 2:
        return None
    first = known[0].type
    for c in known[1:]:
        t = c.type
        if first.kind is _STRING and t.kind is not _STRING:
            return f"Implicit conversion not allowed: Cannot coerce to String type {type_name(t)}"
        if first.kind is _BOOLEAN and t.kind is not _BOOLEAN:
            return f"Implicit conversion not allowed: Cannot coerce to Boolean type {type_name(t)}"
        if first.kind in NUMERIC_RANK and t.kind not in NUMERIC_RANK:
            return (f"Implicit conversion not allowed: Cannot coerce types {type_name(first)} "
                    f"and {type_name(t)}")
    return None


def between_error(parts: Sequence[Compiled]) -> Optional[str]:
    """Esper's check of `x between a and b` (also `x in [a:b]`): all strings, or all numeric."""
    known = [c for c in parts if _known(c)]
    if known and all(c.type.kind is _STRING for c in known):
        return None
    for c in known:
        if c.type.kind not in NUMERIC_RANK:
            return f"Implicit conversion from datatype '{type_name(c.type)}' to numeric is not allowed"
    return None


def common_type_error(items: Sequence[Compiled]) -> Optional[str]:
    """Esper's common-type check of `case` results and `coalesce` parameters (its
    getCommonCoercionType): numbers with numbers, strings with strings, booleans with
    booleans; the message of the first conflict, or None. Null constants and untyped values
    take any type."""
    known = [c for c in items if _known(c)]
    if len(known) < 2:
        return None
    return in_list_error(known[0], known[1:])


def numeric_error(c: Compiled) -> Optional[str]:
    """Esper's check of an operand that must be a number (`max(a, b)`, `min(a, b)`)."""
    if _known(c) and c.type.kind not in NUMERIC_RANK:
        return f"Implicit conversion from datatype '{type_name(c.type)}' to numeric is not allowed"
    return None


def relational_error(left: Compiled, right: Compiled) -> Optional[str]:
    """Esper's check of `<`, `<=`, `>`, `>=`: two strings, or two numbers."""
    if not (_known(left) and _known(right)):
        return None
    if left.type.kind is _STRING and right.type.kind is _STRING:
        return None
    for c in (left, right):
        if c.type.kind not in NUMERIC_RANK:
            return f"Implicit conversion from datatype '{type_name(c.type)}' to numeric is not allowed"
    return None


def regexp_error(operand: Compiled, pattern: Compiled) -> Optional[str]:
    """Esper's check of `regexp`: a string or numeric value, a string pattern."""
    if _known(pattern) and pattern.type.kind is not _STRING:
        return "The regexp operator requires a String-type pattern expression"
    if _known(operand) and operand.type.kind not in NUMERIC_RANK and operand.type.kind is not _STRING:
        return "The regexp operator requires a String or numeric type left-hand expression"
    return None


def not_error(operand: Compiled) -> Optional[str]:
    """Esper's check of `not x`: x returns a boolean."""
    if _known(operand) and operand.type.kind is not _BOOLEAN:
        return "Incorrect use of NOT clause, sub-expressions do not return boolean"
    return None
