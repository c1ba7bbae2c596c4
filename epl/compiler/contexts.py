"""`create context` to a context definition (one controller spec per level, the type of
`context.x`), and `context X select ...` to a select plan run per partition."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from engine.contracts.frozen import frozen_dataclass
import engine.contracts.epl_types as T
from engine.contracts.crontab import WILDCARD, CrontabError, Every, Keyword, Range, parse_crontab
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.event_types import EventType, Representation
from engine.contracts.hashing import consistent_hash_crc32, hash_code
from epl.plans.contexts import (
    AfterCondition, CategorySpec, ContextDefinition, ContextOnPlan, ContextSelectPlan, Creator,
    CrontabCondition, FilterCondition, HashItem, HashSpec, Holder, KeyedItemSpec, KeyedSpec, Level,
    NowCondition, PatternCondition, TemporalSpec,
)

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from .annotations import statement_name
from .expressions import compile_expr, compile_predicate, expr_text
from .filters import compile_filter
from .result import CompiledStatement
from .scope import Scope, StreamInfo
from .select import base_scope, compile_select, resolve_stream_type
from .windows import check_insert_into, insert_target

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

DEFAULT_GRANULARITY = 512


@frozen_dataclass
class _ContextScope:
    type: EventType
    holder: Holder


def compile_create_context(node: A.CreateContext, engine: "Runtime", text: str) -> CompiledStatement:
    svc = engine.services.contexts
    if svc.get(node.name) is not None:
        raise EPLValidationError(f"Context by name '{node.name}' already exists", text)
    if isinstance(node.spec, A.NestedContext):
        levels = []
        props: dict[str, PropertyType] = {"name": T.STRING, "id": T.INT}
        for cname, cspec in node.spec.contexts:
            if isinstance(cspec, A.NestedContext):
                raise EPLValidationError("A nested context cannot itself be nested", text)
            spec, ctype = _compile_spec(cname, cspec, engine, text)
            levels.append(Level(cname, spec, ctype))
            props[cname] = PropertyType(EPLType.EVENT, event_type=ctype)
        definition = ContextDefinition(node.name, tuple(levels),
                                       EventType(f"context_{node.name}", Representation.MAP, props))
    else:
        spec, ctype = _compile_spec(node.name, node.spec, engine, text)
        definition = ContextDefinition(node.name, (Level(node.name, spec, ctype),), ctype)

    def register() -> None:
        svc.add(definition)

    def unregister() -> None:
        svc.remove(definition)

    return CompiledStatement("create-context", None, statement_name(node.annotations),
                             annotations=node.annotations, on_create=[(register, unregister)])


def compile_context_select(node: A.SelectStatement, engine: "Runtime", text: str) -> CompiledStatement:
    svc = engine.services.contexts
    definition = svc.get(node.context)
    if definition is None:
        raise EPLValidationError(f"Context by name '{node.context}' has not been declared", text)
    holder = Holder()
    target = check_insert_into(node, engine, text)
    compiled = compile_select(node, engine, text, context=_ContextScope(definition.context_type, holder))
    _check_keyed_streams(definition, compiled.plan, text)
    # `insert into W` with W declared with this context: rows go to the partition's own W
    compiled.plan = ContextSelectPlan(compiled.plan, definition, holder,
                                      into_partition=target is not None)
    return compiled


def compile_context_on(node: A.OnStatement, engine: "Runtime", text: str) -> CompiledStatement:
    """`context X on <trigger> select|delete|update|merge|set ...`: run per partition, the
    trigger narrowed by the partition, against a global named window or table, the
    partition's own one (declared with the same context), or variables."""
    svc = engine.services.contexts
    definition = svc.get(node.context)
    if definition is None:
        raise EPLValidationError(f"Context by name '{node.context}' has not been declared", text)
    from .onactions import compile_on
    holder = Holder()
    compiled = compile_on(node, engine, text, context=_ContextScope(definition.context_type, holder))
    plan = compiled.plan
    if plan.trigger_pattern is not None:
        types = list(getattr(plan.trigger_pattern, "event_types", ()))
    else:
        types = [resolve_stream_type(engine, node.trigger.type_name, text)]
    _check_keyed_types(definition, types, text)
    into = getattr(node.action, "insert_into", None)
    compiled.plan = ContextOnPlan(
        plan, definition, holder,
        into_partition=into is not None and insert_target(engine, into.stream_name) is not None)
    return compiled


