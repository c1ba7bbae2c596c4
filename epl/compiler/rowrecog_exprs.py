"""Defines and measures of `match_recognize` as compiled expressions: the scope services
(`prev`, a variable's own event, indexed group variables in defines, `B.countOf()`), the
aggregations over one group variable in measures, and the AST rewrites and checks they
need."""
from __future__ import annotations

import dataclasses
from typing import Any, Optional

import engine.contracts.epl_types as T
from engine.contracts.aggregation import BUILTIN_AGGREGATIONS
from engine.contracts.epl_types import EPLType, PropertyType
from views.match_recognize_plan import PrevHolder

import epl.ast as A
from ..ast.walk import children
from engine.contracts.errors import EPLValidationError
from .compiled import Compiled
from .expressions import compile_expr
from .scope import Scope


def _fail(scope: Scope, message: str, node: Any = None) -> EPLValidationError:
    span = getattr(node, "span", None)
    if span is not None and span.line:
        return EPLValidationError(f"{message} at line {span.line} column {span.column}", scope.epl,
                                  span.line, span.column)
    return EPLValidationError(message, scope.epl)


def _properties(node: Any, inside_aggregation: bool = False, params: frozenset = frozenset()):
    """(Property, inside an aggregation call) pairs of an expression (a lambda's parameters,
    `A.anyOf(v => v.x = B.x)`, are no properties)."""
    from engine.contracts.aggregation import is_aggregation
    if isinstance(node, A.Property):
        if node.path[0].name not in params:
            yield node, inside_aggregation
        return
    if isinstance(node, A.Lambda):
        params = params | frozenset(node.params)
    agg = inside_aggregation or (isinstance(node, A.Call) and is_aggregation(node.name.lower()) and not (
        node.name.lower() in ("max", "min") and len(node.args) >= 2))
    for c in children(node):
        yield from _properties(c, agg, params)


# -- defines and measures -------------------------------------------------------------------

class _RowRecogServices:
    """Scope services for defines and measures: `prev(...)` over the partition's rows, and
    `B.countOf()` on a group variable; everything else as the statement's services."""

    def __init__(self, base: Any, holder: Optional[PrevHolder], nvars: int,
                 group_vars: dict[str, int]) -> None:
        self.base = base
        self.holder = holder
        self.nvars = nvars
        self.group_vars = group_vars
        self.prev_depth = 0
        self.tracked: dict[int, int] = {}    # group variable -> binds slot of its rows so far
        self.subqueries = getattr(base, "subqueries", [])

    def __getattr__(self, name: str) -> Any:
        return getattr(self.base, name)

    def now(self) -> int:
        return self.base.now()

    def special_function(self, node: A.Call, scope: Scope) -> Optional[Compiled]:
        if node.name.lower() == "prev" and self.holder is not None:
            return self._prev(node, scope)
        if node.name == _GROUP_AT:      # `B[1].price` in a define: the partial match's rows of B
            vi, idx, rest = (a.value for a in node.args)
            slot = self.tracked.setdefault(vi, self.nvars + len(self.tracked))
            et = scope.streams[vi].event_type
            getter = et.getter(rest) if rest else None
            if rest and et.property_type(rest) is None:
                raise _fail(scope, f"Failed to resolve property '{rest}' of variable '{scope.streams[vi].alias}'", node)

            def group_at(eps: Any, _s=slot, _i=idx, _g=getter) -> Any:
                rows = eps[_s]
                if _i >= len(rows):
                    return None
                return _g(rows[_i].underlying) if _g is not None else rows[_i]
            return Compiled(group_at, et.property_type(rest) if rest else PropertyType(EPLType.EVENT, event_type=et))
        if node.name == _VAR_EVENT:     # a variable's own event in a define (`typeof(A)`)
            i = node.args[0].value
            return Compiled(lambda eps, _i=i: eps[_i], PropertyType(EPLType.EVENT, event_type=scope.streams[i].event_type))
        hook = getattr(self.base, "special_function", None)
        return hook(node, scope) if hook is not None else None

    def special_dot(self, node: A.Dot, scope: Scope) -> Optional[Compiled]:
        t = node.target
        if node.name.lower() == "countof" and node.args == () and isinstance(t, A.Property) \
                and len(t.path) == 1 and t.path[0].name in self.group_vars and self.holder is None:
            name = t.path[0].name
            return Compiled(lambda eps, _n=name: len(eps[0].underlying.get(_n) or ()), T.INT)
        hook = getattr(self.base, "special_dot", None)
        return hook(node, scope) if hook is not None else None

    def _prev(self, node: A.Call, scope: Scope) -> Compiled:
        if not 1 <= len(node.args) <= 2:
            raise _fail(scope, "The 'prev' function requires one or two parameters", node)
        inner = compile_expr(node.args[0], scope)
        n = 1
        if len(node.args) == 2:
            c = compile_expr(node.args[1], scope)
            if not c.is_constant or not isinstance(c.constant, int) or isinstance(c.constant, bool) or c.constant < 0:
                raise _fail(scope, "Prev function requires an integer index parameter", node)
            n = c.constant
        self.prev_depth = max(self.prev_depth, n)
        holder, nvars, fn, tracked = self.holder, self.nvars, inner.fn, self.tracked
        arg = node.args[0]
        if isinstance(arg, A.Property) and len(arg.path) > 1 and \
                all(seg.index is None and seg.key is None for seg in arg.path) and \
                scope.stream_by_alias(arg.path[0].name) is not None:
            # `prev(B.price)`: one property read on the earlier row
            et = scope.stream_by_alias(arg.path[0].name).event_type
            getter = et.getter(".".join(seg.name for seg in arg.path[1:]))

            def prev_property(eps: Any) -> Any:
                rows = holder.rows
                i = len(rows) - 1 - n
                return getter(rows[i].underlying) if i >= 0 else None
            return Compiled(prev_property, inner.type)

        def prev(eps: Any) -> Any:
            rows = holder.rows
            i = len(rows) - 1 - n
            if i < 0:
                return None
            return fn([rows[i]] * nvars + [()] * len(tracked))
        return Compiled(prev, inner.type)


