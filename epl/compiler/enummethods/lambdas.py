"""Lambda expressions: a lambda's parameters become slots at the end of the events-per-stream
tuple (`eps + (v, i, size)`), bound by rewriting the body once; the body then compiles into
one closure like any other expression. Unqualified names inside a lambda whose parameter is
an event read that event first (`beans.sumOf(x => intBoxed)`)."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.event_types import _index, _key, _step

import epl.ast as A
from ..compiled import Compiled
from ..expressions import compile_expr, compiles
from ..rewrite import rewrite
from ..scope import Scope, _path_text


def compile_lambda(lam: A.Lambda, types: Sequence[PropertyType], scope: Scope) -> Compiled:
    """Compile `lam` whose parameters have `types` (in order): the result evaluates on
    `eps + (p1, ..., pk)`."""
    return compile_lambda_parts(lam, types, scope)[0]


def compile_lambda_parts(lam: A.Lambda, types: Sequence[PropertyType],
                         scope: Scope) -> tuple[Compiled, Optional[Callable[[Any], Any]]]:
    """`compile_lambda`, and for the simplest one-parameter bodies (a property of the
    element, or one compared with a constant) the same function of the element alone, which
    the methods' loops call without building the extended tuple."""
    k = len(lam.params)
    params = {name: (j - k, t) for j, (name, t) in enumerate(zip(lam.params, types))}
    event_param = next(((n, s, t) for n, (s, t) in params.items()
                        if t.kind is EPLType.EVENT and t.event_type is not None), None)
    body = bind_params(lam.body, params, -k, event_param, scope)
    compiled = compile_expr(body, scope)
    return compiled, (_element_fn(body) if k == 1 else None)


_COMPARE = {
    A.BinOp.GT: lambda a, c: a > c, A.BinOp.GE: lambda a, c: a >= c,
    A.BinOp.LT: lambda a, c: a < c, A.BinOp.LE: lambda a, c: a <= c,
    A.BinOp.EQ: lambda a, c: a == c, A.BinOp.NE: lambda a, c: a != c,
}


def _element_fn(body: A.Expr) -> Optional[Callable[[Any], Any]]:
    while isinstance(body, A.Parens):
        body = body.inner
    name = _own_map_property(body)
    if name is not None:
        def read(b, _n=name):
            return None if b is None else b.underlying.get(_n)
        read.prop = name              # methods may fuse the read into their own loop
        return read
    if isinstance(body, A.BinaryOp) and body.op in _COMPARE:
        left, right = body.left, body.right
        while isinstance(right, A.Parens):
            right = right.inner
        name = _own_map_property(left)
        if name is None or not isinstance(right, A.Literal) or right.value is None or \
                right.kind is A.LiteralKind.BOOLEAN:
            return None
        c, op = right.value, body.op
        cmp = _COMPARE[op]
        if op is A.BinOp.GT:      # the usual filter, without a second call
            def gt(b, _n=name, _c=c):
                v = None if b is None else b.underlying.get(_n)
                return None if v is None else v > _c
            compare = gt
        else:
            def compare(b, _n=name, _c=c, _cmp=cmp):
                v = None if b is None else b.underlying.get(_n)
                return None if v is None else _cmp(v, _c)
        compare.prop, compare.op, compare.const = name, op, c
        return compare
    return None


def _own_map_property(e: A.Expr) -> Optional[str]:
    """The property name when `e` reads a plain property of the lambda's only parameter, a
    map event."""
    if not (isinstance(e, A.LambdaParam) and e.slot == -1 and len(e.path) == 1):
        return None
    seg = e.path[0]
    t = e.type
    et = t.event_type if t.kind is EPLType.EVENT else None
    if et is None or not et.is_map or seg.index is not None or seg.key is not None or \
            not seg.name.isidentifier() or et.property_type(seg.name) is None:
        return None
    return seg.name