def _check_keyed_streams(definition: ContextDefinition, plan: Any, text: str) -> None:
    """Esper requires a keyed context's statements to listen to one of its types."""
    types = []
    for s in plan.streams:
        if s.pattern is not None:
            types.extend(getattr(s.pattern, "event_types", ()))
        elif s.named_window is None:
            types.append(s.event_type)
    _check_keyed_types(definition, types, text)


def _check_keyed_types(definition: ContextDefinition, types: list, text: str) -> None:
    for level in definition.levels:
        spec = level.spec
        if not isinstance(spec, KeyedSpec):
            continue
        if types and not any(spec.item_for(t) is not None for t in types):
            listed = ", ".join(repr(i.event_type.name) for i in spec.items)
            raise EPLValidationError(
                f"Segmented context '{level.name}' requires that any of the event types that are "
                f"listed in the segmented context also appear in any of the filter expressions of "
                f"the statement, listed types are {listed}", text)


# -- context kinds ------------------------------------------------------------------------------
def _compile_spec(name: str, spec: Any, engine: "Runtime", text: str) -> tuple[Any, EventType]:
    if isinstance(spec, A.KeyedContext):
        return _keyed(name, spec, engine, text)
    if isinstance(spec, A.CategoryContext):
        return _category(name, spec, engine, text)
    if isinstance(spec, A.HashContext):
        return _hash(name, spec, engine, text)
    if isinstance(spec, A.TemporalContext):
        return _temporal(name, spec, engine, text)
    raise EPLValidationError(f"Context kind '{type(spec).__name__}' is not supported", text)


def _stream(ef: A.EventFilter, alias: Optional[str], engine: "Runtime", text: str) -> tuple[StreamInfo, Scope]:
    et = resolve_stream_type(engine, ef.type_name, text)
    info = StreamInfo(0, et, alias, ef.type_name)
    return info, base_scope(engine, [info], text)


def _ctx_type(name: str, props: dict[str, PropertyType]) -> EventType:
    base = {"name": T.STRING, "id": T.INT}
    base.update(props)
    return EventType(f"context_{name}", Representation.MAP, base)


def _keyed(name: str, spec: A.KeyedContext, engine: "Runtime", text: str) -> tuple[KeyedSpec, EventType]:
    items: list[KeyedItemSpec] = []
    key_types: list[list[PropertyType]] = []
    props: dict[str, PropertyType] = {}
    for ki in spec.items:
        info, scope = _stream(ki.event_filter, ki.alias, engine, text)
        template = compile_filter(ki.event_filter.filter, info, scope)
        lookups = []
        for i, p in enumerate(ki.properties):
            while isinstance(p, A.Parens):
                p = p.inner
            if not isinstance(p, A.Property):
                raise EPLValidationError(f"Keyed context '{name}' partitions by properties, got "
                                         f"'{expr_text(p)}'", text)
            path = scope.resolve(p).path
            lookups.append(path)
            t = info.event_type.property_type(path)
            if len(key_types) <= i:
                key_types.append([])
            key_types[i].append(t)
        if items and len(lookups) != len(items[0].lookups):
            raise EPLValidationError(f"For context '{name}' expected the same number of property "
                                     f"names for each event type, found {len(items[0].lookups)} "
                                     f"properties for event type '{items[0].event_type.name}' and "
                                     f"{len(lookups)} properties for event type '{info.event_type.name}'", text)
        items.append(KeyedItemSpec(info.event_type, template, tuple(lookups), ki.alias))
        if ki.alias:
            props[ki.alias] = PropertyType(EPLType.EVENT, event_type=info.event_type)
    for i, ts in enumerate(key_types):
        props[f"key{i + 1}"] = ts[0] if all(t == ts[0] for t in ts) else T.OBJECT
    keyed = KeyedSpec(name, tuple(items), ())
    creators = []
    if spec.initiated_by:
        for ii in spec.initiated_by:
            info, scope = _stream(ii.event_filter, ii.alias, engine, text)
            item = keyed.item_for(info.event_type)
            if item is None:
                raise EPLValidationError(f"Initiated-by event type '{info.event_type.name}' of context "
                                         f"'{name}' is not one of the types listed in partition-by", text)
            creators.append(Creator(compile_filter(ii.event_filter.filter, info, scope),
                                    info.event_type, item, ii.alias))
            if ii.alias:
                props[ii.alias] = PropertyType(EPLType.EVENT, event_type=info.event_type)
    else:
        creators = [Creator(it.template, it.event_type, it, it.alias) for it in items]
    terminated = term_item = None
    if spec.terminated_by is not None:
        terminated = _condition(spec.terminated_by, engine, text, [], start=False)
        if isinstance(terminated, FilterCondition):
            term_item = keyed.item_for(terminated.event_type)
    keyed = KeyedSpec(name, tuple(items), tuple(creators), terminated, term_item)
    return keyed, _ctx_type(name, props)