class _MeasureAggregations:
    """The aggregation hook of the measures scope: an aggregation over one group variable's
    events, computed when the match row is built."""

    user_registry = BUILTIN_AGGREGATIONS     # measures take the built-ins only
    entries: tuple = ()

    def __init__(self, var_scope: Scope, variables: list[str], group_vars: dict[str, int]) -> None:
        self.var_scope = var_scope
        self.variables = variables
        self.group_vars = group_vars

    def collect(self, node: A.Call, scope: Scope) -> Compiled:
        lname = node.name.lower()
        args = [a for a in node.args if not isinstance(a, A.NamedArg)]
        used = sorted(_referenced(args, set(self.variables)))
        groups = [v for v in used if v in self.group_vars]
        if not groups:
            raise _fail(scope, "Aggregation functions in the measure-clause must refer to one or more "
                        "properties of exactly one group variable returning multiple events", node)
        if len(groups) > 1:
            raise _fail(scope, "Aggregation functions in the measure-clause must only refer to "
                        "properties of exactly one group variable returning multiple events", node)
        if lname not in _AGGS or len(args) != 1:
            raise _fail(scope, f"Aggregation function '{node.name}' is not supported in the "
                        "measure-clause of match_recognize", node)
        var = groups[0]
        vi = self.variables.index(var)
        c = compile_expr(args[0], self.var_scope)
        fn = c.fn
        names = tuple(self.variables)
        agg, rtype = _AGGS[lname]
        distinct = getattr(node, "distinct", False)

        def aggregate(eps: Any) -> Any:
            u = eps[0].underlying
            binds = [u.get(v) for v in names]
            for g in self.group_vars:
                lst = binds[self.group_vars[g]]
                binds[self.group_vars[g]] = lst[-1] if lst else None
            values = []
            for ev in u.get(var) or ():
                binds[vi] = ev
                values.append(fn(binds))
            if distinct:
                seen: list = []
                for v in values:
                    if v not in seen:
                        seen.append(v)
                values = seen
            return agg(values)
        return Compiled(aggregate, rtype(c.type), has_aggregation=True)


def _count(values: list) -> int:
    return sum(1 for v in values if v is not None)


