"""On-statements to plans: `on <event filter or pattern> [as alias]` followed by select,
delete, update or merge against a named window or table, or set against variables.

Expressions see two streams: the trigger (index 0, by its alias or type name) and the target
(index 1, by its alias or name); a not-matched merge clause sees the trigger alone."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.event_types import EventType, Representation
from engine.contracts.variable_values import assignable, check_value

import epl.ast as A
from epl.plans.onactions import (
    MatchPlan, MergeClause, MergeStep, OnDeletePlan, OnMergePlan, OnPlan, OnSelectPlan, OnSetPlan,
    OnUpdatePlan,
)
from engine.contracts.errors import EPLValidationError
from .annotations import has, priority, statement_name
from .expressions import compile_expr, compile_predicate, expr_text
from .filters import compile_filter
from .keylookup import equalities, key_lookup
from .result import CompiledStatement
from .rowselect import compile_rows
from .scope import Scope, StreamInfo
from .select import _Services, _insert_into, base_scope, resolve_stream_type
from .windows import check_context_use, insert_target

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


# the services of the on-statement being compiled: every scope of it shares them, so the
# subqueries of its trigger filter, where-clause, select and assignments are collected once
_COMPILING: list = []


def _base(engine: "Runtime", streams: list, text: str) -> Scope:
    scope = base_scope(engine, streams, text)
    if _COMPILING:
        scope.services = _COMPILING[-1]
    return scope


def compile_on(node: A.OnStatement, engine: "Runtime", text: str, context: Any = None) -> CompiledStatement:
    """`context` (contexts service, compiling `context X on ...`): an object with `type` and
    `holder` for `context.x`."""
    if node.context is not None and context is None:
        from .contexts import compile_context_on
        return compile_context_on(node, engine, text)
    services = _Services(engine)
    _COMPILING.append(services)
    try:
        compiled = _compile_on(node, engine, text, context)
    finally:
        _COMPILING.pop()
    if services.subqueries:
        import dataclasses
        plan = dataclasses.replace(compiled.plan, subqueries=tuple(services.subqueries))
        compiled = dataclasses.replace(compiled, plan=plan)
    return compiled


def _compile_on(node: A.OnStatement, engine: "Runtime", text: str, context: Any) -> CompiledStatement:
    trigger_info, trigger_filter, trigger_pattern = _trigger(node, engine, text, context)
    action = node.action
    name = statement_name(node.annotations) or "anonymous"
    on_create: list = []
    insert_into = None
    if isinstance(action, A.OnSet):
        act, out_type = _on_set(action, trigger_info, engine, text, context)
    else:
        target = engine.services.named_windows.get(action.window)
        if target is None:
            raise EPLValidationError(f"A named window or table '{action.window}' has not been declared", text)
        _check_trigger_context(target, node.context, text)
        target_info = StreamInfo(1, target.event_type, action.window_alias, action.window)
        scope = _with_context(_base(engine, [trigger_info, target_info], text), context)
        matcher = _matcher(action.where, target, scope, trigger_info, target_info)
        if isinstance(action, A.OnSelect):
            rows = compile_rows(engine, action.select, [trigger_info, target_info], scope, name,
                                wildcard_stream=1, group_by=action.group_by, having=action.having,
                                order_by=action.order_by)
            act = OnSelectPlan(matcher, rows, action.and_delete)
            out_type = rows.out_type
            if action.insert_into is not None:
                check_context_use_of(engine, action.insert_into.stream_name, node.context, text)
                insert_into, new_types = _insert_into(action.insert_into, engine, out_type, list(rows.names),
                                                      list(rows.types), rows.passthrough, text)
                for nt in new_types:
                    on_create.append((lambda _t=nt: engine.types.add(_t),
                                      lambda _t=nt: engine.types.remove(_t.name)))
        elif isinstance(action, A.OnDelete):
            act, out_type = OnDeletePlan(matcher), target.event_type
        elif isinstance(action, A.OnUpdate):
            assigns = compile_assignments(action.assignments, target, scope, text)
            act, out_type = OnUpdatePlan(matcher, assigns), target.event_type
        elif isinstance(action, A.OnMerge):
            clauses = tuple(_merge_clause(w, target, scope, trigger_info, engine, text, on_create, context)
                            for w in action.whens)
            always = None
            if action.direct_insert is not None:
                always = _merge_clause(A.MergeWhen(False, (action.direct_insert,)), target, scope,
                                       trigger_info, engine, text, on_create, context)
            act = OnMergePlan(matcher, clauses, always)
            out_type = target.event_type
        else:
            raise EPLValidationError(f"On-action '{type(action).__name__}' is not supported", text)
    plan = OnPlan(act, out_type, out_type.property_names, trigger_filter, trigger_pattern,
                  insert_into=insert_into)
    return CompiledStatement("on-" + type(action).__name__[2:].lower(), plan,
                             statement_name(node.annotations), priority(node.annotations),
                             has(node.annotations, "drop"), node.annotations, on_create)


def check_context_use_of(engine: "Runtime", stream_name: str, context: Optional[str], text: str) -> None:
    target = insert_target(engine, stream_name)
    if target is not None:
        check_context_use(target, context, text)


def _check_trigger_context(target: Any, context: Optional[str], text: str) -> None:
    """Esper: an on-statement acting on a window or table declared with a context declares
    that context (a window declared without one may be used from any context here)."""
    declared = getattr(target, "context", None)
    if declared is None or context == declared:
        return
    what = "Table" if target.is_table else "Named window"
    hint = "please declare the same context name" if context is None else \
        "please use the same context instead"
    raise EPLValidationError(f"Cannot create on-trigger expression: {what} '{target.name}' was "
                             f"declared with context '{declared}', {hint}", text)


def _with_context(scope: Scope, context: Any) -> Scope:
    if context is not None:
        scope.context_type, scope.context_holder = context.type, context.holder
    return scope


def _trigger(node: A.OnStatement, engine: "Runtime", text: str, context: Any = None) -> tuple:
    trig = node.trigger
    if isinstance(trig, A.EventFilter):
        et = resolve_stream_type(engine, trig.type_name, text)
        info = StreamInfo(0, et, node.trigger_alias, trig.type_name)
        scope = _with_context(_base(engine, [info], text), context)
        return info, compile_filter(trig.filter, info, scope), None
    from epl.compiler.patterns import compile_pattern, pattern_match_type
    mt = pattern_match_type(trig, engine, text)
    info = StreamInfo(0, mt, node.trigger_alias, None)
    scope = _with_context(_base(engine, [info], text), context)
    return info, None, compile_pattern(trig, engine, scope, text, mt)


def _matcher(where: Optional[A.Expr], target: Any, scope: Scope, trigger: StreamInfo,
             target_info: StreamInfo) -> MatchPlan:
    if where is None:
        return MatchPlan(target.name)
    fn = compile_predicate(where, scope)
    cols, fns = _key_lookup(where, target, scope, target_info)
    return MatchPlan(target.name, fn, cols, fns, equalities(_conjuncts(where), scope, target_info.index))


def _key_lookup(where: A.Expr, target: Any, scope: Scope, target_info: StreamInfo) -> tuple:
    """`target.col = <other expression>` conjuncts covering the target's primary key or one of
    its indexes (see keylookup.py); a spatial method over a spatial index's columns first
    (spatial.py)."""
    from .spatial import spatial_lookup
    spatial = spatial_lookup(where, target, scope, target_info)
    if spatial is not None:
        return spatial
    return key_lookup(_conjuncts(where), target, scope, target_info.index)


def _conjuncts(e: A.Expr) -> list:
    from ..ast.walk import operands
    return operands(e, A.BinOp.AND)


def compile_assignments(assignments: tuple[A.Assignment, ...], target: Any, scope: Scope,
                        text: str) -> tuple[tuple[str, Callable], ...]:
    """`col = expr` against a window or table row (columns may be qualified by the alias)."""
    out = []
    et: EventType = target.event_type
    for a in assignments:
        col = _assigned_column(a.target, scope, text)
        t = et.property_type(col)
        if t is None:
            raise EPLValidationError(f"Property '{col}' is not available for write", text)
        if col in getattr(target, "primary_keys", ()):
            raise EPLValidationError(f"Primary-key column '{col}' of table '{target.name}' cannot be updated", text)
        if col in getattr(target, "aggregation_columns", ()):
            raise EPLValidationError(f"Aggregation column '{col}' of table '{target.name}' cannot be assigned", text)
        c = compile_expr(a.value, scope)
        if not assignable(t, c.type) and c.type.kind is not EPLType.OBJECT:
            raise EPLValidationError(f"Invalid assignment of column '{col}' of type '{t}' from "
                                     f"expression '{expr_text(a.value)}' of type '{c.type}'", text)
        out.append((col, _coercing(c.fn, t)))
    return tuple(out)


def _coercing(fn: Callable, t: PropertyType) -> Callable:
    if t.kind in (EPLType.DOUBLE, EPLType.FLOAT):
        def as_float(eps, _f=fn):
            v = _f(eps)
            return float(v) if isinstance(v, int) and not isinstance(v, bool) else v
        return as_float
    return fn


def _assigned_column(e: A.Expr, scope: Scope, text: str) -> str:
    if isinstance(e, A.Property):
        segs = e.path
        if len(segs) == 2:
            s = scope.stream_by_alias(segs[0].name)
            if s is not None and s.index == 1:
                return segs[1].name
        if len(segs) == 1:
            return segs[0].name
    raise EPLValidationError(f"Invalid assignment target '{expr_text(e)}'", text)


def _merge_clause(w: A.MergeWhen, target: Any, scope: Scope, trigger: StreamInfo, engine: "Runtime",
                  text: str, on_create: list, context: Any = None) -> MergeClause:
    # Esper: a not-matched clause has no target row, so its expressions (condition, insert
    # select, where) see the trigger beside a stream without properties: `insert select a`
    # reads the trigger's `a` even when the target has an `a` too
    clause_scope = scope if w.matched else _with_context(_base(engine, [trigger, StreamInfo(
        1, EventType("merge_unmatched", Representation.MAP, {}), None, None)], text), context)
    cond = compile_predicate(w.condition, clause_scope) if w.condition is not None else None
    steps = []
    for a in w.actions:
        step_cond = compile_predicate(a.condition, clause_scope) if a.condition is not None else None
        if a.action == "delete":
            if not w.matched:
                raise EPLValidationError("A delete action is only allowed in a when-matched clause", text)
            steps.append(MergeStep("delete", step_cond))
        elif a.action == "update":
            if not w.matched:
                raise EPLValidationError("An update action is only allowed in a when-matched clause", text)
            steps.append(MergeStep("update", step_cond, compile_assignments(a.assignments, target, scope, text)))
        else:
            make, into_target = _merge_insert(a, target, clause_scope, trigger, engine, text, on_create)
            steps.append(MergeStep("insert", step_cond, make=make, into_target=into_target))
    return MergeClause(w.matched, cond, tuple(steps))


def _merge_insert(a: A.MergeAction, target: Any, scope: Scope, trigger: StreamInfo, engine: "Runtime",
                  text: str, on_create: list) -> tuple:
    """`then insert [into Stream] [(cols)] select ...`: the event to insert, from the trigger
    (and, in a matched clause, the target row)."""
    cols: list[tuple[str, Callable, PropertyType]] = []
    for item in (a.select.items if a.select is not None else (A.SelectItem(A.Wildcard()),)):
        if isinstance(item.expr, A.Wildcard):
            for p, t in trigger.event_type.properties.items():
                cols.append((p, lambda eps, _g=trigger.event_type.getter(p): _g(eps[0].underlying), t))
            continue
        c = compile_expr(item.expr, scope)
        cols.append((item.alias or expr_text(item.expr), c.fn, c.type))
    if a.columns:
        if len(a.columns) != len(cols):
            raise EPLValidationError("Number of supplied values in the select or values clause does "
                                     "not match insert-into clause", text)
        cols = [(n, f, t) for n, (_, f, t) in zip(a.columns, cols)]
    into_target = a.insert_into is None or a.insert_into == target.name
    if not into_target and insert_target(engine, a.insert_into) is not None:
        other = insert_target(engine, a.insert_into)
        raise EPLValidationError(f"{other.kind} by name '{other.name}' has been declared for context "
                                 f"'{other.context}': an on-merge cannot insert into it (insert into "
                                 f"the merge target, or use 'insert into' from a statement of that "
                                 f"context)", text)
    if into_target:
        et = target.event_type
        for n, _, _ in cols:
            if et.property_type(n) is None:
                raise EPLValidationError(f"Property '{n}' is not available for write to "
                                         f"'{target.name}'", text)
        return target.row_maker([(n, f) for n, f, _ in cols]), True
    et = engine.types.find(a.insert_into)
    if et is None:
        et = EventType(a.insert_into, Representation.MAP, {n: t for n, _, t in cols})
        on_create.append((lambda _t=et: engine.types.add(_t), lambda _t=et: engine.types.remove(_t.name)))
    fns = tuple((n, f) for n, f, _ in cols)

    def make(eps, _t=et, _fns=fns) -> EventBean:
        return EventBean(_t, {n: f(eps) for n, f in _fns})
    return make, False


def _on_set(action: A.OnSet, trigger: StreamInfo, engine: "Runtime", text: str, context: Any = None) -> tuple:
    svc = engine.services.variables
    scope = _with_context(_base(engine, [trigger], text), context)
    assigns = []
    props: dict[str, PropertyType] = {}
    for a in action.assignments:
        if not (isinstance(a.target, A.Property) and len(a.target.path) == 1):
            raise EPLValidationError(f"Invalid assignment target '{expr_text(a.target)}'", text)
        name = a.target.path[0].name
        if not svc.has(name):
            raise EPLValidationError(f"Variable by name '{name}' has not been created or configured", text)
        if svc.is_constant(name):
            raise EPLValidationError(f"Variable by name '{name}' is declared constant and may not be assigned a new value", text)
        t = svc.type_of(name)
        from .expressions import _context_variable_holder
        _context_variable_holder(name, scope)       # a context variable: only in its context
        c = compile_expr(a.value, scope)
        if not assignable(t, c.type):
            raise EPLValidationError(f"Variable '{name}' of declared type {t} cannot be assigned a "
                                     f"value of type {c.type}", text)
        assigns.append((name, c.fn, lambda v, _n=name, _t=t: check_value(_n, _t, _widen(v, _t))))
        props[name] = t
    out_type = EventType("on_set_out", Representation.MAP, props)
    holder = context.holder if context is not None else None
    return OnSetPlan(tuple(assigns), out_type, holder), out_type


def _widen(v: Any, t: PropertyType) -> Any:
    if v is not None and t.kind in (EPLType.DOUBLE, EPLType.FLOAT) and isinstance(v, int):
        return float(v)
    return v
