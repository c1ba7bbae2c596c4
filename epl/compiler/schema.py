"""`create schema`: a map event type with typed properties, supertypes and timestamps."""
from __future__ import annotations

from typing import Any

from engine.errors import EventTypeError
from engine.event_types import EventType, Representation

from .. import ast as A
from ..errors import EPLValidationError
from .annotations import statement_name
from .result import CompiledStatement


def compile_create_schema(node: A.CreateSchema, engine: Any, text: str) -> CompiledStatement:
    types = engine.types
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
        event_type = EventType(node.name, Representation.MAP, props, supers,
                               start_timestamp=node.start_timestamp, end_timestamp=node.end_timestamp)
    except EventTypeError as e:
        raise EPLValidationError(str(e), text) from None
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
