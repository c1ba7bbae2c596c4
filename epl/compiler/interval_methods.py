"""Hooks application time into an engine: interval algebra methods in EPL expressions
(`a.before(b)`, `a.overlaps(b, 5 sec)`) through the compiler's `dot` service, chained in
front of any hook installed before."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.interval_algebra import RELATIONS, event_interval, interval_of

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def install(engine: "Runtime") -> None:
    previous: Optional[Callable] = engine.features.dot_hook

    def dot(node: Any, scope: Any) -> Any:
        if node.args is not None and node.name.lower() in RELATIONS:
            return compile_method(node, scope)
        return previous(node, scope) if previous is not None else None

    engine.features.dot_hook = dot


def _operand(node: Any, scope: Any) -> tuple[Callable[[Any], Any], bool, Any]:
    """(evaluate to an interval, has_aggregation, compiled-or-None) for a method target or
    argument: a bare stream alias is that stream's event; anything else is compiled."""
    import epl.ast as A
    from epl.compiler.core import compile_expr
    if isinstance(node, A.Property) and len(node.path) == 1 and node.path[0].index is None \
            and node.path[0].key is None:
        stream = scope.stream_by_alias(node.path[0].name)
        if stream is not None:
            i = stream.index

            def of_stream(eps, _i=i):
                b = eps[_i]
                return None if b is None else event_interval(b)
            return of_stream, False, None
    c = compile_expr(node, scope)
    fn = c.fn
    et = c.type.event_type if getattr(c.type, "event_type", None) is not None else None
    if et is not None:
        from engine.contracts.bean import EventBean

        def of_event(eps, _f=fn, _et=et):
            v = _f(eps)
            if v is None:
                return None
            return event_interval(v if isinstance(v, EventBean) else EventBean(_et, v))
        return of_event, c.has_aggregation, c
    return (lambda eps, _f=fn: interval_of(_f(eps))), c.has_aggregation, c


def compile_method(node: Any, scope: Any) -> Any:
    """Compile `target.method(other, thresholds...)` into a boolean expression."""
    import engine.contracts.epl_types as T
    from epl.compiler.compiled import Compiled
    from epl.compiler.core import compile_expr, expr_text

    name, relation, counts, non_negative = RELATIONS[node.name.lower()]
    args = list(node.args)
    if not args:
        raise scope.fail(f"Date-time method '{name}' requires an event or timestamp parameter")
    if len(args) - 1 not in counts:
        allowed = ", ".join(str(c) for c in counts)
        raise scope.fail(f"Date-time method '{name}' takes {allowed} threshold parameter(s) after "
                         f"the event or timestamp, received {len(args) - 1}")
    left, l_agg, _ = _operand(node.target, scope)
    right, r_agg, _ = _operand(args[0], scope)
    params = []
    agg = l_agg or r_agg
    for p in args[1:]:
        c = compile_expr(p, scope)
        if c.type.kind not in T.NUMERIC_RANK and c.type.kind is not T.EPLType.OBJECT:
            raise scope.fail(f"Date-time method '{name}' requires a time period or numeric "
                             f"threshold, received '{expr_text(p)}'")
        if c.is_constant and c.constant is not None and non_negative and c.constant < 0:
            raise scope.fail(f"The {name} date-time method does not allow negative threshold value")
        agg = agg or c.has_aggregation
        params.append(c)

    if all(p.is_constant for p in params):
        consts = [None if p.constant is None else int(p.constant) for p in params]
        if any(v is None for v in consts):
            return Compiled(lambda eps: None, T.BOOLEAN, has_aggregation=agg)

        def method(eps, _l=left, _r=right, _rel=relation, _p=consts):
            li = _l(eps)
            if li is None:
                return None
            ri = _r(eps)
            if ri is None:
                return None
            return _rel(li[0], li[1], ri[0], ri[1], _p)
        return Compiled(method, T.BOOLEAN, has_aggregation=agg)

    pfns = tuple(p.fn for p in params)

    def method_params(eps, _l=left, _r=right, _rel=relation, _pf=pfns):
        li = _l(eps)
        if li is None:
            return None
        ri = _r(eps)
        if ri is None:
            return None
        ps = []
        for f in _pf:
            v = f(eps)
            if v is None:
                return None
            ps.append(int(v))
        return _rel(li[0], li[1], ri[0], ri[1], ps)
    return Compiled(method_params, T.BOOLEAN, has_aggregation=agg)