def _category(name: str, spec: A.CategoryContext, engine: "Runtime", text: str) -> tuple[CategorySpec, EventType]:
    info, scope = _stream(spec.event_filter, None, engine, text)
    base = None
    if spec.event_filter.filter is not None:
        f = compile_predicate(spec.event_filter.filter, scope)
        base = lambda bean, _f=f: _f((bean,))  # noqa: E731
    cats = []
    for expr, label in spec.items:
        f = compile_predicate(expr, scope)
        cats.append((label, lambda bean, _f=f: _f((bean,))))
    if len({label for label, _ in cats}) != len(cats):
        raise EPLValidationError(f"Category context '{name}' declares a label more than once", text)
    return CategorySpec(name, info.event_type, base, tuple(cats)), _ctx_type(name, {"label": T.STRING})


MAX_PREALLOCATE = 65_536


def _hash(name: str, spec: A.HashContext, engine: "Runtime", text: str) -> tuple[HashSpec, EventType]:
    items = []
    for expr, ef in spec.items:
        info, scope = _stream(ef, None, engine, text)
        template = compile_filter(ef.filter, info, scope)
        items.append(HashItem(info.event_type, template, _hash_fn(expr, scope, text)))
    granularity = DEFAULT_GRANULARITY
    if spec.granularity is not None:
        c = compile_expr(spec.granularity, base_scope(engine, [], text))
        if not c.is_constant or not isinstance(c.constant, int) or not 1 <= c.constant <= 2**31 - 1:
            raise EPLValidationError("The granularity of a hash context must be a positive integer constant", text)
        granularity = c.constant
    if spec.preallocate and granularity > MAX_PREALLOCATE:
        # every preallocated partition holds the context's statements: memory, not a setting
        raise EPLValidationError(f"A hash context can preallocate at most {MAX_PREALLOCATE} "
                                 f"partitions, granularity {granularity} was given", text)
    return HashSpec(name, tuple(items), granularity, spec.preallocate), _ctx_type(name, {})


def _hash_fn(expr: A.Expr, scope: Scope, text: str) -> Any:
    if isinstance(expr, A.Call) and expr.name.lower() in ("consistent_hash_crc32", "hash_code") \
            and len(expr.args) == 1:
        fn = consistent_hash_crc32 if expr.name.lower() == "consistent_hash_crc32" else hash_code
        arg = compile_expr(expr.args[0], scope).fn
        return lambda bean, _a=arg, _h=fn: _h(_a((bean,)))
    c = compile_expr(expr, scope)
    if not (c.type.is_integral or c.type.kind is EPLType.OBJECT):
        raise EPLValidationError(f"The hash expression '{expr_text(expr)}' must return an integer", text)
    f = c.fn
    return lambda bean, _f=f: _f((bean,))


