"""The expression compiler's dispatch core: compilers registered by AST node class
(`@compiles(NodeType)`), `compile_expr`, and the helpers every compiler module shares.
Compiler modules import this module; it imports none of them (they register themselves when
epl.compiler.expressions or the statement compiler loads them)."""
from __future__ import annotations

from typing import Any, Callable

import engine.contracts.epl_types as T
from engine.contracts.epl_types import PropertyType

import epl.ast as A
from epl.compiler.compiled import Compiled, constant
from epl.compiler.scope import Scope

_COMPILERS: dict[type, Callable[[Any, Scope], Compiled]] = {}


def compiles(node_type: type):
    def register(fn):
        _COMPILERS[node_type] = fn
        return fn
    return register


def compile_expr(node: A.Expr, scope: Scope) -> Compiled:
    """Compile an expression node; constant sub-trees are folded."""
    if scope.null_texts and not isinstance(node, A.Literal) and expr_text(node) in scope.null_texts:
        return constant(None, T.OBJECT)   # a group-by expression this rollup level leaves out
    fn = _COMPILERS.get(type(node))
    if fn is None:
        raise scope.fail(f"Expression of kind '{type(node).__name__}' is not supported here")
    return fn(node, scope)


def _fold(fn: Callable, type_: PropertyType, parts: list[Compiled]) -> Compiled:
    """Evaluate at compile time when every part is constant."""
    if parts and all(p.is_constant for p in parts):
        return constant(fn(()), type_)
    return Compiled(fn, type_, has_aggregation=any(p.has_aggregation for p in parts))


def expr_text(node: A.Expr) -> str:
    from epl.printer import expr_text as _text  # the printer's column-name form
    return _text(node)


def _str(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
