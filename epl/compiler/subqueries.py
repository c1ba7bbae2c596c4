"""Subqueries in expressions: `(select ...)` as a value, `exists (...)`, `x [not] in
(select ...)` and `x op any|some|all (...)`.

A subquery reads one stream with its own filter and data window, or a named window's or
table's current contents (a named window takes no data window of the subquery's own, as
in Esper). Its unqualified names
resolve to its own stream first (Esper's rule), then to the enclosing statement's streams
(correlation). Where-conditions on its own events only gate what enters its store;
equalities and ranges between its stream and outer streams become hash and sorted index
lookups (the same planner as joins); the rest is checked per candidate. Aggregations are
kept up to date with the window when the subquery is not correlated, and computed over the
matching events otherwise.

Each subquery registers its window plan with the statement being compiled
(`scope.services.subqueries`); the statement instance starts and stops it."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType
from epl.plans.aggregation import enter_row, fresh_row, shared_states
from epl.plans.subqueries import SubqueryPlan

import epl.ast as A
import epl.compiler.operators as O
from .aggregations import AggregationCollector
from .compiled import Compiled
from .expressions import compile_expr, compile_predicate, compiles, expr_text
from .filters import compile_filter
from .joins import IndexRegistry, analyze, conjuncts, plan_access
from .keylookup import key_lookup
from .scope import Scope, StreamInfo, _path_text
from .views import compile_views, derived_stream

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

_CMP = {A.BinOp.LT: "<", A.BinOp.LE: "<=", A.BinOp.GT: ">", A.BinOp.GE: ">="}


class CompiledSubquery:
    """A subquery compiled against one enclosing scope: `results(eps)` gives the values of
    its select clause (one per matching event, or per group when aggregating)."""

    def __init__(self, results: Callable[[Sequence[Any]], list], value_type: PropertyType,
                 columns: int, star: bool, single_row: bool = False) -> None:
        self.results = results
        self.value_type = value_type
        self.columns = columns
        self.star = star
        # aggregated without group by: always one row, unless the having clause removes it
        self.single_row = single_row


def _inner_scope(scope: Scope, sub: StreamInfo, **kw: Any) -> Scope:
    streams = [sub] + [StreamInfo(i + 1, s.event_type, s.alias, s.type_name)
                       for i, s in enumerate(scope.streams)]
    return Scope(streams=streams, functions=scope.functions, builtins=scope.builtins,
                 variables=scope.variables, context_type=scope.context_type, epl=scope.epl,
                 services=scope.services, builtins_holder=scope.builtins_holder,
                 context_holder=scope.context_holder, **kw)


def _qualifier(sub: StreamInfo, inner: Scope) -> Optional[str]:
    for name in (sub.alias, sub.type_name):
        if name and inner.stream_by_alias(name) is sub:
            return name
    return None


def _own_first(node: Any, sub: StreamInfo, inner: Scope, qual: Optional[str]) -> Any:
    """Qualify unqualified names that the subquery's stream and an outer stream both have,
    so that they read the subquery's stream (stream zero is unambiguous in Esper)."""
    if qual is None or len(inner.streams) == 1:
        return node
    from ..ast.walk import walk
    if not any(isinstance(n, A.Property) and _needs_qualifier(n, sub, inner)
               for n in walk(node, prune=lambda n: isinstance(n, A.Subquery))):
        return node     # nothing to qualify: no rebuild (which recurses per level)

    def fix(n: Any) -> Any:
        if isinstance(n, A.Subquery):
            return n        # nested subqueries resolve their own names
        if isinstance(n, A.Property):
            segs = n.path
            if len(segs) > 1 and inner.stream_by_alias(segs[0].name) is not None:
                return n
            path = _path_text(segs)
            if sub.event_type.property_type(path) is not None and any(
                    s.event_type.property_type(path) is not None for s in inner.streams[1:]):
                return A.Property((A.PropSeg(qual),) + tuple(segs), n.span)
            return n
        if isinstance(n, A.BinaryOp):
            # down the left spine in a loop: 10,000-term chains do not recurse per term
            spine, cur = [], n
            while isinstance(cur, A.BinaryOp):
                spine.append(cur)
                cur = cur.left
            new = fix(cur)
            for s in reversed(spine):
                right = fix(s.right)
                if new is not s.left or right is not s.right:
                    s = dataclasses.replace(s, left=new, right=right)
                new = s
            return new
        if not dataclasses.is_dataclass(n) or isinstance(n, type):
            return n
        changes = {}
        for f in dataclasses.fields(n):
            if f.name == "span":
                continue
            v = getattr(n, f.name)
            nv = _fix_value(v, fix)
            if nv is not v:
                changes[f.name] = nv
        return dataclasses.replace(n, **changes) if changes else n
    return fix(node)


