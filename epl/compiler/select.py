"""Select statements to plans: streams with their filters and views, where, the select
clause, the result-set kind, output and insert into."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.event_types import EventType, Representation
from engine.contracts.plans import InsertIntoPlan, StreamPlan
from epl.plans.select import SelectPlan

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from epl.plans.aggregation import AggregationPlan
from epl.plans.resultset import ResultSetPlan, RollupLevel, RowShape, SelectClause
from .aggregations import AggregationCollector
from .annotations import has, hints, priority, statement_name
from .compiled import Compiled
from .expressions import compile_expr, compile_predicate, expr_text
from .filters import compile_filter
from .result import CompiledStatement
from .scope import Scope, StreamInfo
from .views import compile_views, derived_stream

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

_SELECTORS = {None: "istream", A.StreamSelector.ISTREAM: "istream",
              A.StreamSelector.IRSTREAM: "irstream", A.StreamSelector.RSTREAM: "rstream"}


def base_scope(engine: "Runtime", streams: list[StreamInfo], text: str) -> Scope:
    return Scope(streams=streams, functions=engine.functions,
                 variables=engine.services.variables, epl=text, services=_Services(engine))


class _Services:
    """What compiled expressions may ask of the engine at runtime."""

    __slots__ = ("engine", "subqueries", "access")

    def __init__(self, engine: "Runtime") -> None:
        self.engine = engine
        self.subqueries: list = []   # subquery window plans of the statement being compiled
        self.access: dict = {}       # stream -> what its prev/prior expressions need

    def now(self) -> int:
        return self.engine.scheduler.now

    def special_function(self, node: A.Call, scope: Scope) -> Optional[Compiled]:
        hook = self.engine.features.function_hook
        return hook(node, scope) if hook is not None else None

    def special_dot(self, node: A.Dot, scope: Scope) -> Optional[Compiled]:
        hook = self.engine.features.dot_hook
        return hook(node, scope) if hook is not None else None


def resolve_stream_type(engine: "Runtime", name: str, text: str) -> EventType:
    et = engine.types.find(name)
    if et is None:
        raise EPLValidationError(
            f"Failed to resolve event type, named window or table by name '{name}'", text)
    return et


def compile_select(node: A.SelectStatement, engine: "Runtime", text: str, *,
                   context: Any = None) -> CompiledStatement:
    """`context` (contexts service): an object with `type` and `holder` for `context.x`."""
    if node.from_ is None:
        raise EPLValidationError("A select statement needs a from clause", text)
    streams: list[StreamInfo] = []
    containers: dict[int, Any] = {}     # contained-event streams: (container info, splitter)
    stream_specs = node.from_.streams
    for i, spec in enumerate(stream_specs):
        if isinstance(spec, A.FilterStream) and getattr(spec, "contained", None):
            from .contained import contained_stream
            et = resolve_stream_type(engine, spec.event_filter.type_name, text)
            info, containers[i] = contained_stream(i, spec, et, text)
            streams.append(info)
        elif isinstance(spec, A.FilterStream):
            et = resolve_stream_type(engine, spec.event_filter.type_name, text)
            streams.append(StreamInfo(i, et, spec.alias, spec.event_filter.type_name))
        else:
            streams.append(engine.services.patterns.stream_info(i, spec, engine, text))
    scope = base_scope(engine, streams, text)
    if context is not None:
        scope.context_type, scope.context_holder = context.type, context.holder

    # match_recognize ends the stream's view chain; the rest of the statement reads its rows
    mr_factory = None
    mr = node.from_.match_recognize
    if mr is not None:
        from .rowrecog import compile_match_recognize, check_match_recognize_stream
        check_match_recognize_stream(node, streams, engine, text)
        mr_factory, mr_type = compile_match_recognize(mr, streams[0], scope, statement_name(node.annotations) or "anonymous")

    # streams: filters and views
    stream_plans = []
    union_hint = "retain-union" in hints(node.annotations)
    for info, spec in zip(list(streams), stream_specs):
        views = compile_views(spec.views, info, scope,
                              retain_union=union_hint or getattr(spec, "retain_union", False))
        streams[info.index] = derived_stream(views, info)
        if mr_factory is not None:
            views = tuple(views) + (mr_factory,)
        nw = engine.services.named_windows
        if isinstance(spec, A.FilterStream) and nw is not None and nw.get(info.type_name) is not None:
            from .window_streams import consumer_stream
            stream_plans.append(consumer_stream(nw, info, spec, views, scope))
        elif isinstance(spec, A.FilterStream) and info.index in containers:
            container, split = containers[info.index]
            filt = compile_filter(spec.event_filter.filter, container, scope)
            stream_plans.append(StreamPlan(info.index, info.event_type, info.alias, filt, views,
                                           spec.unidirectional, contained=split))
        elif isinstance(spec, A.FilterStream):
            filt = compile_filter(spec.event_filter.filter, info, scope)
            stream_plans.append(StreamPlan(info.index, info.event_type, info.alias, filt, views,
                                           spec.unidirectional))
        else:
            stream_plans.append(engine.services.patterns.stream_plan(info, spec, views, scope, engine, text))

    if mr_factory is not None:
        streams[0] = StreamInfo(0, mr_type, None, mr_type.name)
        sp0 = stream_plans[0]
        if sp0.named_window is not None and len(sp0.views) == 2:
            mr_factory.prime_from = sp0.views[0]   # a named window's rows present at start
    where = compile_predicate(node.where, scope) if node.where is not None else None

    # select clause and aggregation
    collector = AggregationCollector(engine.aggregations)
    collector.into_table = node.into_table is not None
    agg_scope = Scope(streams=streams, functions=scope.functions, variables=scope.variables,
                      epl=text, services=scope.services, allow_aggregation=True, aggregations=collector,
                      context_type=scope.context_type, context_holder=scope.context_holder)
    rollup = any(isinstance(g, A.GroupingSet) for g in node.group_by)
    level_exprs = _expand_grouping(node.group_by) if rollup else None
    group_exprs: list[A.Expr] = []
    if rollup:
        seen_texts: set[str] = set()
        for level in level_exprs:
            for g in level:
                if expr_text(g) not in seen_texts:
                    seen_texts.add(expr_text(g))
                    group_exprs.append(g)
    else:
        group_exprs = list(node.group_by)
    if rollup:   # grouping()/grouping_id() of the base select read as "everything grouped"
        agg_scope.grouped_texts = frozenset(expr_text(g) for g in group_exprs)
    names: list[str] = []
    fns: list[Any] = []
    types: list[PropertyType] = []
    exprs: list[A.Expr] = []
    wildcard_streams: list[tuple[int, Optional[str]]] = []
    passthrough = False
    items = node.select.items
    for item in items:
        e = item.expr
        if isinstance(e, A.Wildcard):
            if len(streams) == 1:
                wildcard_streams.append((0, None))
            else:
                for s in streams:
                    wildcard_streams.append((s.index, s.alias or s.type_name))
            continue
        if isinstance(e, A.StreamWildcard):
            s = scope.stream_by_alias(e.stream)
            if s is None:
                raise EPLValidationError(f"Stream selector '{e.stream}.*' does not match any stream name in the from clause", text)
            wildcard_streams.append((s.index, s.alias or s.type_name))
            continue
        c = compile_expr(e, agg_scope)
        name = item.alias or _column_name(e)
        if name in names:
            raise EPLValidationError(f"Column name '{name}' appears more than once in the select clause", text)
        names.append(name)
        fns.append(c.fn)
        types.append(c.type)
        exprs.append(e)

    if len(streams) == 1 and wildcard_streams == [(0, None)] and not names:
        passthrough = True
        out_type = streams[0].event_type
        columns = out_type.property_names
    else:
        props: dict[str, PropertyType] = {}
        if len(streams) == 1 and (0, None) in wildcard_streams:
            props.update(streams[0].event_type.properties)
        else:
            for idx, alias in wildcard_streams:
                props[alias] = PropertyType(EPLType.EVENT, event_type=streams[idx].event_type)
        props.update(zip(names, types))
        sname = statement_name(node.annotations) or "anonymous"
        out_type = EventType(f"{sname}_out", Representation.MAP, props)
        columns = tuple(props)

    # group by
    plain_scope = Scope(streams=streams, functions=scope.functions, variables=scope.variables,
                        epl=text, services=scope.services, context_type=scope.context_type,
                        context_holder=scope.context_holder)
    group_compiled = [compile_expr(g, plain_scope) for g in group_exprs]

    having = None
    if node.having is not None:
        having = compile_predicate(node.having, agg_scope)

    # order by may name select aliases
    order_keys = []
    for o in node.order_by:
        oe = o.expr
        while isinstance(oe, A.Parens):
            oe = oe.inner
        if isinstance(oe, A.Property) and len(oe.path) == 1 and oe.path[0].name in names \
                and not _is_stream_property(oe, streams):
            fn = fns[names.index(oe.path[0].name)]
        else:
            fn = compile_expr(oe, agg_scope).fn
        order_keys.append((fn, o.descending))

    limit = offset = None
    if node.limit is not None:
        limit = _constant_int(node.limit.count, scope, "limit")
        offset = _constant_int(node.limit.offset, scope, "offset") if node.limit.offset is not None else 0

    selector = _SELECTORS[node.select.selector]
    ins_plan, new_types = _insert_into(node.insert_into, engine, out_type, names, types, passthrough, text)
    want_new = selector in ("istream", "irstream") or (ins_plan is not None and ins_plan.selector != "rstream")
    want_old = selector in ("irstream", "rstream") or (ins_plan is not None and ins_plan.selector != "istream")

    shape = RowShape(having, tuple(order_keys), node.select.distinct, limit, offset or 0)
    select_clause = SelectClause(tuple(names), tuple(fns), out_type, passthrough,
                                 tuple(wildcard_streams) if not passthrough else ())
    if rollup:
        result_set = _rollup_plan(level_exprs, group_exprs, node, agg_scope, plain_scope, collector,
                                  select_clause, shape, want_new, want_old, names, stream_plans)
    else:
        result_set = _result_set_plan(collector, select_clause, shape, want_new, want_old,
                                      exprs, group_exprs, group_compiled, node, streams, stream_plans,
                                      engine=engine, text=text)

    output = None
    if node.output is not None:
        from epl.compiler.output import compile_output
        output = compile_output(node.output, node, scope, text)

    from .access import attach, check_not_in_filters, prev_holders
    check_not_in_filters(node.where, node.having, bool(collector), scope)
    stream_plans = attach(stream_plans, scope)
    holders = prev_holders(scope)
    join = None
    if len(streams) > 1:
        join = engine.features.join_compiler(node, streams, stream_plans, where, scope, text)

    plan = SelectPlan(streams=tuple(stream_plans), where=where if join is None else None,
                      result_set=result_set, out_type=out_type, columns=tuple(columns),
                      passthrough=passthrough, selector=selector, insert_into=ins_plan,
                      output=output, join=join, context=node.context,
                      extra={"subqueries": tuple(scope.services.subqueries)} if scope.services.subqueries else {})
    if holders:
        plan.extra["prev_holders"] = holders
    from .guard import runs_user_aggregations
    if runs_user_aggregations(node, engine):     # rolled back when it fails (engine/rollback.py)
        plan.extra["guarded"] = True
    if node.into_table is not None:      # `into table T select ...`: aggregate into T's rows
        from .into_table import compile_into_table
        plan = compile_into_table(plan, node, engine, text)
    on_create = []
    for nt in new_types:
        on_create.append((lambda _t=nt: engine.types.add(_t), lambda _t=nt: engine.types.remove(_t.name)))
    return CompiledStatement("select", plan, statement_name(node.annotations), priority(node.annotations),
                             has(node.annotations, "drop"), node.annotations, on_create)


def _column_name(e: A.Expr) -> str:
    """A select item's column name: its text, a backquoted property name without the quotes."""
    if isinstance(e, A.Property) and all(s.index is None and s.key is None and not s.dynamic
                                         for s in e.path):
        return e.dotted
    return expr_text(e)


