"""Compiling `update istream Type [as alias] set prop = expr, ... [where cond]` (Esper's
"Updating an Insert Stream") into an UpdatePlan (epl/plans/istream_updates.py), which
engine/istream_updates.py starts."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from engine.contracts.epl_types import EPLType
from engine.contracts.event_types import Representation
from engine.contracts.variable_values import assignable

import epl.ast as A
from epl.plans.istream_updates import UpdatePlan
from engine.contracts.errors import EPLValidationError
from .annotations import has, priority, statement_name
from .expressions import compile_expr, compile_predicate, expr_text
from .onactions import _coercing
from .result import CompiledStatement
from .scope import StreamInfo
from .select import base_scope

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def compile_update_istream(node: A.UpdateStatement, engine: "Runtime", text: str) -> CompiledStatement:
    et = engine.types.find(node.target)
    nw = engine.services.named_windows
    target = nw.get(node.target) if nw is not None else None
    if target is not None and hasattr(target, "primary_keys"):
        raise EPLValidationError(f"Update istream is not supported for tables ('{node.target}')", text)
    if et is None and target is not None:
        et = target.event_type
    if et is None:
        raise EPLValidationError(f"Failed to resolve event type, named window or table by name "
                                 f"'{node.target}'", text)
    if et.representation is Representation.VARIANT:
        raise EPLValidationError(f"Update istream is not supported for variant stream "
                                 f"'{node.target}'", text)
    scope = base_scope(engine, [StreamInfo(0, et, node.alias, node.target)], text)
    where = compile_predicate(node.where, scope) if node.where is not None else None
    assignments = tuple(_assignment(a, et, node.alias, scope, text) for a in node.assignments)
    plan = UpdatePlan(et, where, assignments, priority(node.annotations), has(node.annotations, "drop"),
                      subqueries=tuple(scope.services.subqueries))
    return CompiledStatement("update-istream", plan, statement_name(node.annotations),
                             annotations=node.annotations)


def _assignment(a: A.Assignment, et: Any, alias: Any, scope: Any,
                text: str) -> tuple[str, Callable[[Any], Any]]:
    col = _column(a.target, alias, text)
    t = et.property_type(col)
    if t is None:
        raise EPLValidationError(f"Property '{col}' is not available for write access", text)
    c = compile_expr(a.value, scope)
    if c.has_aggregation:
        raise EPLValidationError("Aggregation functions may not be used within an update-clause", text)
    if not assignable(t, c.type) and c.type.kind is not EPLType.OBJECT:
        raise EPLValidationError(f"Invalid assignment of column '{col}' of type '{t}' from "
                                 f"expression '{expr_text(a.value)}' of type '{c.type}'", text)
    return col, _coercing(c.fn, t)


def _column(e: A.Expr, alias: Any, text: str) -> str:
    if isinstance(e, A.Property):
        segs = e.path
        if len(segs) == 2 and alias is not None and segs[0].name == alias:
            return segs[1].name
        if len(segs) == 1:
            return segs[0].name
    raise EPLValidationError(f"Invalid assignment target '{expr_text(e)}'", text)