def _needs_qualifier(n: A.Property, sub: StreamInfo, inner: Scope) -> bool:
    segs = n.path
    if len(segs) > 1 and inner.stream_by_alias(segs[0].name) is not None:
        return False
    path = _path_text(segs)
    return sub.event_type.property_type(path) is not None and any(
        s.event_type.property_type(path) is not None for s in inner.streams[1:])


def _fix_value(v: Any, fix: Callable[[Any], Any]) -> Any:
    if isinstance(v, A.Node):
        return fix(v)
    if isinstance(v, tuple):
        items = [_fix_value(x, fix) for x in v]
        return tuple(items) if any(a is not b for a, b in zip(items, v)) else v
    return v


def compile_subquery(node: A.Subquery, scope: Scope) -> CompiledSubquery:
    services = scope.services
    registry_list = getattr(services, "subqueries", None)
    engine = getattr(services, "engine", None)
    if registry_list is None or engine is None:
        raise scope.fail("Subqueries are not supported in this context")
    sel: A.SelectStatement = node.select
    if sel.from_ is None or len(sel.from_.streams) != 1:
        raise scope.fail("A subquery selects from exactly one stream (joins are not allowed in subqueries)")
    spec = sel.from_.streams[0]
    if not isinstance(spec, A.FilterStream):
        raise scope.fail("A subquery selects from an event stream, not a pattern")
    et = engine.types.find(spec.event_filter.type_name)
    if et is None:
        raise scope.fail(f"Failed to resolve event type, named window or table by name "
                         f"'{spec.event_filter.type_name}'")
    sub = StreamInfo(0, et, spec.alias, spec.event_filter.type_name)
    inner = _inner_scope(scope, sub)
    qual = _qualifier(sub, inner)
    n_outer = len(scope.streams)
    n = n_outer + 1
    number = len(registry_list) + 1
    infra = _infra(spec.event_filter.type_name, scope, engine, number)
    table_source = infra is not None and infra.is_table

    filt = compile_filter(spec.event_filter.filter, sub, inner)
    views = compile_views(spec.views, sub, inner, retain_union=getattr(spec, "retain_union", False))
    accept = None
    if infra is not None:
        if views and (table_source or any(getattr(f, "is_data_window", False) for f in views)):
            why = "Views are not supported with tables" if table_source else \
                "Consuming statements to a named window cannot declare a data window view " \
                "onto the named window"
            raise scope.fail(f"Failed to plan subquery number {number} querying {infra.name}: {why}")
        if spec.event_filter.filter is not None:
            own_scope = _inner_scope(scope, sub)
            own_scope.streams = [sub]
            pred = compile_predicate(spec.event_filter.filter, own_scope)
            accept = lambda bean, _p=pred: _p((bean,))  # noqa: E731

    derived = derived_stream(views, sub)    # `(select average from X#uni(v))`: the view's type
    if derived is not sub:
        sub = derived
        inner = _inner_scope(scope, sub)
        qual = _qualifier(sub, inner)

    # where: own-stream conditions gate the store; the rest correlate
    where_nodes = [_own_first(c, sub, inner, qual) for c in conjuncts(sel.where)]
    conds = analyze(where_nodes, inner)
    own = [c for c in conds if c.refs is not None and c.refs and c.refs <= {0}]
    rest = [c for c in conds if c not in own]
    registry = IndexRegistry(inner, n)
    outer_streams = frozenset(range(1, n))
    access, _ = plan_access(0, outer_streams, rest, registry, inner)
    residual = tuple(c.pred for c in rest)
    # a table is read where it stands: its primary key or an index answers equalities
    table_key = key_lookup(where_nodes, infra, inner, 0) if table_source else ((), ())
    gate_preds = tuple(c.pred for c in own)
    if not gate_preds:
        gate = None
    elif len(gate_preds) == 1:
        gate = gate_preds[0]
    else:
        def gate(eps, _ps=gate_preds):
            for p in _ps:
                if not p(eps):
                    return False
            return True

    # select clause, group by, having
    collector = AggregationCollector(engine.aggregations)
    agg_scope = _inner_scope(scope, sub, allow_aggregation=True, aggregations=collector)
    items = sel.select.items
    star = len(items) == 1 and isinstance(items[0].expr, A.Wildcard)
    fns: list[Callable] = []
    names: list[str] = []
    types: list[PropertyType] = []
    if star:
        value_type = PropertyType(EPLType.EVENT, event_type=et)
    else:
        for item in items:
            if isinstance(item.expr, (A.Wildcard, A.StreamWildcard)):
                raise scope.fail("A subquery selecting several columns cannot use a wildcard")
            c = compile_expr(_own_first(item.expr, sub, inner, qual), agg_scope)
            fns.append(c.fn)
            names.append(item.alias or expr_text(item.expr))
            types.append(c.type)
        value_type = types[0] if len(types) == 1 else T.MAP
    group_fns = tuple(compile_expr(_own_first(g, sub, inner, qual), inner).fn
                      for g in sel.group_by if not isinstance(g, A.GroupingSet))
    having = None
    if sel.having is not None:
        hc = compile_expr(_own_first(sel.having, sub, inner, qual), agg_scope)
        having = hc.fn
    aggregated = bool(collector.entries)
    if sel.group_by and not aggregated:
        raise scope.fail("A subquery with group by must select aggregation functions")
    correlated = access.kind != "scan" or bool(residual)
    # uncorrelated aggregation follows the window; otherwise it is computed per evaluation
    incremental = aggregated and not correlated and not group_fns and \
        not _aggregates_outer(items, inner) and not table_source
    retain = not (incremental and not views)

    signature = (tuple((s.kind, s.stream, s.key_text) for s in registry.specs),
                 tuple(expr_text(c.node) for c in own),
                 tuple(expr_text(i.expr) for i in items) if incremental else (), retain)
    plan = None
    for p in registry_list:
        if p.node is node and p.signature == signature:
            plan = p
            break
    if plan is None:
        plan = SubqueryPlan(et, filt, views, tuple(registry.specs), gate, (None,) * n_outer,
                            tuple(collector.entries) if incremental else (), retain,
                            node=node, signature=signature, infra=infra, accept=accept,
                            partitioned=getattr(infra, "context", None) is not None)
        registry_list.append(plan)
    holder = plan.holder
    if scope.context_holder is not None:
        holder.context = scope.context_holder      # each partition has its own runtime
    current = holder.current
    ctx = collector.ctx

    # -- evaluation -------------------------------------------------------------------
    key_columns, key_fns = table_key

    def table_rows(rt: Any, outer: tuple) -> list:
        """The (partition's) table rows passing the subquery's filter and own conditions,
        looked up by key when the where-clause binds an index's columns."""
        source = rt.source
        if source is None:
            return []
        rows = None
        if key_columns:
            eps = (None,) + outer
            rows = source.lookup(key_columns, tuple(f(eps) for f in key_fns))
        if rows is None:
            rows = source
        pad = (None,) * n_outer
        return [b for b in rows if (accept is None or accept(b))
                and (gate is None or gate((b,) + pad))]

    def matches(outer: Sequence[Any]) -> list:
        rt = current()
        if rt is None:
            return []
        outer = tuple(outer)
        if table_source:
            cands = table_rows(rt, outer)    # residual re-checks every correlation condition
        else:
            cands = access.candidates(rt.indexes, rt.stores, (None,) + outer)
        out = []
        for b in cands:
            eps = (b,) + outer
            for p in residual:
                if not p(eps):
                    break
            else:
                out.append(eps)
        return out

    def project(eps: Sequence[Any]) -> Any:
        if star:
            return eps[0]
        if len(fns) == 1:
            return fns[0](eps)
        return {nm: f(eps) for nm, f in zip(names, fns)}

    if not aggregated:
        def results(outer: Sequence[Any]) -> list:
            return [project(eps) for eps in matches(outer)]
    elif incremental:
        def results(outer: Sequence[Any]) -> list:
            rt = current()
            if rt is None or rt.agg_row is None:
                return []
            ctx.row = rt.agg_row
            eps = (None,) + tuple(outer)
            if having is not None and having(eps) is not True:
                return []
            return [project(eps)]
    else:
        entries = tuple(collector.entries)

        def results(outer: Sequence[Any]) -> list:
            found = matches(outer)
            shared = shared_states(entries)     # one aggregation per evaluation
            if group_fns:
                groups: dict[Any, tuple[list, Any]] = {}
                for eps in found:
                    key = tuple(g(eps) for g in group_fns)
                    entry = groups.get(key)
                    if entry is None:
                        entry = groups[key] = (fresh_row(entries, shared), eps)
                    enter_row(entries, entry[0], eps)
                    groups[key] = (entry[0], eps)
                rows = list(groups.values())
            else:
                row = fresh_row(entries, shared)
                for eps in found:
                    enter_row(entries, row, eps)
                rows = [(row, found[-1] if found else (None,) + tuple(outer))]
            out = []
            for row, eps in rows:
                ctx.row = row
                if having is not None and having(eps) is not True:
                    continue
                out.append(project(eps))
            return out
    out = CompiledSubquery(results, value_type, 0 if star else len(fns), star,
                           bool(aggregated) and not group_fns)
    out.columns_typed = dict(zip(names, types))    # several columns: each row's columns
    return out


