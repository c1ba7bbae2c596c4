"""A select clause over a fixed set of rows (on-select, fire-and-forget queries): the output
type, and the result-set plan whose processors turn the matched rows into output rows with
Esper's aggregation and grouping rules, evaluated once per trigger or query (the runtime's
`select_rows`, engine/resultset/rows.py, makes the processor and runs it)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence

from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.event_types import EventType, Representation
from engine.contracts.frozen import frozen_dataclass

import epl.ast as A
from epl.plans.resultset import ResultSetPlan, RowShape, SelectClause
from engine.contracts.errors import EPLValidationError
from .aggregations import AggregationCollector
from .expressions import compile_expr, compile_predicate, expr_text
from .scope import Scope, StreamInfo

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


@frozen_dataclass
class RowsPlan:
    """The select clause over matched events-per-stream tuples: its output type and columns,
    and the result-set plan."""

    out_type: EventType
    columns: tuple[str, ...]
    names: tuple[str, ...]
    types: tuple[PropertyType, ...]
    passthrough: bool
    result_set: ResultSetPlan


@dataclass
class _Node:
    """What the select compiler's processor factory reads off a statement node."""

    select: A.SelectClause


def compile_rows(engine: "Runtime", select: A.SelectClause, streams: list[StreamInfo], scope: Scope, name: str, *,
                 wildcard_stream: int = 0, group_by: Sequence[Any] = (), having: Optional[A.Expr] = None,
                 order_by: Sequence[A.OrderItem] = (), limit: Optional[int] = None,
                 offset: int = 0) -> RowsPlan:
    """Compile `select` over `streams`; `*` selects the properties of `wildcard_stream`."""
    from .select import _is_stream_property, _result_set_plan
    collector = AggregationCollector(engine.aggregations)
    agg_scope = Scope(streams=streams, functions=scope.functions, variables=scope.variables,
                      epl=scope.epl, services=scope.services, allow_aggregation=True,
                      aggregations=collector, context_type=scope.context_type,
                      context_holder=scope.context_holder)
    names: list[str] = []
    fns: list[Any] = []
    types: list[PropertyType] = []
    exprs: list[A.Expr] = []
    wildcards: list[tuple[int, Optional[str]]] = []
    for item in select.items:
        e = item.expr
        if isinstance(e, A.Wildcard):
            wildcards.append((wildcard_stream, None))
            continue
        if isinstance(e, A.StreamWildcard):
            s = scope.stream_by_alias(e.stream)
            if s is None:
                raise EPLValidationError(f"Stream selector '{e.stream}.*' does not match any stream name", scope.epl)
            wildcards.append((s.index, s.alias or s.type_name))
            continue
        c = compile_expr(e, agg_scope)
        col = item.alias or expr_text(e)
        if col in names:
            raise EPLValidationError(f"Column name '{col}' appears more than once in the select clause", scope.epl)
        names.append(col)
        fns.append(c.fn)
        types.append(c.type)
        exprs.append(e)
    props: dict[str, PropertyType] = {}
    for idx, alias in wildcards:
        if alias is None:
            props.update(streams[idx].event_type.properties)
        else:
            props[alias] = PropertyType(EPLType.EVENT, event_type=streams[idx].event_type)
    props.update(zip(names, types))
    passthrough = len(streams) == 1 and wildcards == [(0, None)] and not names
    if passthrough:
        out_type = streams[0].event_type
    elif wildcards == [(wildcard_stream, None)] and not names:
        out_type = streams[wildcard_stream].event_type     # the window's own events, copied
    else:
        out_type = EventType(f"{name}_out", Representation.MAP, props)
    plain = Scope(streams=streams, functions=scope.functions, variables=scope.variables,
                  epl=scope.epl, services=scope.services, context_type=scope.context_type,
                  context_holder=scope.context_holder)
    group_exprs = [g for g in group_by]
    group_compiled = [compile_expr(g, plain) for g in group_exprs]
    having_fn = compile_predicate(having, agg_scope) if having is not None else None
    order_keys = []
    for o in order_by:
        oe = o.expr
        while isinstance(oe, A.Parens):
            oe = oe.inner
        if isinstance(oe, A.Property) and len(oe.path) == 1 and oe.path[0].name in names \
                and not _is_stream_property(oe, streams):
            fn = fns[names.index(oe.path[0].name)]
        else:
            fn = compile_expr(oe, agg_scope).fn
        order_keys.append((fn, o.descending))
    shape = RowShape(having_fn, tuple(order_keys), select.distinct, limit, offset)
    clause = SelectClause(tuple(names), tuple(fns), out_type, passthrough,
                          () if passthrough else tuple(wildcards))
    result_set = _result_set_plan(collector, clause, shape, True, False, exprs, group_exprs,
                                  group_compiled, _Node(select), streams, [])
    return RowsPlan(out_type, tuple(props) if not passthrough else out_type.property_names,
                    tuple(names), tuple(types), passthrough, result_set)