def _sum(values: list) -> Any:
    vs = [v for v in values if v is not None]
    if not vs:
        return None
    total = vs[0]
    for v in vs[1:]:
        total = total + v
    return total


def _avg(values: list) -> Any:
    vs = [v for v in values if v is not None]
    return (sum(float(v) for v in vs) / len(vs)) if vs else None


def _min(values: list) -> Any:
    vs = [v for v in values if v is not None]
    return min(vs) if vs else None


def _max(values: list) -> Any:
    vs = [v for v in values if v is not None]
    return max(vs) if vs else None


_AGGS = {
    "count": (_count, lambda t: T.LONG),
    "sum": (_sum, lambda t: t),
    "avg": (_avg, lambda t: T.DOUBLE),
    "min": (_min, lambda t: t),
    "max": (_max, lambda t: t),
    "first": (lambda vs: vs[0] if vs else None, lambda t: t),
    "last": (lambda vs: vs[-1] if vs else None, lambda t: t),
}


_VAR_EVENT = "rowrecog$event"


_GROUP_AT = "rowrecog$groupat"


def _var_events(node: Any, variables: list[str], groups: Any = ()) -> Any:
    """A define with each bare variable name (`A`, not `A.price`) as a call reading that
    variable's event, and each indexed group variable (`B[1].price`) as a call reading the
    partial match's rows of that variable."""
    if isinstance(node, A.Property) and len(node.path) == 1 and node.path[0].index is None \
            and node.path[0].key is None and node.path[0].name in variables:
        return A.Call(_VAR_EVENT, (A.Literal(variables.index(node.path[0].name), A.LiteralKind.INT),),
                      span=node.span)
    if isinstance(node, A.Property) and node.path[0].index is not None and node.path[0].key is None \
            and node.path[0].name in groups:
        rest = ".".join(seg.name + (f"[{seg.index}]" if seg.index is not None else "") for seg in node.path[1:])
        return A.Call(_GROUP_AT, (A.Literal(variables.index(node.path[0].name), A.LiteralKind.INT),
                                  A.Literal(node.path[0].index, A.LiteralKind.INT),
                                  A.Literal(rest, A.LiteralKind.STRING)), span=node.span)
    if isinstance(node, tuple):
        out = tuple(_var_events(x, variables, groups) for x in node)
        return out if any(a is not b for a, b in zip(out, node)) else node
    if not isinstance(node, A.Node) or not dataclasses.is_dataclass(node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        if isinstance(v, (A.Node, tuple)):
            nv = _var_events(v, variables, groups)
            if nv is not v:
                changes[f.name] = nv
    return dataclasses.replace(node, **changes) if changes else node


def _referenced(nodes: Any, variables: set[str]) -> set[str]:
    out: set[str] = set()
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, A.Property) and n.path[0].name in variables:
            out.add(n.path[0].name)
        stack.extend(children(n))
    return out


def _contains_aggregation(e: Any) -> bool:
    from engine.contracts.aggregation import is_aggregation
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Call) and is_aggregation(n.name.lower()) and not (
                n.name.lower() in ("max", "min") and len(n.args) >= 2):
            return True
        stack.extend(children(n))
    return False


def _hashable(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    return v


def _first_wins(scope: Scope, own: int) -> Scope:
    """Unqualified names resolve to the variable being defined instead of being ambiguous
    between variables that all share the event type."""
    class _FirstWins(Scope):
        def resolve(self, prop: A.Property) -> Any:
            segs = prop.path
            if len(segs) > 1 and segs[0].index is None and segs[0].key is None and \
                    self.stream_by_alias(segs[0].name) is not None:
                return Scope.resolve(self, prop)
            if segs[0].name in self.builtins or segs[0].name == "context":
                return Scope.resolve(self, prop)
            first = self.streams[own]
            path = prop.dotted if all(s.index is None and s.key is None for s in segs) else None
            if path is not None and first.event_type.property_type(path) is not None:
                from .scope import Resolved
                return Resolved("stream", first.index, path, first.event_type.property_type(path))
            return Scope.resolve(self, prop)
    s = _FirstWins(**{f: getattr(scope, f) for f in scope.__dataclass_fields__})
    return s