def _is_stream_property(p: A.Property, streams: list[StreamInfo]) -> bool:
    return any(s.event_type.property_type(p.path[0].name) is not None for s in streams)


def _constant_int(e: A.Expr, scope: Scope, what: str) -> int:
    c = compile_expr(e, scope)
    if not c.is_constant or not isinstance(c.constant, int):
        raise EPLValidationError(f"The {what} must be an integer constant", scope.epl)
    return c.constant


def _uses_ungrouped_property(e: Any, group_texts: set[str], registry: Any = None) -> bool:
    """Whether an expression reads a stream property outside aggregations (of `registry`, the
    runtime's aggregation functions) and group keys."""
    from engine.contracts.aggregation import is_aggregation
    from ..ast.walk import walk

    def stop(n: Any) -> bool:   # below these nothing counts
        if isinstance(n, A.Expr) and group_texts and expr_text(n) in group_texts:
            return True
        if isinstance(n, A.Call) and is_aggregation(n.name.lower(), registry) and not (
                n.name.lower() in ("max", "min") and len(n.args) >= 2):
            return True
        return isinstance(n, (A.Property, A.Lambda))
    for n in walk(e, prune=stop):   # iterative: 10,000-term chains
        if isinstance(n, A.Property) and not (group_texts and expr_text(n) in group_texts):
            # `context.label` is the same for every event of a partition, like a constant
            if not (len(n.path) > 1 and n.path[0].name == "context"):
                return True
        elif isinstance(n, A.Lambda):
            # inside a lambda, its parameters and unqualified names (which read its event
            # first) are no stream properties; a name qualified by a stream alias is
            if any(isinstance(m, A.Property) and len(m.path) > 1 and m.path[0].name not in n.params
                   and m.path[0].name != "context" for m in walk(n.body)):
                return True
    return False


