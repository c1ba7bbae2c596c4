"""Shared helpers of the grammar modules: source spans, literal values and syntax errors
raised from inside productions."""
from __future__ import annotations

import functools
import threading
from typing import Any, Callable, Optional

from ply.lex import LexToken

from ..ast import Literal, LiteralKind, Property, PropSeg, Span
from engine.contracts.errors import EPLSyntaxError
from ..lexer import position, string_value


class ParseState(threading.local):
    """The text being parsed; set by the parser around each parse call."""

    text: str = ""


STATE = ParseState()


def with_span(func: Callable[[Any], None]) -> Callable[[Any], None]:
    """Wrap a `p_` function so that before it runs, the production's start and end offsets are
    known (`span(p)`): from the first and last symbols that have a position. Empty productions
    have none."""

    @functools.wraps(func)
    def rule(p: Any) -> None:
        syms = p.slice
        start = end = None
        for sym in syms[1:]:
            start = _start(sym)
            if start is not None:
                break
        for sym in reversed(syms[1:]):
            end = _end(sym)
            if end is not None:
                break
        syms[0].start_ = start
        syms[0].end_ = end
        func(p)
    return rule


def _start(sym: Any) -> Optional[int]:
    if isinstance(sym, LexToken):
        return sym.lexpos
    return getattr(sym, "start_", None)


def _end(sym: Any) -> Optional[int]:
    if isinstance(sym, LexToken):
        return sym.end
    return getattr(sym, "end_", None)


def span(p: Any, first: int = 0, last: Optional[int] = None) -> Span:
    """The span of the whole production (first=0), or of symbols first..last (1-based),
    leaving out empty symbols at either end."""
    if first == 0:
        start, end = getattr(p.slice[0], "start_", None), getattr(p.slice[0], "end_", None)
    else:
        syms = p.slice[first:(first if last is None else last) + 1]
        start = next((x for x in map(_start, syms) if x is not None), None)
        end = next((x for x in map(_end, reversed(syms)) if x is not None), None)
    if start is None or end is None:
        return Span(0, 0, 0, 0)
    return span_offsets(start, end)


def span_offsets(start: int, end: int) -> Span:
    line, col = position(STATE.text, start)
    return Span(line, col, start, end)


def fail(p: Any, index: int, reason: str) -> None:
    """A syntax error found by a production (not by the LR automaton): at symbol `index`."""
    sym = p.slice[index]
    start = _start(sym)
    end = _end(sym)
    text = STATE.text
    if start is None:
        start = end = len(text)
    near = text[start:end] if end is not None else None
    line, col = position(text, start)
    raise EPLSyntaxError(f"Incorrect syntax near '{near}' at line {line} column {col}, {reason}",
                         text, line, col, near=near, expected=None)


_INT_MAX = 2 ** 31 - 1


def number(raw: str, sp: Span) -> Literal:
    """A numeric literal from its token text: `10`, `100L`, `1.5`, `1e3`, `1.5d`, `1.5f`."""
    r = raw.lower()
    if r.startswith("0x"):
        if r.endswith("l"):
            return Literal(int(r[2:-1], 16), LiteralKind.LONG, sp)
        v = int(r[2:], 16)
        return Literal(v, LiteralKind.INT if v <= _INT_MAX else LiteralKind.LONG, sp)
    if r.endswith("l"):
        return Literal(int(r[:-1]), LiteralKind.LONG, sp)
    if r.endswith("f"):
        return Literal(float(r[:-1]), LiteralKind.FLOAT, sp)
    if r.endswith("d"):
        return Literal(float(r[:-1]), LiteralKind.DOUBLE, sp)
    if "." in r or "e" in r:
        return Literal(float(r), LiteralKind.DOUBLE, sp)
    v = int(r)
    return Literal(v, LiteralKind.INT if v <= _INT_MAX else LiteralKind.LONG, sp)


def string(raw: str, sp: Span) -> Literal:
    return Literal(string_value(raw), LiteralKind.STRING, sp)


def simple_name(e: Any) -> Optional[str]:
    """The dotted name of a property path without indexes or keys (`java.lang.String`)."""
    if isinstance(e, Property) and all(s.index is None and s.key is None for s in e.path):
        return e.dotted
    return None


def prop(name: str, sp: Span, index: Optional[int] = None, key: Optional[str] = None) -> Property:
    return Property((PropSeg(name, index, key),), sp)