def _infra(name: str, scope: Scope, engine: "Runtime", number: int) -> Any:
    """The named window or table `name` (None for other streams); one declared with a
    context is usable only from a statement of that same context (Esper's rule)."""
    svc = engine.services.named_windows
    infra = svc.get(name) if svc is not None else None
    declared = getattr(infra, "context", None)
    if declared is None:
        return infra
    contexts = engine.services.contexts
    definition = contexts.get(declared) if contexts is not None else None
    if scope.context_holder is None or definition is None or \
            scope.context_type is not definition.context_type:
        raise scope.fail(f"Failed to validate subquery number {number} querying {name}: "
                         f"{infra.kind} by name '{name}' has been declared for context "
                         f"'{declared}' and can only be used within the same context")
    return infra


def _aggregates_outer(items: Sequence[A.SelectItem], inner: Scope) -> bool:
    """Whether an aggregation of the select clause reads an outer stream."""
    from engine.contracts.aggregation import is_aggregation
    from .joins import stream_refs

    from ..ast.walk import walk

    registry = getattr(getattr(inner.services, "engine", None), "aggregations", None)

    def stop(n: Any) -> bool:
        return isinstance(n, A.Subquery) or (isinstance(n, A.Call) and is_aggregation(n.name.lower(), registry))
    for item in items:
        for n in walk(item.expr, prune=stop):     # iterative: long chains
            if isinstance(n, A.Call) and is_aggregation(n.name.lower(), registry):
                refs = stream_refs(n, inner)
                if refs is None or bool(refs - {0}):
                    return True
    return False


