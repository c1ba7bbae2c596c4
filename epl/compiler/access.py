"""Compiles `prev`, `prevtail`, `prevwindow`, `prevcount` and `prior` into closures over the
stream's window trackers (views/access.py), and adds those trackers to the statement's
stream chains once the statement is compiled (`attach`)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Callable, Optional

import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType
from views.access import SINGLE_WINDOW, AccessHolder, PriorChainFactory, prev_refusal, track_prev

import epl.ast as A
from ..ast.walk import walk
from engine.contracts.errors import EPLValidationError
from .compiled import Compiled
from .scope import Scope

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

NAMES = ("prev", "prevtail", "prevwindow", "prevcount", "prior", "istream",
         "current_evaluation_context")


@dataclass
class StreamAccess:
    """What the expressions of one statement ask of one stream."""

    holder: AccessHolder = field(default_factory=AccessHolder)
    prev: bool = False
    prior_depth: int = -1
    istream: bool = False


def install(engine: "Runtime") -> None:
    import epl.compiler.dynamic as dynamic
    # registers the compilers of `name?` and `new {...}`
    import epl.compiler.newmap as newmap  # noqa: F401
    previous: Optional[Callable] = engine.features.function_hook

    def functions(node: Any, scope: Any) -> Any:
        if node.name.lower() in NAMES:
            return compile_access(node, scope)
        if node.name.lower() == "event_identity_equals":
            return _identity_equals(node, scope)
        return previous(node, scope) if previous is not None else None

    engine.features.function_hook = functions


_INF = float("inf")


def _bare(node: A.Expr) -> A.Expr:
    while isinstance(node, A.Parens):
        node = node.inner
    return node


def check_not_in_filters(where: Optional[A.Expr], having: Optional[A.Expr], aggregated: bool,
                         scope: Scope) -> None:
    """Esper refuses prev, prevtail, prevwindow and prevcount in the where- and having-clause
    of a statement with aggregations: they give no remove-stream value to aggregate out."""
    if not aggregated:
        return
    for clause in (where, having):
        if clause is None:
            continue
        for n in walk(clause, prune=lambda x: isinstance(x, A.Subquery)):
            if isinstance(n, A.Call) and n.name.lower() in ("prev", "prevtail", "prevwindow", "prevcount"):
                raise scope.fail(
                    f"The '{n.name.lower()}' function may not occur in the where-clause or "
                    f"having-clause of a statement with aggregations as 'previous' does not provide "
                    f"remove stream data; Use the 'first','last','window' or 'count' aggregation "
                    f"functions instead")


def _requests(scope: Scope, what: str) -> dict:
    reqs = getattr(scope.services, "access", None)
    if reqs is None:
        name = "Prior" if what == "prior" else "Previous"
        raise scope.fail(f"{name} function cannot be used in this context")
    return reqs


def _event_arg(node: A.Expr, scope: Scope) -> Optional[int]:
    """The stream of a bare stream alias, `s.*` or `*` argument; None for other expressions."""
    if isinstance(node, A.Wildcard):
        return 0
    if isinstance(node, A.StreamWildcard):
        s = scope.stream_by_alias(node.stream)
        if s is None:
            raise scope.fail(f"Stream selector '{node.stream}.*' does not match any stream name in the from clause")
        return s.index
    if isinstance(node, A.Property) and len(node.path) == 1 and node.path[0].index is None \
            and node.path[0].key is None:
        s = scope.stream_by_alias(node.path[0].name)
        if s is not None and s.event_type.property_type(node.path[0].name) is None:
            return s.index
    return None


def _stream_of(node: A.Expr, scope: Scope) -> int:
    for n in walk(node, prune=lambda x: isinstance(x, A.Subquery)):
        if isinstance(n, A.Property):
            try:
                r = scope.resolve(n)
            except EPLValidationError:
                continue
            if r.kind == "stream":
                return r.index
    return 0


def _value(node: A.Expr, scope: Scope) -> tuple[int, Callable[[Any, Any], Any], PropertyType]:
    """(stream, read(bean, eps), type): the value of the argument for another event of
    its stream."""
    from .expressions import compile_expr
    k = _event_arg(node, scope)
    if k is not None:
        t = PropertyType(EPLType.EVENT, event_type=scope.streams[k].event_type)
        return k, (lambda bean, eps: bean), t
    k = _stream_of(node, scope)
    c = compile_expr(node, scope)
    if c.has_aggregation:
        raise scope.fail("Aggregation functions are not allowed within the previous or prior function")
    fn = c.fn
    if len(scope.streams) == 1:
        return k, (lambda bean, eps, _f=fn: _f((bean,))), c.type

    def read(bean, eps, _f=fn, _k=k):
        e = list(eps)
        e[_k] = bean
        return _f(e)
    return k, read, c.type


def _constant_variable(node: A.Expr, scope: Scope) -> Optional[str]:
    """The name of a `create constant variable` the index names, else None (Esper takes a
    constant variable as a constant-value index)."""
    node = _bare(node)
    svc = scope.variables
    if svc is None or not isinstance(node, A.Property) or len(node.path) != 1:
        return None
    name = node.path[0].name
    return name if svc.has(name) and svc.is_constant(name) else None


def _index(node: A.Expr, scope: Scope, what: str, constant_only: bool) -> tuple[Optional[int], Callable]:
    from .expressions import compile_expr
    c = compile_expr(node, scope)
    var = _constant_variable(node, scope)
    if c.is_constant or var is not None:
        v = c.constant if c.is_constant else scope.variables.get(var)
        if isinstance(v, bool) or not isinstance(v, int):
            raise scope.fail(f"{what} function requires a constant-value integer-typed index "
                             f"expression as the first parameter" if constant_only else
                             f"{what} function requires an integer index parameter or expression")
        if v < 0:
            raise scope.fail(f"{what} function requires a non-negative integer index parameter")
        return v, c.fn
    if constant_only:
        raise scope.fail(f"{what} function requires a constant-value integer-typed index "
                         f"expression as the first parameter")
    if not c.type.is_numeric and c.type.kind is not EPLType.OBJECT:
        raise scope.fail(f"{what} function requires an integer index parameter or expression")
    return None, c.fn


def compile_access(node: A.Call, scope: Scope) -> Compiled:
    name = node.name.lower()
    args = [a for a in node.args]
    reqs = _requests(scope, name)
    if name == "current_evaluation_context":
        return _evaluation_context(node, scope, reqs)
    if name == "istream":
        if args:
            raise scope.fail("The 'istream' function takes no parameters")
        acc = reqs.setdefault(0, StreamAccess())
        acc.istream = True
        holder = acc.holder

        def istream(eps, _h=holder):
            chain = _h.prior
            bean = eps[0]
            return chain is None or bean is None or id(bean) in chain.new_ids
        return Compiled(istream, T.BOOLEAN)
    if name == "prior":
        if len(args) != 2:
            raise scope.fail("Prior node must have 2 parameters")
        i, _ = _index(args[0], scope, "Prior", constant_only=True)
        k, read, t = _value(args[1], scope)
        acc = reqs.setdefault(k, StreamAccess())
        acc.prior_depth = max(acc.prior_depth, i)
        holder = acc.holder

        def prior(eps, _h=holder, _i=i, _k=k, _r=read):
            chain = _h.prior
            if chain is None:
                return None
            bean = eps[_k]
            if bean is None:
                return None
            ev = chain.prior(_i, bean)
            return None if ev is None else _r(ev, eps)
        return Compiled(prior, t)

    what = "Previous"
    if name in ("prev", "prevtail"):
        if len(args) not in (1, 2):
            raise scope.fail("Previous node must have 1 or 2 child nodes")
        if len(args) == 1:
            index_const, index_fn = (1 if name == "prev" else 0), None
            value_node = args[0]
        else:
            if isinstance(_bare(args[1]), A.Literal) and not isinstance(_bare(args[0]), A.Literal):
                args = [args[1], args[0]]      # `prev(price, 1)`: Esper takes the constant as the index
            index_const, index_fn = _index(args[0], scope, what, constant_only=False)
            value_node = args[1]
    else:
        if len(args) != 1:
            raise scope.fail(f"The '{name}' function requires a single parameter")
        value_node = args[0]
    if not isinstance(_bare(value_node), (A.Property, A.Wildcard, A.StreamWildcard)):
        raise scope.fail("Previous function requires an event property as parameter")
    k, read, t = _value(value_node, scope)
    acc = reqs.setdefault(k, StreamAccess())
    acc.prev = True
    holder = acc.holder

    if name == "prevcount":
        def prevcount(eps, _h=holder, _k=k):
            tr = _h.prev
            return None if tr is None else tr.count(eps[_k], eps)
        return Compiled(prevcount, T.LONG)
    if name == "prevwindow":
        def prevwindow(eps, _h=holder, _r=read, _k=k):
            tr = _h.prev
            if tr is None:
                return None
            events = tr.window_newest_first(eps[_k], eps)
            if not events:
                return None
            return [_r(e, eps) for e in events]
        return Compiled(prevwindow, T.array_of(t))
    tail = name == "prevtail"
    if index_fn is None or index_const is not None:
        i = index_const

        if tail:
            def prev_tail(eps, _h=holder, _i=i, _r=read, _k=k):
                tr = _h.prev
                if tr is None:
                    return None
                ev = tr.tail(_i, eps[_k], eps)
                return None if ev is None else _r(ev, eps)
            return Compiled(prev_tail, t)

        def prev(eps, _h=holder, _i=i, _k=k, _r=read):
            tr = _h.prev
            if tr is None:
                return None
            ev = tr.at(_i, eps[_k], eps)
            return None if ev is None else _r(ev, eps)
        return Compiled(prev, t)

    def prev_expr(eps, _h=holder, _f=index_fn, _k=k, _r=read, _tail=tail):
        tr = _h.prev
        if tr is None:
            return None
        i = _f(eps)
        if not isinstance(i, int) or isinstance(i, bool):
            # Esper takes the number's intValue(): a double index truncates; null is null
            if not isinstance(i, (float, Decimal)) or i != i or i in (_INF, -_INF):
                return None
            i = int(i)
        ev = tr.tail(i, eps[_k], eps) if _tail else tr.at(i, eps[_k], eps)
        return None if ev is None else _r(ev, eps)
    return Compiled(prev_expr, t)


def _evaluation_context(node: A.Call, scope: Scope, reqs: dict) -> Compiled:
    """current_evaluation_context(): Esper's EPLExpressionEvaluationContext as a map: runtime
    URI, statement name, context partition id (-1 outside a context), statement user object."""
    if node.args:
        raise scope.fail("The 'current_evaluation_context' function takes no parameters")
    acc = reqs.setdefault(0, StreamAccess())
    acc.istream = True               # the stream's tracker knows the statement instance
    holder = acc.holder
    context = scope.context_holder

    def evaluation_context(eps, _h=holder, _c=context):
        chain = _h.prior
        stmt = getattr(getattr(chain, "ctx", None), "statement", None)
        props = getattr(_c, "properties", None) if _c is not None else None
        cp = props.get("id") if isinstance(props, dict) else None
        return {"runtimeURI": "default", "statementName": getattr(stmt, "name", None),
                "contextPartitionId": -1 if cp is None else cp,
                "statementUserObject": getattr(stmt, "user_object", None)}
    return Compiled(evaluation_context, T.MAP)


def _identity_equals(node: A.Call, scope: Scope) -> Compiled:
    """event_identity_equals(a, b): whether two streams hold the very same event."""
    ks = [_event_arg(a, scope) for a in node.args]
    if len(ks) != 2 or any(k is None for k in ks):
        raise scope.fail("The 'event_identity_equals' function requires two stream names as parameters")
    a, b = ks

    def same(eps, _a=a, _b=b):
        x, y = eps[_a], eps[_b]
        return x is not None and y is not None and (x is y or x.underlying is y.underlying)
    return Compiled(same, T.BOOLEAN)


def prev_holders(scope: Scope) -> tuple:
    """The holders of the streams whose prev-family functions the statement evaluates: its
    single-stream sink tells them which rows are the remove stream's."""
    reqs = getattr(scope.services, "access", None) or {}
    return tuple(acc.holder for acc in reqs.values() if acc.prev)


def attach(stream_plans: list, scope: Scope) -> list:
    """The stream plans with the trackers their prev/prior expressions need."""
    reqs = getattr(scope.services, "access", None)
    if not reqs:
        return stream_plans
    out = list(stream_plans)
    for k, acc in reqs.items():
        if k >= len(out):
            continue
        sp = out[k]
        views = list(sp.views)
        if acc.prev:
            refusal = prev_refusal(views)
            tracked = track_prev(views, acc.holder) if refusal is None else None
            if tracked is None:
                raise scope.fail(refusal or SINGLE_WINDOW)
            views = tracked
        if acc.prior_depth >= 0 or acc.istream:
            views = [PriorChainFactory(tuple(views), acc.holder, max(acc.prior_depth, 0))]
        out[k] = replace(sp, views=tuple(views))
    return out

