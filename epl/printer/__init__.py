"""The EPL printer: AST -> EPL text (`to_epl`), and `expr_text`, the compact form Esper
uses to name unaliased select columns (`sum(price)`, `price*volume`).

Parentheses: the tree keeps the ones written in the source (Parens, PatternParens); the
printer adds only those the operator precedence requires, so parsing the printed text gives
the same tree back.

May import: epl.ast only."""
from __future__ import annotations

from typing import Any

import epl.ast as A
from ._statements import StatementPrinter

__all__ = ["to_epl", "expr_text"]


def to_epl(node: Any) -> str:
    """EPL text for a statement, module, expression, pattern or clause node."""
    return StatementPrinter(compact=False).node(node)


def expr_text(expr: A.Expr) -> str:
    """The column name Esper gives an unaliased select expression."""
    return StatementPrinter(compact=True).expr(expr)