def _single_column(sq: CompiledSubquery, scope: Scope, what: str) -> None:
    if sq.star or sq.columns != 1:
        raise scope.fail(f"Subquery {what} must select exactly one column")


# -- expression forms ------------------------------------------------------------------------

@compiles(A.Subquery)
def _scalar(node: A.Subquery, scope: Scope) -> Compiled:
    """The subquery's single value: null when no row or more than one row matches."""
    sq = compile_subquery(node, scope)
    results = sq.results

    def value(eps):
        rows = results(eps)
        return rows[0] if len(rows) == 1 else None
    return Compiled(value, sq.value_type)


@compiles(A.Exists)
def _exists(node: A.Exists, scope: Scope) -> Compiled:
    results = compile_subquery(node.subquery, scope).results
    return Compiled(lambda eps: bool(results(eps)), T.BOOLEAN)


@compiles(A.InSubquery)
def _in_subquery(node: A.InSubquery, scope: Scope) -> Compiled:
    x = compile_expr(node.operand, scope)
    sq = compile_subquery(node.subquery, scope)
    _single_column(sq, scope, "in an 'in' expression")
    xf, results, neg = x.fn, sq.results, node.negated
    # Esper: the one row of an aggregated subquery removed by its having clause gives null
    empty = None if sq.single_row else neg

    def f(eps):
        values = results(eps)
        if not values:
            return empty
        v = xf(eps)
        if v is None:
            return None
        unknown = False
        for w in values:
            if w is None:
                unknown = True
            elif w == v:
                return not neg
        return None if unknown else neg
    return Compiled(f, T.BOOLEAN)


def _comparer(op: A.BinOp, scope: Scope) -> Callable[[Any, Any], Optional[bool]]:
    if op is A.BinOp.EQ:
        return O.equals
    if op is A.BinOp.NE:
        return lambda a, b: None if a is None or b is None else a != b
    sym = _CMP.get(op)
    if sym is None:
        raise scope.fail(f"Operator '{op.value}' cannot be used with any, some or all")
    return lambda a, b, _s=sym: O.compare(_s, a, b)


@compiles(A.Quantified)
def _quantified(node: A.Quantified, scope: Scope) -> Compiled:
    """`x op any|some (...)`: true when some comparison is true (false when none match);
    `x op all (...)`: true when every comparison is (true when nothing matches). Null
    comparisons make the result null when they decide it, as in SQL."""
    x = compile_expr(node.operand, scope)
    cmp = _comparer(node.op, scope)
    if isinstance(node.source, A.Subquery):
        sq = compile_subquery(node.source, scope)
        _single_column(sq, scope, f"in an '{node.quantifier.value}' expression")
        values_of = sq.results
    else:
        parts = [compile_expr(e, scope) for e in node.source]
        pfns = tuple(p.fn for p in parts)

        def values_of(eps, _fs=pfns):
            out = []
            for f in _fs:
                v = f(eps)
                if isinstance(v, (list, tuple, set, frozenset)):
                    out.extend(v)
                else:
                    out.append(v)
            return out
    xf = x.fn
    if node.quantifier is A.Quantifier.ALL:
        def f(eps):
            values = values_of(eps)
            if not values:
                return True
            v = xf(eps)
            return O.and3(cmp(v, w) for w in values)
    else:
        def f(eps):
            values = values_of(eps)
            if not values:
                return False
            v = xf(eps)
            return O.or3(cmp(v, w) for w in values)
    return Compiled(f, T.BOOLEAN)
