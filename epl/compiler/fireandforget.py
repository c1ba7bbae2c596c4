"""Fire-and-forget queries (`engine.execute_query`): select, insert, update and delete run
once against the current contents of a named window or table and return rows.

- `select ... from W [as w] [where ...] [group by ...] [having ...] [order by ...] [limit]`:
  the result rows (an aggregate over no rows still gives its one row, as in SQL);
- `insert into W [(cols)] values (...)` or `insert into W select <exprs>`: the inserted row;
- `update W [as w] set c = expr, ... [where ...]`: the updated rows;
- `delete from W [as w] [where ...]`: the deleted rows.
Changes reach the window's consumers as if an on-action had made them."""
from __future__ import annotations


from typing import TYPE_CHECKING, Any

from engine.contracts.event_types import EventType, Representation
from engine.contracts.frozen import frozen_dataclass

import epl.ast as A
from epl.plans.onactions import MatchPlan, OnDeletePlan, OnUpdatePlan
from engine.contracts.errors import EPLValidationError
from .expressions import compile_expr, compile_predicate, expr_text
from .onactions import _key_lookup, compile_assignments
from .result import CompiledStatement
from .rowselect import compile_rows
from .scope import Scope, StreamInfo
from .select import _constant_int, base_scope

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

_NOTHING = EventType("fire_and_forget_none", Representation.MAP, {})


def refuse_as_statement(node: Any, engine: "Runtime", text: str) -> CompiledStatement:
    if isinstance(node, A.UpdateStatement) and node.istream:
        from .updateistream import compile_update_istream
        return compile_update_istream(node, engine, text)
    raise EPLValidationError(
        f"'{type(node).__name__}' is a fire-and-forget query: run it with engine.execute_query(...)", text)


def compile_query(engine: "Runtime", text: str) -> Any:
    """Parse and compile one fire-and-forget query: a SelectQuery (data the runtime runs,
    engine/fireandforget.py), or for insert, update and delete a function to run under the
    engine's lock."""
    from epl.parser import parse
    node = parse(text)
    from .exprdecl import expand_declarations       # `expression f {...} select f() from W`
    node = expand_declarations(node, engine, text)
    return _compile(node, engine, text)


def _target(name: str, engine: "Runtime", text: str) -> Any:
    target = engine.services.named_windows.get(name)
    if target is None:
        raise EPLValidationError(f"Fire-and-forget queries run against a named window or table; "
                                 f"'{name}' is neither", text)
    return target


def _compile(node: Any, engine: "Runtime", text: str) -> Any:
    if isinstance(node, A.SelectStatement):
        return _select(node, engine, text)
    if isinstance(node, A.InsertValues):
        return _insert(node, engine, text)
    if isinstance(node, A.UpdateStatement) and not node.istream:
        target = _target(node.target, engine, text)
        scope, match = _two_stream(target, node.alias, node.where, engine, text)
        action: Any = OnUpdatePlan(match, compile_assignments(node.assignments, target, scope, text))
        return _run_action(action, target, engine)
    if isinstance(node, A.DeleteStatement):
        target = _target(node.target, engine, text)
        _, match = _two_stream(target, node.alias, node.where, engine, text)
        return _run_action(OnDeletePlan(match), target, engine)
    raise EPLValidationError(f"'{type(node).__name__}' cannot run as a fire-and-forget query", text)


def _run_action(action: Any, target: Any, engine: "Runtime") -> Any:
    """The query's run: on the window or table, or on each partition's of one declared with
    a context (oldest partition first)."""
    perform = engine.services.named_windows.perform
    if getattr(target, "context", None) is None:
        return lambda: perform(action, engine, target)[0] or []

    def run() -> list:
        out: list = []
        for _p, inst in target.partitions():
            out.extend(perform(action, engine, inst)[0] or ())
        return out
    return run


def _two_stream(target: Any, alias: Any, where: Any, engine: "Runtime", text: str) -> tuple[Scope, MatchPlan]:
    """The target at index 1, as on-actions see it (index 0 is an empty trigger)."""
    info = StreamInfo(1, target.event_type, alias, target.name)
    scope = base_scope(engine, [StreamInfo(0, _NOTHING, None, None), info], text)
    if where is None:
        return scope, MatchPlan(target.name)
    cols, fns = _key_lookup(where, target, scope, info)
    return scope, MatchPlan(target.name, compile_predicate(where, scope), cols, fns)


