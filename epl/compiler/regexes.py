"""Bounded pattern matching for `regexp` and `like`: no pattern and no value can stall the engine.

`regexp` is Java's `String.matches` (the whole value must match), with Java's defaults: `\\d`,
`\\w`, `\\s` and `(?i)` are ASCII-only, `.` does not match a line terminator. Patterns run on
RE2 (google-re2), which matches in time linear in the value whatever the pattern. The few
Java constructs RE2 lacks (back-references, lookaround, possessive quantifiers, atomic groups)
run on the `regex` package under a time bound of REGEX_TIMEOUT seconds per match; a match past
the bound raises PatternTimeout, which fails that statement for that event alone (a filter
does not match it; elsewhere the engine's statement isolation skips it), reported through a
signal and a log line.

Measured (2 cores, Python 3.11; see the commit message): `(a+)+b` on 5,000 `a`s and a `c`:
RE2 8 ms; `regex` with a 0.1 s timeout 0.36 s (its timeouts overshoot 2-4x); Python's `re`
takes 0.5 s already at 22 `a`s and doubles per `a`. A typical `[A-Z]{3}-\\d+` match costs
~10 us on RE2 or `regex` with a timeout, ~1 us on `re`.

`like` never uses a regular expression engine: `%` and `_` patterns are matched by a linear
scan (each `%`-separated segment found leftmost, in order), O(len(value) * len(pattern)) at
worst and usually a few `str.find` calls."""
from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any, Callable, Optional

from engine.contracts.errors import EvaluationTimeout

log = logging.getLogger("epl.regex")

REGEX_TIMEOUT = 0.1      # seconds a back-tracking (fallback) match may take


@lru_cache(maxsize=None)
def load_engines() -> tuple[Any, Any, Any]:
    """(re2, regex, RE2 options): imported on first need (about 8 ms at start-up, which most
    statements never use). The compiler calls it when it compiles a `regexp`, so that no
    event pays for the import, a first event inside a listener included."""
    import re2
    import regex
    options = re2.Options()
    options.log_errors = False     # an unsupported construct falls back, silently
    options.never_capture = True   # only match / no match is needed
    return re2, regex, options


class PatternError(ValueError):
    """A pattern neither engine accepts (the message says why)."""


PatternTimeout = EvaluationTimeout


@lru_cache(maxsize=1024)
def regex_matcher(pattern: str) -> Callable[[str], bool]:
    """`fn(value) -> bool`: whether the whole value matches; raises PatternError for a bad
    pattern, and the matcher raises PatternTimeout past the bound."""
    re2, regex, options = load_engines()
    try:
        rx = re2.compile(pattern, options)
    except re2.error:
        pass
    else:
        full = rx.fullmatch
        return lambda s: full(s) is not None
    try:
        bt = regex.compile(pattern, regex.ASCII | regex.VERSION0)
    except (regex.error, ValueError, TypeError, OverflowError) as exc:
        raise PatternError(f"Failed to compile regex pattern '{pattern}': {exc}") from None
    full_bt = bt.fullmatch

    def backtracking(s: str) -> bool:
        try:
            return full_bt(s, timeout=REGEX_TIMEOUT) is not None
        except TimeoutError:
            log.warning("regexp '%s' gave up after %.2f s on a value of %d characters",
                        pattern, REGEX_TIMEOUT, len(s))
            raise PatternTimeout(f"Regular expression '{pattern}' exceeded its time bound "
                                 f"of {REGEX_TIMEOUT} s") from None
    return backtracking


def regexp(value: Any, pattern: Any) -> Optional[bool]:
    """`value regexp pattern` for values known only per event: null for a null operand or a
    pattern that does not compile."""
    if value is None or pattern is None:
        return None
    try:
        m = regex_matcher(pattern if isinstance(pattern, str) else str(pattern))
    except PatternError:
        return None
    return m(value if isinstance(value, str) else _text(value))


# -- like ----------------------------------------------------------------------------------

_ANY = object()     # `_`: any one character


@lru_cache(maxsize=1024)
def like_matcher(pattern: str, escape: Optional[str] = None) -> Callable[[str], bool]:
    """`fn(value) -> bool` for SQL LIKE: `%` any run, `_` one character, `escape` makes the
    next character literal."""
    segments: list[list[Any]] = [[]]
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if escape and ch == escape and i + 1 < n:
            segments[-1].append(pattern[i + 1])
            i += 2
            continue
        if ch == "%":
            segments.append([])
        elif ch == "_":
            segments[-1].append(_ANY)
        else:
            segments[-1].append(ch)
        i += 1
    segs = [_Segment(s) for s in segments]
    if len(segs) == 1:
        only = segs[0]
        return lambda s: len(s) == only.size and only.at(s, 0)
    head, middle, tail = segs[0], segs[1:-1], segs[-1]

    def match(s: str) -> bool:
        end = len(s) - tail.size
        if end < head.size or not head.at(s, 0) or not tail.at(s, end):
            return False
        pos = head.size
        for seg in middle:      # leftmost placement of each segment is always best
            pos = seg.find(s, pos, end)
            if pos < 0:
                return False
            pos += seg.size
        return True
    return match


class _Segment:
    """A `%`-free run of a LIKE pattern: literal characters and `_` wildcards."""

    __slots__ = ("items", "size", "text", "anchor", "anchor_at")

    def __init__(self, items: list[Any]) -> None:
        self.items = tuple(items)
        self.size = len(items)
        plain = all(c is not _ANY for c in items)
        self.text = "".join(items) if plain else None
        # the longest literal run guides `find` when wildcards are present
        best, start, run = (0, 0), 0, 0
        for k, c in enumerate(items):
            if c is _ANY:
                run = 0
                start = k + 1
            else:
                run += 1
                if run > best[1]:
                    best = (start, run)
        self.anchor_at = best[0]
        self.anchor = "".join(items[best[0]:best[0] + best[1]])

    def at(self, s: str, pos: int) -> bool:
        if self.text is not None:
            return s.startswith(self.text, pos)
        if pos + self.size > len(s):
            return False
        for k, c in enumerate(self.items):
            if c is not _ANY and s[pos + k] != c:
                return False
        return True

    def find(self, s: str, start: int, end: int) -> int:
        """The leftmost position >= start where the segment fits before `end`, or -1."""
        if self.text is not None:
            return s.find(self.text, start, end)
        last = end - self.size
        if not self.anchor:
            return start if start <= last else -1
        k = start
        while k <= last:
            j = s.find(self.anchor, k + self.anchor_at, last + self.anchor_at + len(self.anchor))
            if j < 0:
                return -1
            k = j - self.anchor_at
            if self.at(s, k):
                return k
            k += 1
        return -1


def like(value: Any, pattern: Any, escape: Optional[str] = None) -> Optional[bool]:
    if value is None or pattern is None:
        return None
    return like_matcher(str(pattern), escape)(value if isinstance(value, str) else _text(value))


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
