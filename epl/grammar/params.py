"""Grammar of substitution parameters: `?`, `?:name` and `?:name:type` as expressions."""
from __future__ import annotations

from ..ast import Substitution
from ..lexer import tokens  # noqa: F401
from ._support import span


def p_primary_substitution(p):
    """primary : QUESTION
               | SUBSTITUTION"""
    if p[1] == "?":
        p[0] = Substitution(None, None, span(p))
        return
    p[0] = _named(p[1], span(p))


def p_time_part_substitution(p):
    """time_part : QUESTION time_unit
                 | SUBSTITUTION time_unit"""
    # `#time(? sec)`, `?:n min`: Esper allows a parameter as a time period's amount
    if p[1] == "?":
        amount = Substitution(None, None, span(p, 1))
    else:
        amount = _named(p[1], span(p, 1))
    p[0] = (amount, p[2])


def _named(token: str, where) -> Substitution:
    """`?:name`, `?:name:type`, or `?::type` (positional with a type, as Esper writes it)."""
    parts = token[2:].split(":", 1)
    return Substitution(parts[0] or None, parts[1] if len(parts) > 1 else None, where)
