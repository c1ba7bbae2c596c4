"""`output when <expr> [then set v = e, ...]` and `... and when terminated [and <expr>] [then set ...]`.

The expression is evaluated after every update, and again whenever a variable it reads
changes (from outside the condition's own `then set`). It may read the built-in properties
`count_insert`, `count_remove` (events since the last output), `count_insert_total`,
`count_remove_total` (since the start) and `last_output_timestamp`. When it is true the
assignments run and output happens, with a listener call even if there is nothing to deliver.
A variable change that makes it true outputs at once through a schedule at the current time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import engine.contracts.epl_types as T
import epl.ast as A
from epl.ast.walk import walk
from engine.contracts.errors import EPLValidationError

from .base import Fire, OutputCondition

BUILTINS = {
    "count_insert": T.INT, "count_remove": T.INT,
    "count_insert_total": T.INT, "count_remove_total": T.INT,
    "last_output_timestamp": T.LONG,
}

Assignment = tuple[Callable[[Any], None], Callable[[Sequence[Any]], Any]]   # (write, value)


class BuiltinValues:
    """What compiled expressions read for the built-in names (the scope's builtins holder)."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}


@dataclass(frozen=True)
class WhenSpec:
    """Compiled once per statement; `holder` is shared by the compiled expressions, so each
    condition instance fills it right before evaluating."""

    when: Optional[Callable[[Sequence[Any]], Any]]
    then: tuple[Assignment, ...]
    holder: BuiltinValues
    watched: tuple[str, ...] = ()            # variables whose change re-evaluates `when`
    variables: Any = None
    terminable: bool = False
    terminated_and: Optional[Callable[[Sequence[Any]], Any]] = None
    terminated_then: tuple[Assignment, ...] = ()

    def make(self, ctx: Any, fire: Fire) -> OutputCondition:
        return WhenCondition(self, ctx, fire)


class WhenCondition:
    __slots__ = ("spec", "ctx", "fire", "count_insert", "count_remove", "total_insert",
                 "total_remove", "last_output", "handle", "in_then", "subscriptions")

    def __init__(self, spec: WhenSpec, ctx: Any, fire: Fire) -> None:
        self.spec = spec
        self.ctx = ctx
        self.fire = fire
        self.count_insert = self.count_remove = 0
        self.total_insert = self.total_remove = 0
        self.last_output = ctx.now()
        self.handle: Any = None
        self.in_then = False
        self.subscriptions = [_subscribe(spec.variables, name, self._variable_changed)
                              for name in spec.watched]

    def _fill(self) -> None:
        self.spec.holder.values = {
            "count_insert": self.count_insert, "count_remove": self.count_remove,
            "count_insert_total": self.total_insert, "count_remove_total": self.total_remove,
            "last_output_timestamp": self.last_output,
        }

    def _evaluate(self, fn: Optional[Callable]) -> bool:
        if fn is None:
            return False
        self._fill()
        return fn(()) is True

    def _assign(self, assignments: tuple[Assignment, ...]) -> None:
        if not assignments:
            return
        self.in_then = True
        try:
            for write, value in assignments:
                self._fill()
                write(value(()))
        finally:
            self.in_then = False

    def _reset(self) -> None:
        self.count_insert = self.count_remove = 0
        self.last_output = self.ctx.now()

    def update(self, new_count: int, old_count: int) -> None:
        self.count_insert += new_count
        self.count_remove += old_count
        self.total_insert += new_count
        self.total_remove += old_count
        if self._evaluate(self.spec.when):
            self._assign(self.spec.then)
            self.fire(True, True)
            self._reset()

    def _variable_changed(self, *args: Any) -> None:
        if self.in_then or self.handle is not None:
            return
        if self._evaluate(self.spec.when):
            self.handle = self.ctx.schedule(self.ctx.now(), self._due)
            self._assign(self.spec.then)

    def _due(self) -> None:
        self.handle = None
        self.fire(True, True)
        self._reset()

    def terminated(self) -> None:
        output = True
        if self.spec.terminated_and is not None:
            output = self._evaluate(self.spec.terminated_and)
        self._assign(self.spec.terminated_then)
        if output:
            self.fire(True, True)

    def stop(self) -> None:
        if self.handle is not None:
            self.ctx.cancel(self.handle)
            self.handle = None
        for sub in self.subscriptions:
            _unsubscribe(self.spec.variables, sub)
        self.subscriptions = []


# -- compiling -------------------------------------------------------------------------------

def compile_when(clause: A.OutputClause, scope: Any) -> WhenSpec:
    """Compile the when-expression, its then-assignments and the terminated part against the
    statement's variables and the built-in properties (no stream properties: Esper evaluates
    the condition per statement, not per event)."""
    from epl.compiler.expressions import compile_expr
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
    return WhenSpec(
        when=when, then=assignments(clause.then_set), holder=holder, watched=tuple(watched),
        variables=scope.variables, terminable=clause.when_terminated,
        terminated_and=boolean(clause.terminated_and, "and-when-terminated"),
        terminated_then=assignments(clause.terminated_then_set))


def _variable_name(e: A.Expr) -> Optional[str]:
    if isinstance(e, A.Property) and len(e.path) == 1 and e.path[0].index is None and e.path[0].key is None:
        return e.path[0].name
    return None


def _text(e: A.Expr) -> str:
    try:
        from epl.compiler.expressions import expr_text
        return expr_text(e)
    except Exception:
        return repr(e)


def _names(e: Any) -> list[str]:
    """Single-segment property names anywhere in an expression (compile time only)."""
    return [n.path[0].name for n in walk(e, prune=lambda n: isinstance(n, A.Property))
            if isinstance(n, A.Property)]


# The variable service belongs to another part of the engine; these adapters name the few
# operations the condition needs and fail with a clear message when they are missing.

def _writer(variables: Any, name: str, epl: Optional[str]) -> Callable[[Any], None]:
    if hasattr(variables, "writer"):
        return variables.writer(name)
    if hasattr(variables, "set"):
        return lambda value, _v=variables, _n=name: _v.set(_n, value)
    raise EPLValidationError("Assigning variables in an output clause is not supported yet", epl)


def _subscribe(variables: Any, name: str, callback: Callable[..., None]) -> Any:
    if variables is not None and hasattr(variables, "subscribe"):
        return variables.subscribe(name, callback)
    return None


def _unsubscribe(variables: Any, handle: Any) -> None:
    if handle is not None and variables is not None and hasattr(variables, "unsubscribe"):
        variables.unsubscribe(handle)