def bind_params(body: A.Expr, params: dict, shift: int, event_param: Optional[tuple],
                scope: Scope) -> A.Expr:
    """Replace references to `params` (name -> (slot, type)) by LambdaParam nodes and move
    the slots of enclosing lambdas' parameters by `shift`."""
    def fn(n: Any) -> Any:
        if isinstance(n, A.LambdaParam):
            return A.LambdaParam(n.name, n.slot + shift, n.type, n.path, n.span)
        if isinstance(n, A.Property):
            return _bind_property(n, params, event_param, scope)
        if isinstance(n, A.Lambda):
            inner = {k: v for k, v in params.items() if k not in n.params}
            # unqualified names in an inner lambda are left to that lambda's own parameters
            return A.Lambda(n.params, bind_params(n.body, inner, shift, None, scope), n.span)
        if isinstance(n, A.Subquery):
            return n      # a subquery resolves its own names
        return None
    return rewrite(body, fn)


def _bind_property(n: A.Property, params: dict, event_param: Optional[tuple], scope: Scope) -> Any:
    first = n.path[0]
    if first.key is None and first.name in params:
        slot, t = params[first.name]
        rest = tuple(n.path[1:])
        if first.index is not None:
            rest = (A.PropSeg("", first.index),) + rest
        return A.LambdaParam(first.name, slot, t, rest, n.span)
    if event_param is None:
        return n
    if len(n.path) > 1 and scope.stream_by_alias(first.name) is not None:
        return n
    name, slot, t = event_param
    if t.event_type.property_type(_path_text(n.path)) is not None:
        return A.LambdaParam(name, slot, t, tuple(n.path), n.span)
    return n


@compiles(A.LambdaParam)
def _lambda_param(node: A.LambdaParam, scope: Scope) -> Compiled:
    slot, t, path = node.slot, node.type, node.path
    if not path:
        return Compiled(lambda eps, _s=slot: eps[_s], t)
    et = t.event_type if t.kind is EPLType.EVENT else None
    if et is not None and path[0].name:
        text = _path_text(path)
        pt = et.property_type(text)
        if pt is None:
            raise scope.fail(f"Failed to resolve property '{node.name}.{text}': property named "
                             f"'{text}' is not valid in type '{et.name}'")
        g = et.getter(text)
        if et.is_map and len(path) == 1 and path[0].index is None and path[0].key is None \
                and path[0].name.isidentifier():
            # the common case, one call per read: a map event's own property
            def read_map(eps, _s=slot, _n=path[0].name):
                b = eps[_s]
                return None if b is None else b.underlying.get(_n)
            return Compiled(read_map, pt)

        def read_event(eps, _s=slot, _g=g):
            b = eps[_s]
            if b is None:
                return None
            u = getattr(b, "underlying", None)
            return _g(u) if u is not None else _step(b, text)
        return Compiled(read_event, pt)
    steps = tuple(_steps(path))

    def read_value(eps, _s=slot, _st=steps):
        v = eps[_s]
        for f in _st:
            if v is None:
                return None
            v = f(v)
        return v
    elem = t.element if t.kind is EPLType.ARRAY and len(path) == 1 and not path[0].name else None
    return Compiled(read_value, elem or T.OBJECT)


def _steps(path: Sequence[A.PropSeg]):
    for seg in path:
        if seg.name:
            yield lambda v, _n=seg.name: _step(v, _n)
        if seg.index is not None:
            yield lambda v, _i=seg.index: _index(v, _i)
        if seg.key is not None:
            yield lambda v, _k=seg.key: _key(v, _k)


def arity(lam: Any, low: int, high: int, method: str, scope: Scope) -> int:
    """The parameter count of a lambda argument, checked against what `method` accepts."""
    if not isinstance(lam, A.Lambda):
        raise scope.fail(f"Failed to validate enumeration method '{method}', expected a lambda "
                         f"expression")
    n = len(lam.params)
    if not low <= n <= high:
        raise scope.fail(f"Failed to validate enumeration method '{method}', the lambda expression "
                         f"takes {low}{'' if low == high else f' to {high}'} parameter(s), "
                         f"received {n}")
    return n