def _result_set_plan(collector, select, shape, want_new, want_old, exprs, group_exprs,
                     group_compiled, node, streams, stream_plans, engine=None, text="") -> ResultSetPlan:
    """The result-set kind and its parts (Esper's output model, engine/resultset/processors.py)."""
    has_agg = bool(collector.entries)
    group_texts = {expr_text(g) for g in group_exprs}
    # aggregations registered with `register_aggregation` aggregate too (engine.aggregations)
    registry = getattr(engine, "aggregations", None) or collector.user_registry or None
    ungrouped_props = any(_uses_ungrouped_property(e, group_texts, registry=registry)
                          for e in exprs) or \
        any(isinstance(i.expr, (A.Wildcard, A.StreamWildcard)) for i in node.select.items)
    # unbounded streams (no data window) keep their groups; windows reclaim empty groups
    reclaim = all(sp.views for sp in stream_plans)
    from .annotations import group_reclaim
    override, aged_ms, freq_ms = group_reclaim(getattr(node, "annotations", ()), text)
    if override is not None:
        reclaim = override
    if not group_exprs:
        if not has_agg:
            return ResultSetPlan("simple", select, shape, want_new, want_old)
        kind = "aggregated-ungrouped" if ungrouped_props else "row-for-all"
        return ResultSetPlan(kind, select, shape, want_new, want_old,
                             AggregationPlan(tuple(collector.entries), collector.ctx, reclaim))
    key_fns = tuple(c.fn for c in group_compiled)
    key_types = tuple(c.type for c in group_compiled)
    if len(key_fns) == 1:
        key_of = key_fns[0]
    else:
        def key_of(eps, _fns=key_fns):
            return tuple(f(eps) for f in _fns)
    kind = "aggregated-grouped" if ungrouped_props else "row-per-group"
    clock = None
    if aged_ms is not None and engine is not None:
        now = type(engine).now.fget

        def clock(_now=now, _engine=engine):
            return _now(_engine)
    else:
        aged_ms = freq_ms = None
    aggregation = AggregationPlan(tuple(collector.entries), collector.ctx, reclaim, aged_ms, freq_ms, clock)
    return ResultSetPlan(kind, select, shape, want_new, want_old, aggregation,
                         key_of=key_of, key_types=key_types)


