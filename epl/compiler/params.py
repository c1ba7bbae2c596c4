"""Substitution parameters at compile time: binding values into a statement's tree, and the
compilers of bound values (any Python value) and of parameters left unbound."""
from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Any, Callable, Mapping, Optional, Sequence

from engine.contracts.frozen import frozen_dataclass
import engine.contracts.epl_types as T

import epl.ast as A
from ..ast.common import NO_SPAN, Node, Span
from engine.contracts.errors import EPLValidationError
from .compiled import Compiled, constant
from .expressions import compiles
from .scope import Scope

INCONSISTENT = ("Inconsistent use of substitution parameters, expecting all substitutions to "
                "either all provide a name or provide no name")


@frozen_dataclass(slots=True)
class BoundValue(A.Expr):
    """A value bound to a substitution parameter that no EPL literal spells (a datetime, a
    Decimal, an object)."""

    value: Any
    span: Span = field(default=NO_SPAN, compare=False)


@compiles(BoundValue)
def _bound(node: BoundValue, scope: Scope) -> Compiled:
    return constant(node.value, T.type_of_python(type(node.value)) if node.value is not None
                    else T.OBJECT)


@compiles(A.Substitution)
def _unbound(node: A.Substitution, scope: Scope) -> Compiled:
    raise scope.fail(unbound_message(1))


def unbound_message(count: int) -> str:
    return (f"Substitution parameters have not been provided: the statement has {count} "
            f"substitution parameter(s); use engine.prepare(text) and deploy it with values")


def check_unbound(node: Any, text: str) -> None:
    """A statement created directly (not prepared) may not hold substitution parameters."""
    if text and "?" not in text:
        return
    found = substitutions(node)
    if found:
        raise EPLValidationError(unbound_message(len(found)), text)


def substitutions(node: Any) -> list[A.Substitution]:
    """The statement's substitution parameters in text order."""
    found: list[A.Substitution] = []
    _collect(node, found)
    found.sort(key=lambda s: (s.span.start, s.span.end))
    return found


def _collect(value: Any, out: list) -> None:
    if isinstance(value, A.Substitution):
        out.append(value)
    elif isinstance(value, Node):
        for f in dataclasses.fields(value):
            if f.name != "span":
                _collect(getattr(value, f.name), out)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _collect(v, out)


def parameter_names(params: Sequence[A.Substitution], text: str) -> list[Any]:
    """`[1, 2, ...]` for `?` parameters, the distinct names in order for `?:name`."""
    named = {p.name is not None for p in params}
    if len(named) > 1:
        raise EPLValidationError(INCONSISTENT, text)
    if not params or params[0].name is None:
        return list(range(1, len(params) + 1))
    return list(dict.fromkeys(p.name for p in params))


_CHECKS: dict[str, tuple[tuple[type, ...], bool]] = {
    # type name -> (allowed Python types, bool excluded)
    "int": ((int,), True), "integer": ((int,), True), "long": ((int,), True),
    "short": ((int,), True), "byte": ((int,), True), "biginteger": ((int,), True),
    "double": ((int, float), True), "float": ((int, float), True),
    "string": ((str,), False), "boolean": ((bool,), False), "bool": ((bool,), False),
}


def check_type(label: str, type_name: Optional[str], value: Any, text: str) -> None:
    """Refuse a value that does not fit the parameter's declared type (`?:n:int`)."""
    if type_name is None or value is None:
        return
    base = type_name.rsplit(".", 1)[-1].lower()
    if base.endswith("[]"):
        if not isinstance(value, (list, tuple)):
            raise EPLValidationError(
                f"Substitution parameter {label} expects a value of type '{type_name}', got "
                f"{type(value).__name__} {value!r}", text)
        return
    spec = _CHECKS.get(base)
    if spec is None:
        return
    allowed, no_bool = spec
    if not isinstance(value, allowed) or (no_bool and isinstance(value, bool)):
        raise EPLValidationError(
            f"Substitution parameter {label} expects a value of type '{type_name}', got "
            f"{type(value).__name__} {value!r}", text)


def to_node(value: Any, span: Span) -> A.Expr:
    """The tree node for a bound value: a literal where EPL has one (views and other clauses
    that want literals then accept it), else a BoundValue."""
    if value is None:
        return A.Literal(None, A.LiteralKind.NULL, span)
    if isinstance(value, bool):
        return A.Literal(value, A.LiteralKind.BOOLEAN, span)
    if isinstance(value, int):
        kind = A.LiteralKind.INT if -2**31 <= value < 2**31 else A.LiteralKind.LONG
        return A.Literal(value, kind, span)
    if isinstance(value, float):
        return A.Literal(value, A.LiteralKind.DOUBLE, span)
    if isinstance(value, str):
        return A.Literal(value, A.LiteralKind.STRING, span)
    if isinstance(value, (list, tuple)):
        return A.ArrayLiteral(tuple(to_node(v, span) for v in value), span)
    return BoundValue(value, span)


def bind(node: Any, value_of: Callable[[A.Substitution], Any]) -> Any:
    """A copy of the tree with every substitution parameter replaced by its value's node."""
    if isinstance(node, A.Substitution):
        return to_node(value_of(node), node.span)
    if isinstance(node, Node) and dataclasses.is_dataclass(node):
        changes = {}
        for f in dataclasses.fields(node):
            if f.name == "span" or not f.init:
                continue
            old = getattr(node, f.name)
            new = bind(old, value_of)
            if new is not old:
                changes[f.name] = new
        return dataclasses.replace(node, **changes) if changes else node
    if isinstance(node, tuple):
        items = tuple(bind(v, value_of) for v in node)
        return node if all(a is b for a, b in zip(items, node)) else items
    if isinstance(node, list):
        return [bind(v, value_of) for v in node]
    return node


def bind_values(node: Any, params: Sequence[A.Substitution], names: Sequence[Any],
                positional: Sequence[Any], named: Mapping[str, Any], text: str) -> Any:
    """Bind positional values to `?` or named values to `?:name`; every parameter needs one."""
    if names and isinstance(names[0], int):
        if named:
            raise EPLValidationError(
                f"Substitution parameters of this statement are positional ('?'): pass a list "
                f"of {len(names)} value(s), not names {sorted(named)}", text)
        if len(positional) > len(names):
            raise EPLValidationError(
                f"Substitution parameter index {len(names) + 1} out of range: the statement has "
                f"{len(names)} substitution parameter(s)", text)
        for i in range(len(positional), len(names)):
            raise EPLValidationError(
                f"Substitution parameter value for index {i + 1} not set, please provide a "
                f"value for this parameter", text)
        order = {id(p): i for i, p in enumerate(params)}
        for i, p in enumerate(params):
            check_type(f"index {i + 1}", p.type_name, positional[i], text)
        return bind(node, lambda p: positional[order[id(p)]])
    if positional:
        raise EPLValidationError(
            f"Substitution parameters of this statement are named: pass keyword values for "
            f"{', '.join(repr(n) for n in names)}", text)
    for n in named:
        if n not in names:
            raise EPLValidationError(
                f"Substitution parameter name '{n}' not found, the statement has parameters "
                f"{', '.join(repr(x) for x in names)}", text)
    for n in names:
        if n not in named:
            raise EPLValidationError(
                f"Substitution parameter value for name '{n}' not set, please provide a value "
                f"for this parameter", text)
    for p in params:
        check_type(f"'{p.name}'", p.type_name, named[p.name], text)
    return bind(node, lambda p: named[p.name])
