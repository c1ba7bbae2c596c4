"""Printing `match_recognize`: the clause and its row pattern."""
from __future__ import annotations

from typing import Any, Optional

import epl.ast as A
from ._expressions import name


class RowRecogPrinter:
    """Mixin of StatementPrinter: `_s_MatchRecognize` and the row-pattern nodes."""

    def _s_MatchRecognize(self, m: A.MatchRecognize) -> str:
        parts = []
        if m.partition_by:
            parts.append("partition by " + ", ".join(self.expr(e) for e in m.partition_by))
        if m.measures:
            parts.append("measures " + ", ".join(
                self.expr(i.expr) + (" as " + name(i.alias) if i.alias is not None else "")
                for i in m.measures))
        if m.all_matches:
            parts.append("all matches")
        if m.skip is not None:
            parts.append("after match skip " + m.skip.value)
        parts.append("pattern (" + self.row_pattern(m.pattern) + ")")
        if m.interval is not None:
            parts.append("interval " + self.expr(m.interval) + (" or terminated" if m.or_terminated else ""))
        if m.defines:
            parts.append("define " + ", ".join(d.name + " as " + self.expr(d.expr) for d in m.defines))
        return "match_recognize (" + " ".join(parts) + ")"

    def row_pattern(self, p: Any, inside: Optional[type] = None) -> str:
        if isinstance(p, A.RowVar):
            return p.name + self._row_quant(p.quantifier) + self._row_quant(p.repeat)
        if isinstance(p, A.RowNested):
            return "(" + self.row_pattern(p.inner) + ")" + self._row_quant(p.quantifier) + \
                self._row_quant(p.repeat)
        if isinstance(p, A.RowPermute):
            return "match_recognize_permute(" + ", ".join(self.row_pattern(i) for i in p.items) + ")" + \
                self._row_quant(p.quantifier) + self._row_quant(p.repeat)
        if isinstance(p, A.RowConcat):
            return " ".join(self.row_pattern(i, A.RowConcat) for i in p.items)
        if isinstance(p, A.RowAlt):
            return " | ".join(self.row_pattern(i, A.RowAlt) for i in p.items)
        raise TypeError(f"cannot print {type(p).__name__}")

    @staticmethod
    def _row_quant(q: Optional[A.RowQuantifier]) -> str:
        if q is None:
            return ""
        if q.kind is A.RowQuantKind.REPEAT:
            if q.exact:
                return "{" + str(q.low) + "}"
            return "{" + ("" if q.low is None else str(q.low)) + "," + \
                ("" if q.high is None else str(q.high)) + "}"
        return q.kind.value + ("?" if q.reluctant else "")