def _expand_grouping(elements) -> list[list[A.Expr]]:
    """Group-by elements to grouping levels: a plain expression joins every level; rollup(a, b)
    gives (a, b), (a), (); cube(a, b) gives (a, b), (a), (b), (); grouping sets list theirs."""
    from itertools import combinations, product

    def items_of(item) -> list[A.Expr]:
        return list(item) if isinstance(item, tuple) else [item]

    def sets_of(el) -> list[list[A.Expr]]:
        if isinstance(el, A.GroupingSet):
            if el.kind == "rollup":
                return [sum((items_of(i) for i in el.items[:n]), []) for n in range(len(el.items), -1, -1)]
            if el.kind == "cube":
                out = []
                for n in range(len(el.items), -1, -1):
                    for combo in combinations(el.items, n):
                        out.append(sum((items_of(i) for i in combo), []))
                return out
            out = []
            for item in el.items:
                out.extend(sets_of(item) if isinstance(item, A.GroupingSet) else [items_of(item)])
            return out
        return [items_of(el)]

    levels = [[]]
    for el in elements:
        levels = [a + b for a, b in product(levels, sets_of(el))]
    return levels


def _rollup_plan(level_exprs, group_exprs, node, agg_scope, plain_scope, collector, select,
                 shape, want_new, want_old, names, stream_plans) -> ResultSetPlan:
    from dataclasses import replace as _replace
    all_texts = frozenset(expr_text(g) for g in group_exprs)
    levels = []
    for level in level_exprs:
        texts = frozenset(expr_text(g) for g in level)
        lscope = _replace(agg_scope, null_texts=all_texts - texts, grouped_texts=texts)
        fns = [compile_expr(i.expr, lscope).fn for i in node.select.items
               if not isinstance(i.expr, (A.Wildcard, A.StreamWildcard))]
        sel = SelectClause(tuple(names), tuple(fns), select.out_type)
        having = compile_predicate(node.having, lscope) if node.having is not None else None
        order = []
        for o in node.order_by:
            oe = o.expr
            if isinstance(oe, A.Property) and len(oe.path) == 1 and oe.path[0].name in names:
                order.append((fns[names.index(oe.path[0].name)], o.descending))
            else:
                order.append((compile_expr(oe, lscope).fn, o.descending))
        key_fns = tuple(compile_expr(g, plain_scope).fn for g in level)
        key_of = (lambda eps, _f=key_fns: tuple(f(eps) for f in _f))
        levels.append(RollupLevel(key_of, sel, having, tuple(order)))
    reclaim = all(sp.views for sp in stream_plans)
    shape = RowShape(None, tuple((None, d) for _, d in levels[0].order_keys) if levels else (),
                     shape.distinct, shape.limit, shape.offset)
    return ResultSetPlan("row-per-group-rollup", select, shape, want_new, want_old,
                         AggregationPlan(tuple(collector.entries), collector.ctx, reclaim),
                         levels=tuple(levels))


