"""Equality lookups into a named window or table: the `target.col = <expression of the other
streams>` conjuncts of a where-clause that cover the target's primary key or one of its
`create index` indexes, so that rows are found by key instead of by scanning."""
from __future__ import annotations

from typing import Any, Callable, Optional

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from .expressions import compile_expr
from .scope import Scope


def key_lookup(conjuncts: list, target: Any, scope: Scope, index: int) -> tuple[tuple, tuple]:
    """`(columns, value fns)` for the first of the target's primary key and indexes whose
    columns are all bound by equality to expressions not reading stream `index` (the
    target's); `((), ())` when none is."""
    candidates = [tuple(getattr(target, "primary_keys", ()))]
    if hasattr(target, "index_columns"):
        candidates += target.index_columns()
    candidates = [c for c in candidates if c]
    if not candidates:
        return (), ()
    found = equalities(conjuncts, scope, index)
    for keys in candidates:
        if set(keys) <= set(found):
            return tuple(keys), tuple(found[k] for k in keys)
    return (), ()


def equalities(conjuncts: list, scope: Scope, index: int) -> dict[str, Callable]:
    """`{column: value fn}` for each `target.col = <expression not reading stream index>`
    (the first one per column)."""
    found: dict[str, Callable] = {}
    for conj in conjuncts:
        while isinstance(conj, A.Parens):
            conj = conj.inner
        if not (isinstance(conj, A.BinaryOp) and conj.op is A.BinOp.EQ):
            continue
        for col_side, val_side in ((conj.left, conj.right), (conj.right, conj.left)):
            col = _column(col_side, scope, index)
            if col is not None and col not in found and not _reads(val_side, scope, index):
                found[col] = compile_expr(val_side, scope).fn
                break
    return found


def _column(e: A.Expr, scope: Scope, index: int) -> Optional[str]:
    while isinstance(e, A.Parens):
        e = e.inner
    if not isinstance(e, A.Property):
        return None
    try:
        r = scope.resolve(e)
    except EPLValidationError:
        return None
    return r.path if r.kind == "stream" and r.index == index else None


def _reads(e: Any, scope: Scope, index: int) -> bool:
    """Whether the expression may read stream `index` (or anything unresolvable, or a
    subquery, or an aggregation)."""
    from ..ast.walk import walk
    for n in walk(e, prune=lambda n: isinstance(n, A.Property)):
        if isinstance(n, A.Subquery):
            return True
        if isinstance(n, A.Property):
            try:
                r = scope.resolve(n)
            except EPLValidationError:
                return True
            if r.kind == "stream" and r.index == index:
                return True
    return False
