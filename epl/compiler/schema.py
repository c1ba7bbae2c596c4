"""`create schema`: map, object-array and JSON event types with typed properties, supertypes
and timestamps, and variant streams (`create variant schema V as T1, T2 | *`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.contracts.errors import EventTypeError
from engine.contracts.event_types import EventType, Representation
from engine.contracts.schema_types import make_json, make_objectarray, make_variant

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from .annotations import annotation, statement_name
from .result import CompiledStatement

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def compile_create_schema(node: A.CreateSchema, engine: "Runtime", text: str) -> CompiledStatement:
    types = engine.types
    rep = _representation(node, text)
    if rep == "variant":
        event_type = _variant(node, types, text)
    elif rep == "xml":
        from .xmlschema import xml_schema_type
        event_type = xml_schema_type(node, engine, text)
    else:
        event_type = _typed(node, types, rep, text)
    existing = types.find(node.name)
    if existing is not None:
        raise EPLValidationError(f"Event type named '{node.name}' has already been declared", text)

    def register() -> None:
        types.add(event_type)

    def unregister() -> None:
        if types.find(node.name) is event_type:
            types.remove(node.name)

    return CompiledStatement("create-schema", plan=None, name=statement_name(node.annotations),
                             annotations=node.annotations, on_create=[(register, unregister)])


def _representation(node: A.CreateSchema, text: str) -> str:
    """`create objectarray schema`, or `@EventRepresentation(objectarray)` before a plain
    `create schema`; maps by default."""
    rep = node.representation
    if rep is None:
        a = annotation(node.annotations, "EventRepresentation")
        if a is not None:
            v = a.value if a.value is not None else dict(a.attrs).get("value")
            rep = str(v).lower() if v is not None else None
    rep = rep or "map"
    if rep == "avro":
        raise EPLValidationError(
            f"Event representation '{rep}' is not supported: use a map, objectarray or json "
            f"schema", text)
    if rep not in ("map", "objectarray", "json", "variant", "bean", "xml"):
        raise EPLValidationError(f"Unrecognized event representation '{rep}'", text)
    return rep


def _typed(node: A.CreateSchema, types: Any, rep: str, text: str) -> EventType:
    if node.class_name is not None:
        raise EPLValidationError(
            f"Schema '{node.name}' as class '{node.class_name}': register Python classes with "
            f"engine.register_type(cls) instead", text)
    try:
        props = {}
        for col in node.columns:
            if col.name in props:
                raise EPLValidationError(f"Duplicate column name '{col.name}' in schema "
                                         f"'{node.name}'", text)
            if col.type is None:
                raise EPLValidationError(f"Property '{col.name}' of schema '{node.name}' has no type", text)
            spec = col.type.name + ("[]" if col.type.array else "")
            props[col.name] = types.resolve_type(spec)
        supers = []
        for s in node.inherits:
            st = types.find(s)
            if st is None:
                raise EPLValidationError(f"Supertype by name '{s}' could not be found", text)
            supers.append(st)
        dynamic = rep == "json" and _json_dynamic(node)
        event_type = EventType(node.name, Representation.MAP, props, supers,
                               start_timestamp=node.start_timestamp, end_timestamp=node.end_timestamp,
                               dynamic=dynamic)
    except EventTypeError as e:
        raise EPLValidationError(str(e), text) from None
    if rep == "objectarray":
        return make_objectarray(event_type)
    if rep == "json":
        return make_json(event_type)
    return event_type


def _json_dynamic(node: A.CreateSchema) -> bool:
    """`@JsonSchema(dynamic=true)`: properties not declared are read from the JSON too."""
    a = annotation(node.annotations, "JsonSchema")
    if a is None:
        return False
    v = dict(a.attrs).get("dynamic", False)
    return v is True or str(v).lower() == "true"


def _variant(node: A.CreateSchema, types: Any, text: str) -> EventType:
    if node.variant_any:
        return make_variant(node.name, None)
    members = []
    for t in node.variant_types:
        et = types.find(t)
        if et is None:
            raise EPLValidationError(
                f"Event type by name '{t}' could not be found for use in variant stream by name "
                f"'{node.name}'", text)
        members.append(et)
    return make_variant(node.name, members)
