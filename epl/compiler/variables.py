"""`create [constant] variable type name [= expr]`: declares the variable when the statement
is created and removes it when the statement is destroyed."""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.contracts.errors import EventTypeError
from engine.contracts.variable_values import VariableError, assignable, check_value

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from .annotations import statement_name
from .expressions import compile_expr
from .result import CompiledStatement
from .select import base_scope

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def compile_create_variable(node: A.CreateVariable, engine: "Runtime", text: str) -> CompiledStatement:
    svc = engine.services.variables
    if svc.has(node.name):
        raise EPLValidationError(f"Variable by name '{node.name}' has already been created", text)
    try:
        t = engine.types.resolve_type(node.type.name + ("[]" if node.type.array else ""))
    except EventTypeError:
        raise EPLValidationError(f"Cannot create variable '{node.name}', type '{node.type.name}' "
                                 f"is not a known type", text) from None
    value = None
    if node.initial is not None:
        c = compile_expr(node.initial, base_scope(engine, [], text))
        if not assignable(t, c.type):
            raise EPLValidationError(f"Variable '{node.name}' of declared type {t} cannot be "
                                     f"initialized by a value of type {c.type}", text)
        value = c.constant if c.is_constant else c.fn(())
        if isinstance(value, int) and not isinstance(value, bool) and t.kind.value in ("double", "float"):
            value = float(value)
        try:
            value = check_value(node.name, t, value)
        except VariableError as e:
            raise EPLValidationError(str(e), text) from None
    elif node.constant:
        raise EPLValidationError(f"Constant variable '{node.name}' needs an initial value", text)

    if node.context is not None:
        contexts = engine.services.contexts
        if contexts is None or contexts.get(node.context) is None:
            raise EPLValidationError(f"Context by name '{node.context}' could not be found", text)

    def declare() -> None:
        svc.declare(node.name, t, value, node.constant, node.context)

    def remove() -> None:
        svc.remove(node.name)

    return CompiledStatement("create-variable", None, statement_name(node.annotations),
                             annotations=node.annotations, on_create=[(declare, remove)])

