"""`create table Name (col type [primary key], agg_col aggregation(type), ...)`: the table's
event type, its primary key and the aggregation factories of its aggregation columns."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.contracts.epl_types import PropertyType
from engine.contracts.errors import EventTypeError
from engine.contracts.event_types import EventType, Representation

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from epl.plans.namedwindows import CreatePlan, TableSpec
from .annotations import statement_name
from .result import CompiledStatement
from .windows import check_context, check_new_name, declaration

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def compile_create_table(node: A.CreateTable, engine: "Runtime", text: str) -> CompiledStatement:
    check_new_name(node.name, engine, text)
    props: dict[str, PropertyType] = {}
    keys: list[str] = []
    plain: list[str] = []
    aggs: list[tuple[str, Any]] = []
    for col in node.columns:
        if col.name in props:
            raise EPLValidationError(f"Column '{col.name}' of table '{node.name}' is declared twice", text)
        if col.aggregation is not None:
            factory = _aggregation(col, engine, text)
            props[col.name] = factory.result_type()
            aggs.append((col.name, factory))
            continue
        if col.type is None:
            raise EPLValidationError(f"Column '{col.name}' of table '{node.name}' has no type", text)
        try:
            props[col.name] = engine.types.resolve_type(col.type.name + ("[]" if col.type.array else ""))
        except EventTypeError as e:
            raise EPLValidationError(str(e), text) from None
        plain.append(col.name)
        if col.primary_key:
            keys.append(col.name)
    event_type = EventType(node.name, Representation.MAP, props)
    declarations = {c.name: c.aggregation.name.lower() for c in node.columns
                    if isinstance(c.aggregation, A.Call)}
    # `sorted(price) @type(E)`: the column's call and event type, for `into table ... sorted(*)`
    # and for the sorted methods on the column (`T.col.floorKey(x)`)
    typed_columns = {c.name: (c.aggregation, engine.types.find(c.event_type))
                     for c in node.columns if isinstance(c.aggregation, A.Call)
                     and c.event_type is not None}
    if node.context is not None:
        check_context(node.context, engine, text)
    spec = TableSpec(node.name, event_type, tuple(keys), tuple(plain), tuple(aggs), declarations,
                     typed_columns, node.context)
    plan = CreatePlan(spec, event_type, event_type.property_names, "istream")
    return CompiledStatement("create-table", plan, statement_name(node.annotations),
                             annotations=node.annotations, on_create=[declaration(spec, engine)])


def _aggregation(col: A.ColumnDef, engine: "Runtime", text: str) -> Any:
    """`sum(int)`, `count(*)`, `avg(double)`, `window(*) @type(T)`: the arguments name types."""
    from engine.contracts.aggregation import AggregationError, make_factory
    call = col.aggregation
    if not isinstance(call, A.Call):
        raise EPLValidationError(f"Column '{col.name}' must declare an aggregation function", text)
    if call.name.lower() == "countminsketch":
        from .sketches import sketch_column
        return sketch_column(col, text, engine.aggregations)
    star = False
    types: list[PropertyType] = []
    for a in call.args:
        if isinstance(a, A.Wildcard):
            star = True
            continue
        if isinstance(a, A.Property) and col.event_type is not None and \
                engine.types.find(col.event_type) is not None and \
                engine.types.find(col.event_type).property_type(a.dotted) is not None:
            # `sorted(price) @type(E)`: a property of the declared event type
            types.append(engine.types.find(col.event_type).property_type(a.dotted))
            continue
        if isinstance(a, A.Property) and len(a.path) == 1:
            try:
                types.append(engine.types.resolve_type(a.path[0].name))
            except EventTypeError as e:
                raise EPLValidationError(str(e), text) from None
            continue
        raise EPLValidationError(f"Aggregation column '{col.name}' takes type names as parameters", text)
    named: dict = {}
    if col.event_type is not None:      # `window(*) @type(T)`: the events' type
        et = engine.types.find(col.event_type)
        if et is None:
            raise EPLValidationError(f"Failed to resolve event type '{col.event_type}' of table "
                                     f"column '{col.name}'", text)
        named["event_type"] = et
    try:
        return make_factory(call.name.lower(), types, distinct=call.distinct, star=star,
                            named=named, registry=engine.aggregations)
    except AggregationError as e:
        raise EPLValidationError(f"Failed to validate table column '{col.name}': {e}", text) from None


def complete_into_table(node: A.Statement, engine: "Runtime") -> A.Statement:
    """`into table T select sorted(*) as col ...`: the criteria come from T's declaration of
    `col` (`sorted(price) @type(E)`), as in Esper."""
    if not isinstance(node, A.SelectStatement) or node.into_table is None:
        return node
    svc = engine.services.named_windows
    table = svc.get(node.into_table) if svc is not None else None
    typed = getattr(table, "typed_columns", None)
    if not typed:
        return node
    from dataclasses import replace
    items = []
    changed = False
    for item in node.select.items:
        e = item.expr
        declared = typed.get(item.alias) if item.alias is not None else None
        if declared is not None and isinstance(e, A.Call) and e.name.lower() == "sorted" and \
                len(e.args) == 1 and isinstance(e.args[0], A.Wildcard):
            item = replace(item, expr=replace(e, args=declared[0].args))
            changed = True
        items.append(item)
    if not changed:
        return node
    return replace(node, select=replace(node.select, items=tuple(items)))


# -- into table ---------------------------------------------------------------------------------
# -- table access `T[key].column` ------------------------------------------------------------------
from .compiled import Compiled  # noqa: E402
from .expressions import TABLE_COLUMN, compile_expr, compiles  # noqa: E402


@compiles(A.TableAccess)
def _table_access(node: A.TableAccess, scope: Any) -> Compiled:
    from engine.contracts.epl_types import EPLType
    engine = getattr(scope.services, "engine", None)
    table = engine.services.named_windows.get(node.table) if engine is not None else None
    if table is None or not table.is_table:
        raise scope.fail(f"A table by name '{node.table}' has not been declared")
    if len(node.keys) != len(table.primary_keys):
        raise scope.fail(f"Incorrect number of keys for table '{table.name}', expecting "
                         f"{len(table.primary_keys)} key(s) and received {len(node.keys)}")
    keys = [compile_expr(k, scope) for k in node.keys]
    fns = tuple(k.fn for k in keys)
    col = node.column
    if col is None:
        t = PropertyType(EPLType.EVENT, event_type=table.event_type)
    else:
        t = table.event_type.property_type(col)
        if t is None:
            raise scope.fail(f"Column '{col}' is not a column of table '{table.name}'")
    declared = getattr(table, "context", None)
    if declared is not None:
        get = _partition_get(table, declared, scope, engine)
    else:
        get = table.get
    if len(fns) == 1:
        f0 = fns[0]
        return Compiled(lambda eps: get(f0(eps), col), t,
                        has_aggregation=any(k.has_aggregation for k in keys))
    return Compiled(lambda eps: get(tuple(f(eps) for f in fns), col), t,
                    has_aggregation=any(k.has_aggregation for k in keys))


def unkeyed_table_column(node: A.Property, scope: Any) -> Any:
    """`T.column` for a table without primary key (Esper's unkeyed table access), when `T`
    is no stream of the statement; None when the property means something else."""
    first, col = node.path
    if first.index is not None or first.key is not None or scope.stream_by_alias(first.name) is not None:
        return None
    engine = getattr(scope.services, "engine", None)
    if engine is None:
        return None
    table = engine.services.named_windows.get(first.name)
    if table is None or not table.is_table or table.primary_keys:
        return None
    if col.index is not None or col.key is not None:
        return None
    return compile_expr(A.TableAccess(first.name, (), col.name, node.span), scope)


def _partition_get(table: Any, declared: str, scope: Any, engine: "Runtime") -> Any:
    """`T[key]` on a table declared with a context: the row of the running partition's table
    (the statement's context holder has the partition's properties in place)."""
    definition = engine.services.contexts.get(declared)
    holder = scope.context_holder
    if holder is None or definition is None or scope.context_type is not definition.context_type:
        raise scope.fail(f"Table by name '{table.name}' has been declared for context '{declared}' "
                         f"and can only be used within the same context")
    for_props = table.for_props

    def get(key: Any, column: Any) -> Any:
        inst = for_props(holder.properties)
        return inst.get(key, column) if inst is not None else None
    return get


TABLE_COLUMN.append(unkeyed_table_column)   # `T.column` in any expression
