"""Printing patterns: Esper's pattern operator precedence, loosest first `->`, `or`, `and`,
repeat/`until`, unary `every`/`not`/`every-distinct`, guards, atoms."""
from __future__ import annotations

from typing import Any

import epl.ast as A
from ._expressions import ExprPrinter, name

P_FOLLOWED, P_OR, P_AND, P_UNTIL, P_UNARY, P_GUARD, P_ATOM = range(1, 8)


class PatternPrinter(ExprPrinter):
    # -- patterns ---------------------------------------------------------------------------

    @staticmethod
    def pattern_level(e: Any) -> int:
        if isinstance(e, A.PatternFollowedBy):
            return P_FOLLOWED
        if isinstance(e, A.PatternOr):
            return P_OR
        if isinstance(e, A.PatternAnd):
            return P_AND
        if isinstance(e, (A.PatternUntil, A.PatternRepeat)):
            return P_UNTIL
        if isinstance(e, (A.PatternEvery, A.PatternNot, A.PatternEveryDistinct)):
            return P_UNARY
        if isinstance(e, (A.PatternGuard, A.PatternWhile)):
            return P_GUARD
        return P_ATOM

    def pattern(self, e: Any, min_level: int = 0) -> str:
        if self.pattern_level(e) < min_level:
            return "(" + self.pattern(e) + ")"
        if isinstance(e, A.PatternFollowedBy):
            limits = e.limits or (None,) * (len(e.children) - 1)
            out = self.pattern(e.children[0], P_OR)
            for child, limit in zip(e.children[1:], limits):
                arrow = " -> " if limit is None else " -[" + self.expr(limit) + "]> "
                out += arrow + self.pattern(child, P_OR)
            return out
        if isinstance(e, A.PatternOr):
            return " or ".join(self.pattern(c, P_AND) for c in e.children)
        if isinstance(e, A.PatternAnd):
            return " and ".join(self.pattern(c, P_UNTIL) for c in e.children)
        if isinstance(e, A.PatternRepeat):
            return self.repeat_range(e.range) + " " + self.pattern(e.child, P_UNARY)
        if isinstance(e, A.PatternUntil):
            prefix = self.repeat_range(e.range) + " " if e.range is not None else ""
            return prefix + self.pattern(e.child, P_UNARY) + " until " + \
                self.pattern(e.until, P_UNARY)
        if isinstance(e, A.PatternEvery):
            return "every " + self.unary_child(e.child)
        if isinstance(e, A.PatternNot):
            return "not " + self.unary_child(e.child)
        if isinstance(e, A.PatternEveryDistinct):
            keys = list(e.keys) + ([e.expiry] if e.expiry is not None else [])
            return "every-distinct(" + self.args(keys) + ") " + self.unary_child(e.child)
        if isinstance(e, A.PatternGuard):
            args = self.args(e.args)
            return (self.pattern(e.child, P_ATOM) + " where " + name(e.namespace, False) + ":" +
                    name(e.name, False) + "(" + args + ")")
        if isinstance(e, A.PatternWhile):
            return self.pattern(e.child, P_ATOM) + " while (" + self.expr(e.condition) + ")"
        if isinstance(e, A.PatternFilter):
            tag = name(e.tag, False) + "=" if e.tag is not None else ""
            consume = "" if e.consume is None else f"@consume({e.consume})"
            return tag + self.event_filter(e.event_filter) + consume
        if isinstance(e, A.PatternObserver):
            obs = e.name if e.name.lower() == "at" else name(e.name, False)
            return name(e.namespace, False) + ":" + obs + "(" + self.cron(e.args) + ")"
        if isinstance(e, A.PatternParens):
            return "(" + self.pattern(e.inner) + ")"
        raise TypeError(f"cannot print {type(e).__name__} as a pattern")

    def unary_child(self, child: Any) -> str:
        # `every [2] A`: the range may follow a unary operator directly
        if isinstance(child, A.PatternRepeat) and self.pattern_level(child.child) >= P_GUARD:
            return self.repeat_range(child.range) + " " + self.pattern(child.child, P_GUARD)
        return self.pattern(child, P_GUARD)

    def repeat_range(self, r: A.RepeatRange) -> str:
        if r.exact:
            return "[" + self.expr(r.low) + "]"
        low = self.expr(r.low) if r.low is not None else ""
        high = self.expr(r.high) if r.high is not None else ""
        return "[" + low + ":" + high + "]"

    def event_filter(self, f: A.EventFilter) -> str:
        text = self.type_text(f.type_name)
        if f.filter is not None:
            # a top-level `and` chain prints as the comma list `Type(a, b)`
            items = []
            cond = f.filter
            while isinstance(cond, A.BinaryOp) and cond.op is A.BinOp.AND:
                items.append(cond.right)
                cond = cond.left
            items.append(cond)
            text += "(" + self.args(reversed(items)) + ")"
        return text
