"""Compiles `output when <expr> [then set ...]` and `... and when terminated [and <expr>]
[then set ...]` into a WhenSpec (epl/plans/output.py; engine/output/when.py runs it and
documents the semantics)."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import engine.contracts.epl_types as T
import epl.ast as A
from engine.contracts.errors import EPLValidationError
from epl.ast.walk import walk
from epl.plans.output import Assignment, BuiltinValues, WhenSpec

# the built-in properties a when-expression may read (engine/output/when.py fills them)
BUILTINS = {
    "count_insert": T.INT, "count_remove": T.INT,
    "count_insert_total": T.INT, "count_remove_total": T.INT,
    "last_output_timestamp": T.LONG,
}

def compile_when(clause: A.OutputClause, scope: Any) -> WhenSpec:
    """Compile the when-expression, its then-assignments and the terminated part against the
    statement's variables and the built-in properties (no stream properties: Esper evaluates
    the condition per statement, not per event)."""
    from epl.compiler.core import compile_expr
    from epl.compiler.scope import Scope

    holder = BuiltinValues()
    wscope = Scope(streams=[], functions=scope.functions, builtins=dict(BUILTINS),
                   variables=scope.variables, epl=scope.epl, services=scope.services,
                   builtins_holder=holder)

    def boolean(e: Optional[A.Expr], what: str) -> Optional[Callable]:
        if e is None:
            return None
        c = compile_expr(e, wscope)
        if c.type.kind not in (T.BOOLEAN.kind, T.OBJECT.kind):
            raise EPLValidationError(f"The {what} expression must return a boolean value", scope.epl)
        return c.fn

    def assignments(items: Sequence[A.Assignment]) -> tuple[Assignment, ...]:
        out = []
        for a in items:
            name = _variable_name(a.target)
            if name is None or scope.variables is None or not scope.variables.has(name):
                raise EPLValidationError(
                    f"Variable by name '{_text(a.target)}' has not been created or configured", scope.epl)
            out.append((_writer(scope.variables, name, scope.epl), compile_expr(a.value, wscope).fn))
        return tuple(out)

    when = boolean(clause.when, "when-trigger") if clause.when is not None else None
    watched: list[str] = []
    if clause.when is not None and scope.variables is not None:
        for name in _names(clause.when):
            if scope.variables.has(name) and name not in watched:
                watched.append(name)
    variables = scope.variables
    subscribe = unsubscribe = None
    if watched and hasattr(variables, "subscribe"):
        subscribe = variables.subscribe
        unsubscribe = getattr(variables, "unsubscribe", None)
    return WhenSpec(
        when=when, then=assignments(clause.then_set), holder=holder, watched=tuple(watched),
        subscribe=subscribe, unsubscribe=unsubscribe, terminable=clause.when_terminated,
        terminated_and=boolean(clause.terminated_and, "and-when-terminated"),
        terminated_then=assignments(clause.terminated_then_set))


def _variable_name(e: A.Expr) -> Optional[str]:
    if isinstance(e, A.Property) and len(e.path) == 1 and e.path[0].index is None and e.path[0].key is None:
        return e.path[0].name
    return None


def _text(e: A.Expr) -> str:
    from epl.compiler.core import expr_text
    try:
        return expr_text(e)
    except TypeError:       # the printer refuses a node it has no form for
        return repr(e)


def _names(e: Any) -> list[str]:
    """Single-segment property names anywhere in an expression (compile time only)."""
    return [n.path[0].name for n in walk(e, prune=lambda n: isinstance(n, A.Property))
            if isinstance(n, A.Property)]


def _writer(variables: Any, name: str, epl: Optional[str]) -> Callable[[Any], None]:
    if hasattr(variables, "writer"):
        return variables.writer(name)
    if hasattr(variables, "set"):
        return lambda value, _v=variables, _n=name: _v.set(_n, value)
    raise EPLValidationError("Assigning variables in an output clause is not supported yet", epl)
