"""Expression declarations: `expression name { params => body }` before a statement (seen by
that statement only) and `create expression` (seen by every later statement). A use
`name(args)` (or `name` for `alias for` declarations) is inlined once, at compile time, with
the arguments in place of the parameters, so aggregations, subqueries and enumeration
methods inside declared expressions work as if written out. A statement keeps what it
inlined when the `create expression` statement is destroyed."""
from __future__ import annotations

from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any, Optional

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from .result import CompiledStatement
from .rewrite import rewrite
from .scope import _path_text

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

_MAX_DEPTH = 50   # declared expressions using each other, never recursion


def expand_declarations(node: A.Statement, engine: "Runtime", text: str) -> A.Statement:
    """The statement with its own and the engine's declared expressions inlined (a
    DeclaringStatement is unwrapped, its annotations moved onto the statement)."""
    local: dict[str, A.ExpressionDecl] = {}
    if isinstance(node, A.DeclaringStatement):
        for d in node.declarations:
            if d.name in local:
                raise EPLValidationError(f"Expression '{d.name}' is declared more than once", text)
            local[d.name] = d
        inner = node.statement
        if node.annotations and "annotations" in {f.name for f in fields(inner)}:
            inner = replace(inner, annotations=node.annotations + tuple(inner.annotations))
        node = inner
    declared = {**_registry(engine), **local}
    if not declared:
        return node
    if isinstance(node, A.CreateExpression):
        return node     # a declaration's body is inlined where it is used
    return _Inliner(declared, text, _stream_types(node, engine)).statement(node)


def _stream_types(node: A.Statement, engine: "Runtime") -> dict[str, Any]:
    """The event type of each stream alias, type name and pattern tag the statement names."""
    from ..ast.walk import walk
    out: dict[str, Any] = {}
    for n in walk(node):
        if isinstance(n, A.FilterStream):
            et = engine.types.find(n.event_filter.type_name)
            if et is not None:
                out.setdefault(n.event_filter.type_name, et)
                if n.alias:
                    out[n.alias] = et
        elif isinstance(n, A.PatternFilter) and n.tag:
            et = engine.types.find(n.event_filter.type_name)
            if et is not None:
                out[n.tag] = et
    return out


def _registry(engine: "Runtime") -> dict:
    return engine.services.expressions


class _Inliner:
    def __init__(self, declared: dict[str, A.ExpressionDecl], text: str,
                 stream_types: Optional[dict[str, Any]] = None) -> None:
        self.declared = declared
        self.text = text
        self.stream_types = stream_types or {}

    def statement(self, node: A.Statement) -> A.Statement:
        def fn(n: Any) -> Any:
            if isinstance(n, A.SelectItem) and n.alias is None and isinstance(n.expr, A.Expr):
                e = self.expr(n.expr, 0)
                if e is n.expr:
                    return n
                from .expressions import expr_text
                # the column keeps the name of what was written: `twice(intPrimitive)`
                return A.SelectItem(e, expr_text(n.expr), n.span)
            if isinstance(n, A.Expr):
                return self.expr(n, 0)
            return None
        return rewrite(node, fn)

    def expr(self, e: A.Expr, depth: int) -> A.Expr:
        if depth > _MAX_DEPTH:
            raise EPLValidationError("Declared expressions refer to each other without end", self.text)

        def fn(n: Any) -> Any:
            if isinstance(n, A.Call) and n.name in self.declared:
                d = self.declared[n.name]
                if d.alias and not n.args:      # `alias()` reads as the alias
                    return self.expr(A.Parens(d.body, n.span), depth + 1)
                return self.expr(self.inline(d, n), depth + 1)
            if isinstance(n, A.Property) and n.path[0].index is None and n.path[0].key is None:
                d = self.declared.get(n.path[0].name)
                if d is not None and not d.params:
                    # an alias, or a declaration without parameters, used by its name:
                    # `returnsOne`, `subq.maxi`
                    body: A.Expr = A.Parens(d.body, n.span)
                    for seg in n.path[1:]:
                        body = A.Dot(body, seg.name, None, n.span)
                    return self.expr(body, depth + 1)
            if isinstance(n, A.Property) and n.path[0].key is not None and \
                    n.path[0].name in self.declared and len(n.path) == 1:
                # `f('x')` parses as a mapped property: a one-argument use of `f`
                d = self.declared[n.path[0].name]
                call = A.Call(n.path[0].name, (A.Literal(n.path[0].key, A.LiteralKind.STRING),),
                              False, n.span)
                return self.expr(self.inline(d, call), depth + 1)
            return None
        return rewrite(e, fn)

    def inline(self, d: A.ExpressionDecl, call: A.Call) -> A.Expr:
        args = [a for a in call.args]
        if len(args) != len(d.params):
            raise EPLValidationError(
                f"Parameter count mismatches for declared expression '{d.name}', expected "
                f"{len(d.params)} parameters but received {len(args)} parameters", self.text)
        bound = dict(zip(d.params, args))
        # unqualified names in the body read the first parameter that is a stream's event
        stream = next(((a.path[0].name, self.stream_types[a.path[0].name]) for a in args
                       if isinstance(a, A.Property) and len(a.path) == 1 and a.path[0].index is None
                       and a.path[0].key is None and a.path[0].name in self.stream_types), None)
        return A.Parens(substitute(d.body, bound, stream), call.span)