def _temporal(name: str, spec: A.TemporalContext, engine: "Runtime", text: str) -> tuple[TemporalSpec, EventType]:
    provided: list[StreamInfo] = []        # what the start condition names, for the end condition
    props: dict[str, PropertyType] = {"startTime": T.LONG, "endTime": T.LONG}
    start = _condition(spec.start, engine, text, [], start=True)
    if isinstance(start, FilterCondition) and spec.start.alias:
        provided.append(StreamInfo(0, start.event_type, spec.start.alias, None))
    elif isinstance(start, PatternCondition):
        for tag, t in start.plan.match_type.properties.items():
            if t.kind is EPLType.EVENT and t.event_type is not None:
                provided.append(StreamInfo(len(provided), t.event_type, tag, None))
    for s in provided:
        props[s.alias] = PropertyType(EPLType.EVENT, event_type=s.event_type)
    end = None
    end_bindings = None
    if spec.end is not None:
        if spec.end.now:
            raise EPLValidationError("@now is only allowed as a start condition", text)
        end = _condition(spec.end, engine, text, provided, start=False)
        if provided:
            aliases = tuple(s.alias for s in provided)
            end_bindings = lambda props, _a=aliases: tuple(props.get(a) for a in _a)  # noqa: E731
    distinct = None
    if spec.start.distinct:
        if not spec.overlapping or not isinstance(start, FilterCondition):
            raise EPLValidationError("Distinct-expressions are only allowed for an initiated-by "
                                     "filter condition", text)
        info, scope = _stream(spec.start.event_filter, spec.start.alias, engine, text)
        fns = tuple(compile_expr(e, scope).fn for e in spec.start.distinct)
        distinct = lambda bean, _f=fns: tuple(_hashable(f((bean,))) for f in _f)  # noqa: E731
    return (TemporalSpec(name, start, end, spec.overlapping, end_bindings, distinct),
            _ctx_type(name, props))


def _hashable(v: Any) -> Any:
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)


def _condition(cond: A.ContextCondition, engine: "Runtime", text: str, provided: list[StreamInfo],
               start: bool) -> Any:
    if cond.now:
        return NowCondition()
    if cond.event_filter is not None:
        info, scope = _stream(cond.event_filter, cond.alias, engine, text)
        tag_scope = None
        if provided:
            tag_scope = Scope(streams=list(provided), functions=scope.functions,
                              variables=scope.variables, epl=text, services=scope.services)
        return FilterCondition(compile_filter(cond.event_filter.filter, info, scope, tag_scope),
                               info.event_type, cond.alias)
    if cond.pattern is not None:
        from epl.compiler.patterns import compile_pattern, pattern_match_type
        mt = pattern_match_type(cond.pattern, engine, text)
        if provided:
            # an end pattern may name what the start condition provided (`B(id = s0.id)`):
            # those are tags of its match, bound when the pattern starts
            from epl.compiler.patterns import match_type
            tags = {s.alias: s.event_type for s in provided}
            for tag, t in mt.properties.items():
                if t.kind is EPLType.EVENT and t.event_type is not None:
                    tags.setdefault(tag, t.event_type)
            arrays = {tag for tag, t in mt.properties.items() if t.kind is not EPLType.EVENT}
            for tag in arrays:
                tags.setdefault(tag, mt.properties[tag].element.event_type)
            mt = match_type(tags, arrays)
        plan = compile_pattern(cond.pattern, engine, base_scope(engine, [], text), text, mt)
        return PatternCondition(plan, cond.inclusive, tuple(s.alias for s in provided))
    if cond.crontab is not None:
        return CrontabCondition(_crontab(cond.crontab, engine, text))
    if cond.after is not None:
        c = compile_expr(cond.after, base_scope(engine, [], text))
        if not c.is_constant and c.is_time_period:
            # a variable amount (`after secs seconds`): read when the condition is armed
            return AfterCondition(0, lambda _f=c.fn: _f(()))
        if not c.is_constant or not isinstance(c.constant, (int, float)):
            raise EPLValidationError("The 'after' condition needs a constant time period", text)
        ms = c.constant if c.is_time_period else c.constant * 1000
        return AfterCondition(int(round(ms)))
    raise EPLValidationError("Unsupported context condition", text)


def _crontab(params: tuple, engine: "Runtime", text: str) -> Any:
    scope = base_scope(engine, [], text)

    def const(e: A.Expr) -> Any:
        c = compile_expr(e, scope)
        if not c.is_constant:
            raise EPLValidationError("Crontab parameters must be constants", text)
        return c.constant

    def param(e: Any) -> Any:
        while isinstance(e, A.Parens):
            e = e.inner
        if isinstance(e, A.Wildcard):
            return WILDCARD
        if isinstance(e, A.CronFrequency):
            return Every(const(e.every))
        if isinstance(e, A.CronRange):
            return Range(const(e.low), const(e.high))
        if isinstance(e, A.CronKeyword):
            return Keyword(e.keyword, const(e.value) if e.value is not None else None)
        if isinstance(e, A.ArrayLiteral):
            return tuple(param(i) for i in e.items)
        return const(e)
    try:
        return parse_crontab([param(p) for p in params])
    except CrontabError as e:
        raise EPLValidationError(f"Invalid crontab context condition: {e}", text) from None