def _select(node: A.SelectStatement, engine: "Runtime", text: str) -> Any:
    if node.from_ is None or len(node.from_.streams) != 1 or not isinstance(node.from_.streams[0], A.FilterStream):
        raise EPLValidationError("A fire-and-forget select reads exactly one named window or table", text)
    if node.insert_into is not None or node.output is not None:
        raise EPLValidationError("A fire-and-forget select takes no insert-into or output clause", text)
    stream = node.from_.streams[0]
    target = _target(stream.event_filter.type_name, engine, text)
    info = StreamInfo(0, target.event_type, stream.alias, target.name)
    scope = base_scope(engine, [info], text)
    holder = None
    if node.context is not None:
        holder = _context_scope(node.context, target, scope, engine, text)
    preds = []
    for cond in (stream.event_filter.filter, node.where):
        if cond is not None:
            preds.append(compile_predicate(cond, scope))
    limit = offset = None
    if node.limit is not None:
        limit = _constant_int(node.limit.count, scope, "limit")
        offset = _constant_int(node.limit.offset, scope, "offset") if node.limit.offset is not None else 0
    if any(isinstance(g, A.GroupingSet) for g in node.group_by):
        raise EPLValidationError("Grouping sets are not supported in fire-and-forget queries", text)
    rows = compile_rows(engine, node.select, [info], scope, "query", group_by=node.group_by,
                        having=node.having, order_by=node.order_by, limit=limit, offset=offset or 0)
    return SelectQuery(target, tuple(preds), rows, holder)


@frozen_dataclass
class SelectQuery:
    """A fire-and-forget select: the window or table read, the filter and where predicates,
    the select clause's rows plan, and with a context named the holder of the partition
    properties (the query then runs in each partition)."""

    target: Any
    predicates: tuple
    rows: Any
    holder: Any = None


def _context_scope(context: str, target: Any, scope: Scope, engine: "Runtime", text: str) -> Any:
    """`context X select ... from W`: W must be declared with context X; `context.x` reads
    the partition being queried."""
    declared = getattr(target, "context", None)
    if declared != context:
        where = f"declared for context '{declared}'" if declared is not None else "declared without context"
        raise EPLValidationError(f"A fire-and-forget query with context '{context}' runs against a named "
                                 f"window or table declared with that context; '{target.name}' is {where}", text)
    definition = engine.services.contexts.get(context)
    holder = _PartitionProperties()
    scope.context_type, scope.context_holder = definition.context_type, holder
    return holder


class _PartitionProperties:
    """What `context.x` reads in a fire-and-forget query with a context: the properties of
    the partition being queried (the query puts them in place, one partition after another)."""

    __slots__ = ("properties",)

    def __init__(self) -> None:
        self.properties: dict = {}


def _insert(node: A.InsertValues, engine: "Runtime", text: str) -> Any:
    target = _target(node.target, engine, text)
    declared = getattr(target, "context", None)
    if declared is not None:
        raise EPLValidationError(f"{target.kind} '{target.name}' is declared with context '{declared}': "
                                 f"a fire-and-forget insert has no partition to insert into (insert "
                                 f"with 'context {declared} insert into {target.name} select ...')", text)
    scope = base_scope(engine, [], text)
    if node.select is not None:
        pairs = []
        for item in node.select.items:
            if isinstance(item.expr, (A.Wildcard, A.StreamWildcard)):
                raise EPLValidationError("A fire-and-forget insert selects expressions, not '*'", text)
            pairs.append((item.alias or expr_text(item.expr), compile_expr(item.expr, scope).fn))
    else:
        pairs = [(None, compile_expr(v, scope).fn) for v in node.values]
    names = list(node.columns) if node.columns else None
    if names is None:
        if node.select is not None:
            names = [n for n, _ in pairs]
        else:
            names = list(target.event_type.property_names)
    if len(names) != len(pairs):
        raise EPLValidationError("Number of supplied values in the select or values clause does "
                                 "not match insert-into clause", text)
    for n in names:
        if target.event_type.property_type(n) is None:
            raise EPLValidationError(f"Property '{n}' is not available for write to '{target.name}'", text)
    make = target.row_maker([(n, f) for n, (_, f) in zip(names, pairs)])

    def run() -> list:
        bean = make(())
        target.insert([bean])
        return [bean]
    return run
