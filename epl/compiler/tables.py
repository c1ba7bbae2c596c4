"""`create table Name (col type [primary key], agg_col aggregation(type), ...)`: the table's
event type, its primary key and the aggregation factories of its aggregation columns."""
from __future__ import annotations

from typing import Any

from engine.epl_types import PropertyType
from engine.errors import EventTypeError
from engine.event_types import EventType, Representation
from engine.namedwindows.service import TablePlan
from engine.namedwindows.table import Table

from .. import ast as A
from ..errors import EPLValidationError
from .annotations import statement_name
from .result import CompiledStatement
from .windows import check_new_name


def compile_create_table(node: A.CreateTable, engine: Any, text: str) -> CompiledStatement:
    svc = engine.services["named_windows"]
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
    table = Table(node.name, event_type, keys, plain, aggs)
    plan = TablePlan(table, event_type, event_type.property_names)

    def register() -> None:
        engine.types.add(event_type)
        svc.add(table)

    def unregister() -> None:
        svc.remove(table)
        if engine.types.find(node.name) is event_type:
            engine.types.remove(node.name)

    return CompiledStatement("create-table", plan, statement_name(node.annotations),
                             annotations=node.annotations, on_create=[(register, unregister)])


def _aggregation(col: A.ColumnDef, engine: Any, text: str) -> Any:
    """`sum(int)`, `count(*)`, `avg(double)`, `window(*) @type(T)`: the arguments name types."""
    from engine.aggregation import AggregationError, make_factory
    call = col.aggregation
    if not isinstance(call, A.Call):
        raise EPLValidationError(f"Column '{col.name}' must declare an aggregation function", text)
    star = False
    types: list[PropertyType] = []
    for a in call.args:
        if isinstance(a, A.Wildcard):
            star = True
            continue
        if isinstance(a, A.Property) and len(a.path) == 1:
            try:
                types.append(engine.types.resolve_type(a.path[0].name))
            except EventTypeError as e:
                raise EPLValidationError(str(e), text) from None
            continue
        raise EPLValidationError(f"Aggregation column '{col.name}' takes type names as parameters", text)
    try:
        return make_factory(call.name.lower(), types, distinct=call.distinct, star=star,
                            registry=engine._aggregations)
    except AggregationError as e:
        raise EPLValidationError(f"Failed to validate table column '{col.name}': {e}", text) from None
