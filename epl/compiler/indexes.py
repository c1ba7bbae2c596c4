"""`create [unique] index I on W(col [hash|btree], ...)`: an explicit index on a named window
(on-actions look rows up through it) or a table; registered when the statement is created and
dropped with it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import epl.ast as A
from epl.plans.namedwindows import IndexSpec, unique_violation
from engine.contracts.errors import EPLValidationError
from .annotations import statement_name
from .result import CompiledStatement

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def compile_create_index(node: A.CreateIndex, engine: "Runtime", text: str) -> CompiledStatement:
    svc = engine.services.named_windows
    target = svc.get(node.target)
    if target is None:
        raise EPLValidationError(f"A named window or table by name '{node.target}' does not exist", text)
    declared = getattr(target, "context", None)
    if declared is not None and node.context != declared:
        raise EPLValidationError(f"{target.kind} by name '{node.target}' has been declared for "
                                 f"context '{declared}' and can only be used within the same "
                                 f"context", text)
    if any(isinstance(c, A.SpatialIndexColumn) for c in node.columns):
        from .spatial import compile_spatial_index
        return compile_spatial_index(node, target, engine, text)
    if target.is_table and not getattr(target, "primary_keys", ()):
        raise EPLValidationError("Tables without primary key column(s) do not allow creating an index", text)
    props = target.event_type.property_names
    seen: set[str] = set()
    for c in node.columns:
        if c.name not in props:
            raise EPLValidationError(f"Property named '{c.name}' not found", text)
        if c.name in seen:   # Esper's wording, "then" included
            raise EPLValidationError(f"Property named '{c.name}' has been declared more then once", text)
        seen.add(c.name)
        if c.kind not in ("hash", "btree"):
            raise EPLValidationError(f"Unrecognized advanced-type index '{c.kind}'", text)
    if node.unique and any(c.kind == "btree" for c in node.columns):
        raise EPLValidationError("Combination of unique index with btree (range) is not supported", text)
    indexes = _indexes(target)
    if node.name in indexes:
        raise EPLValidationError(f"An index by name '{node.name}' already exists", text)
    index = IndexSpec(node.name, tuple(c.name for c in node.columns),
                      tuple(c.kind for c in node.columns), node.unique)
    if node.unique:         # the rows held now must not repeat a key
        seen: set = set()
        for row in target:
            k = index.key_of(row)
            if k in seen:
                raise EPLValidationError(unique_violation(node.name, k), text)
            seen.add(k)

    # the target makes the index from its plan: a window a WindowIndex, a table its own kind
    # of index over its rows; a context-partitioned window or table one per partition
    def add() -> None:
        target.add_index(index)

    def remove() -> None:
        target.remove_index(node.name)

    return CompiledStatement("create-index", None, statement_name(node.annotations),
                             annotations=node.annotations, on_create=[(add, remove)])


def _indexes(target: Any) -> dict:
    idx = getattr(target, "indexes", None)
    if idx is None:
        idx = {}
        try:
            target.indexes = idx
        except AttributeError:
            pass
    return idx
