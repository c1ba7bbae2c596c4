"""The feature registry: statement compilers keyed by AST class and the compiler's hooks for
special functions, dot-methods and joins, filled in by the feature packages when an engine is
built."""
from __future__ import annotations

from typing import Any, Callable, Optional

# (node, runtime, text) -> epl.compiler.result.CompiledStatement
StatementCompiler = Callable[[Any, Any, str], Any]
# (node, scope) -> a compiled expression, or None when the hook does not apply
CompileHook = Callable[[Any, Any], Any]


class Features:
    """What the installed features add to the compiler. Every feature is always installed
    (engine.py, _install_features). A hook's install puts it in front of the hook installed
    before, which it calls for what it does not handle."""

    __slots__ = ("statements", "function_hook", "dot_hook", "join_compiler")

    def __init__(self) -> None:
        # statement kinds other than select and create schema, by their AST class
        self.statements: dict[type, StatementCompiler] = {}
        self.function_hook: Optional[CompileHook] = None   # `name(...)` beyond the built-ins
        self.dot_hook: Optional[CompileHook] = None        # `x.method(...)` beyond the built-ins
        # (node, streams, stream plans, where, scope, text) -> join factory: engine.joins
        self.join_compiler: Callable[..., Any] = _no_joins

    def add_statement(self, node_class: type, compiler: StatementCompiler) -> None:
        self.statements[node_class] = compiler

    def statement_compiler(self, node: Any) -> Optional[StatementCompiler]:
        return self.statements.get(type(node))


def _no_joins(*args: Any) -> Any:
    raise AssertionError("engine.joins is installed with every engine")
