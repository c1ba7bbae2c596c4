"""The EPL compiler: statement AST to an immutable plan the engine instantiates.

May import: engine.contracts, views (factories), filterindex (specs), epl.ast, epl.plans
and the rest of epl; never the runtime or the Engine facade (tests/architecture)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from .result import CompiledStatement as CompiledStatement

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def compile_statement(node: A.Statement, engine: "Runtime", text: str) -> CompiledStatement:
    """Validate and compile one statement against the engine's types and services."""
    try:
        return _compile_statement(node, engine, text)
    except RecursionError:
        # the parser's nesting limit keeps trees shallow and chains compile in loops; this is
        # the last guard for a compile step that still recurses per term
        raise EPLValidationError("The statement is too deeply nested or too long to compile",
                                 text) from None


def _compile_statement(node: A.Statement, engine: "Runtime", text: str) -> CompiledStatement:
    from .exprdecl import expand_declarations
    from .tables import complete_into_table
    node = complete_into_table(expand_declarations(node, engine, text), engine)
    if isinstance(node, A.CreateSchema):
        from .schema import compile_create_schema
        return compile_create_schema(node, engine, text)
    if isinstance(node, A.SelectStatement):
        if node.context is not None:
            from .contexts import compile_context_select
            return compile_context_select(node, engine, text)
        if node.insert_into is not None:
            from .windows import check_insert_into
            check_insert_into(node, engine, text)    # a window declared with a context: refused
        from .select import compile_select
        return compile_select(node, engine, text)
    compiler = engine.features.statement_compiler(node)
    if compiler is None:      # a statement class the parser makes and no feature compiles
        raise EPLValidationError(f"Statements of kind '{type(node).__name__}' have no compiler", text)
    return compiler(node, engine, text)