def _insert_into(ins: Optional[A.InsertInto], engine: "Runtime", out_type: EventType, names: list[str],
                 types: list[PropertyType], passthrough: bool, text: str):
    if ins is None:
        return None, []
    selector = _SELECTORS[ins.selector]
    target = engine.types.find(ins.stream_name)
    # `select *, expr as y`: the wildcard's properties and the new columns (all of out_type)
    whole = passthrough or (not ins.columns and len(out_type.property_names) > len(names))
    cols = list(ins.columns) if ins.columns else list(out_type.property_names if whole else names)
    src = list(out_type.property_names) if whole else names
    if ins.columns and len(ins.columns) != len(src):
        raise EPLValidationError(
            f"Number of supplied values in the select or values clause does not match insert-into clause", text)
    new_types = []
    if target is not None and target.representation is Representation.VARIANT:
        from .variants import insert_into_variant
        return insert_into_variant(target, out_type, src, cols, selector, passthrough, text), []
    if target is None:
        if passthrough:
            target = EventType(ins.stream_name, out_type.representation, out_type.properties, (),
                               pyclass=out_type.pyclass) if out_type.representation is Representation.CLASS \
                else EventType(ins.stream_name, Representation.MAP, out_type.properties, ())
        else:
            props = {c: out_type.properties[s] for s, c in zip(src, cols)}
            target = EventType(ins.stream_name, Representation.MAP, props)
        new_types.append(target)
    else:
        for c in cols:
            if target.property_type(c) is None and not target.dynamic:
                raise EPLValidationError(
                    f"Event type named '{ins.stream_name}' has already been declared and does not "
                    f"have a property '{c}'", text)
    same = passthrough and (target is out_type or out_type.is_subtype_of(target))
    return InsertIntoPlan(target, tuple(zip(src, cols)), selector, passthrough=same), new_types
