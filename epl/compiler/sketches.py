"""Count-min sketch in EPL: the `countMinSketch({...})` table column and the methods
`countMinSketchFrequency(x)` / `countMinSketchTopk()` on such a column
(`Table.column.countMinSketchFrequency(word)`); the sketch itself is
engine/contracts/sketch.py, the aggregator filling a column engine/aggregation/sketch.py's."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional

import engine.contracts.epl_types as T
from engine.contracts.aggregation import AggregationError, make_factory
from engine.contracts.sketch import (
    ADD_FUNCTION, FREQUENCY, TOPK, TOPK_TYPE, CountMinSketchState, sketch_params,
)

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from .compiled import Compiled

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def sketch_column(col: A.ColumnDef, text: str, registry: Mapping[str, Any]) -> Any:
    """The factory of `name countMinSketch()` / `countMinSketch({epsOfTotalCount: ..})`: the
    `countMinSketchAdd` aggregator of the runtime's `registry` (engine.aggregations) with the
    column's parameters."""
    call = col.aggregation
    values: dict[str, Any] = {}
    if len(call.args) > 1 or (call.args and not isinstance(call.args[0], A.NewMap)):
        # Esper's wording, its double space included
        raise EPLValidationError(f"Failed to validate table column '{col.name}': Count-min-sketch "
                                 f"aggregation function 'countMinSketch'  expects either no "
                                 f"parameter or a single json parameter object", text)
    for name, e in (call.args[0].items if call.args else ()):
        v = _constant(e)
        if v is _NOT_CONSTANT:
            raise EPLValidationError(f"Failed to validate table column '{col.name}': Count-min-sketch "
                                     f"parameter '{name}' must be a constant", text)
        values[name] = v
    try:
        factory = make_factory(ADD_FUNCTION, [T.OBJECT], named={"params": sketch_params(values)},
                               registry=registry)
        return dataclasses.replace(factory, name="countminsketch")
    except AggregationError as e:
        raise EPLValidationError(f"Failed to validate table column '{col.name}': {e}", text) from None


_NOT_CONSTANT = object()


def _constant(e: A.Expr) -> Any:
    if isinstance(e, A.Literal):
        return e.value
    if isinstance(e, A.UnaryOp) and isinstance(e.operand, A.Literal) and \
            isinstance(e.operand.value, (int, float)) and getattr(e.op, "value", e.op) == "-":
        return -e.operand.value
    return _NOT_CONSTANT


def compile_sketch_method(node: A.Dot, scope: Any) -> Optional[Compiled]:
    """The method, or None when the target is no count-min-sketch column."""
    from .expressions import compile_expr, expr_text
    name = node.name.lower()
    target = compile_expr(node.target, scope)
    if target.type.pyclass is not CountMinSketchState:
        raise scope.fail(f"Failed to validate method '{node.name}': '{expr_text(node.target)}' is "
                         f"not a count-min-sketch table column")
    tf = target.fn
    args = node.args or ()
    if name == FREQUENCY:
        if len(args) != 1:
            raise scope.fail("Count-min-sketch method 'countMinSketchFrequency' requires a single "
                             "parameter expression")
        vf = compile_expr(args[0], scope).fn

        def frequency(eps: Any, _t: Callable = tf, _v: Callable = vf) -> Any:
            s = _t(eps)
            return s.frequency(_v(eps)) if s is not None else None
        return Compiled(frequency, T.LONG, has_aggregation=target.has_aggregation)
    if args:
        raise scope.fail("Count-min-sketch method 'countMinSketchTopk' takes no parameters")

    def topk(eps: Any, _t: Callable = tf) -> Any:
        s = _t(eps)
        return s.topk() if s is not None else None
    return Compiled(topk, TOPK_TYPE, has_aggregation=target.has_aggregation)


def install(engine: "Runtime") -> None:
    from .hooks import chain_hook

    def dot_hook(previous: Optional[Callable]) -> Callable:
        def dot(node: Any, scope: Any) -> Any:
            if node.args is not None and node.name.lower() in (FREQUENCY, TOPK):
                return compile_sketch_method(node, scope)
            return previous(node, scope) if previous is not None else None
        return dot

    def function_hook(previous: Optional[Callable]) -> Callable:
        def functions(node: Any, scope: Any) -> Any:
            name = node.name.lower()
            if name == "countminsketch":
                raise scope.fail("Count-min-sketch aggregation function 'countMinSketch' can only "
                                 "be used in create-table statements")
            if name in (FREQUENCY, TOPK):
                raise scope.fail(f"Count-min-sketch aggregation function '{node.name}' requires the "
                                 f"use of a table-access expression")
            return previous(node, scope) if previous is not None else None
        return functions

    chain_hook(engine, "dot", dot_hook)
    chain_hook(engine, "functions", function_hook)