def substitute(body: A.Expr, bound: dict[str, A.Expr], stream: Optional[tuple] = None) -> A.Expr:
    """`body` with each parameter name replaced by its argument expression; with `stream`
    (alias, event type), other unqualified names that are properties of that event read it."""
    if not bound:
        return body

    def fn(n: Any) -> Any:
        if isinstance(n, A.Lambda):
            inner = {k: v for k, v in bound.items() if k not in n.params}
            # the lambda's own parameters come first for its unqualified names
            return A.Lambda(n.params, substitute(n.body, inner, None) if inner else n.body, n.span)
        if isinstance(n, A.Subquery):
            return rewrite(n, lambda m: _params_only(m, bound))
        if isinstance(n, A.Property):
            first = n.path[0]
            if first.key is None and first.name in bound:
                return _apply(bound[first.name], first.index, n.path[1:], n.span)
            if stream is not None and first.index is None and first.key is None and \
                    stream[1].property_type(_path_text(n.path)) is not None:
                return A.Property((A.PropSeg(stream[0]),) + tuple(n.path), n.span)
        return None
    return rewrite(body, fn)


def _params_only(n: Any, bound: dict[str, A.Expr]) -> Any:
    """Inside a subquery only the parameters are replaced (its own names resolve first)."""
    if isinstance(n, A.Lambda):
        inner = {k: v for k, v in bound.items() if k not in n.params}
        return A.Lambda(n.params, rewrite(n.body, lambda m: _params_only(m, inner)), n.span)
    if isinstance(n, A.Property):
        first = n.path[0]
        if first.key is None and first.name in bound:
            return _apply(bound[first.name], first.index, n.path[1:], n.span)
    return None


def _apply(arg: A.Expr, index: Optional[int], rest: tuple, span: Any) -> A.Expr:
    if isinstance(arg, A.Wildcard) and rest and index is None:
        return A.Property(tuple(rest), span)          # `f(*)`: the statement's event
    if isinstance(arg, A.StreamWildcard) and rest and index is None:
        return A.Property((A.PropSeg(arg.stream),) + tuple(rest), span)
    if isinstance(arg, A.Property):
        path = list(arg.path)
        if index is not None:
            last = path[-1]
            if last.index is not None or last.key is not None:
                return _dot_chain(A.Parens(arg), index, rest, span)
            path[-1] = A.PropSeg(last.name, index, None)
        return A.Property(tuple(path) + tuple(rest), span)
    if index is None and not rest:
        return arg if isinstance(arg, (A.Literal, A.Call, A.Parens)) else A.Parens(arg, span)
    return _dot_chain(A.Parens(arg), index, rest, span)


def _dot_chain(target: A.Expr, index: Optional[int], rest: tuple, span: Any) -> A.Expr:
    out = target
    if index is not None:
        out = A.Dot(out, "get", (A.Literal(index, A.LiteralKind.INT),), span)
    for seg in rest:
        out = A.Dot(out, seg.name, None, span)
    return out


# -- create expression ------------------------------------------------------------------------

def compile_create_expression(node: A.CreateExpression, engine: "Runtime", text: str) -> CompiledStatement:
    from .annotations import statement_name
    d = node.declaration
    registry = engine.services.expressions
    if d.name in registry:
        raise EPLValidationError(f"Expression '{d.name}' has already been declared", text)

    def add() -> None:
        registry[d.name] = d

    def remove() -> None:
        if registry.get(d.name) is d:
            del registry[d.name]
    return CompiledStatement("create-expression", None, statement_name(node.annotations),
                             annotations=node.annotations, on_create=[(add, remove)])


def install(engine: "Runtime") -> None:
    engine.features.add_statement(A.CreateExpression, compile_create_expression)
