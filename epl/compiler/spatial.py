"""Spatial EPL (Esper's "Spatial Methods and Indexes"): the methods
`point(px, py).inside(rectangle(x, y, width, height))` and
`rectangle(x, y, w, h).intersects(rectangle(x, y, w, h))`, the spatial `create index`
columns `(px, py) pointregionquadtree(minX, minY, width, height [, leafCapacity [, maxTreeHeight]])`
and `(x, y, w, h) mxcifquadtree(...)`, and the on-action lookups that use such an index.

Semantics as Esper defines them: a point is inside a rectangle when x <= px < x + width and
y <= py < y + height; two rectangles intersect when they overlap or touch (edges included).
A null coordinate gives null."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

import engine.contracts.epl_types as T

import epl.ast as A
from epl.plans.namedwindows import SPATIAL_ARITY, SpatialIndexSpec
from engine.contracts.errors import EPLValidationError
from .compiled import Compiled
from .result import CompiledStatement

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

_DEFAULT_CAPACITY, _DEFAULT_HEIGHT = 4, 20


# -- methods ---------------------------------------------------------------------------------
def inside(px: Any, py: Any, x: Any, y: Any, w: Any, h: Any) -> Optional[bool]:
    if px is None or py is None or x is None or y is None or w is None or h is None:
        return None
    return x <= px < x + w and y <= py < y + h


def intersects(x: Any, y: Any, w: Any, h: Any, ox: Any, oy: Any, ow: Any, oh: Any) -> Optional[bool]:
    if None in (x, y, w, h, ox, oy, ow, oh):
        return None
    return not (x > ox + ow or y > oy + oh or x + w < ox or y + h < oy)


def _shape(node: Any, name: str, arity: int) -> Optional[tuple]:
    while isinstance(node, A.Parens):
        node = node.inner
    if isinstance(node, A.Call) and node.name.lower() == name and not node.distinct:
        # `filterindex: name` asks Esper for a spatial filter index: an optimization only,
        # the filter evaluates the method either way
        args = tuple(a for a in node.args
                     if not (isinstance(a, A.NamedArg) and a.name.lower() == "filterindex"))
        if len(args) != arity:
            return ()
        return args
    return None


def compile_spatial_method(node: A.Dot, scope: Any) -> Optional[Compiled]:
    """`point(..).inside(rectangle(..))` / `rectangle(..).intersects(rectangle(..))`; None for
    any other method."""
    name = node.name.lower()
    if node.args is None or name not in ("inside", "intersects"):
        return None
    first = "point" if name == "inside" else "rectangle"
    own = _shape(node.target, first, 2 if first == "point" else 4)
    if own is None:
        return None
    if own == ():
        raise scope.fail(f"Failed to validate spatial method '{node.name}': {first} takes "
                         f"{2 if first == 'point' else 4} parameters")
    other = _shape(node.args[0], "rectangle", 4) if len(node.args) == 1 else None
    if not other:
        raise scope.fail(f"Failed to validate spatial method '{node.name}': expecting a single "
                         f"rectangle(x, y, width, height) parameter")
    from .expressions import compile_expr, expr_text
    parts = [compile_expr(e, scope) for e in own + other]
    for e, c in zip(own + other, parts):
        if not c.type.is_numeric and c.type.kind is not T.OBJECT.kind:
            raise scope.fail(f"Failed to validate spatial method '{node.name}': parameter "
                             f"'{expr_text(e)}' must return a numeric value")
    fns = tuple(c.fn for c in parts)
    op = inside if name == "inside" else intersects

    def method(eps: Any, _f: tuple = fns, _op: Callable = op) -> Any:
        return _op(*[f(eps) for f in _f])
    agg = any(c.has_aggregation for c in parts)
    if all(c.is_constant for c in parts):
        from .compiled import constant
        return constant(method(()), T.BOOLEAN)
    return Compiled(method, T.BOOLEAN, has_aggregation=agg)


def install(engine: "Runtime") -> None:
    from .hooks import chain_hook

    def dot_hook(previous: Optional[Callable]) -> Callable:
        def dot(node: Any, scope: Any) -> Any:
            compiled = compile_spatial_method(node, scope)
            if compiled is not None:
                return compiled
            return previous(node, scope) if previous is not None else None
        return dot

    chain_hook(engine, "dot", dot_hook)


# -- create index ----------------------------------------------------------------------------
def compile_spatial_index(node: A.CreateIndex, target: Any, engine: "Runtime", text: str) -> CompiledStatement:
    from .annotations import statement_name
    from .expressions import compile_expr, expr_text
    from .scope import StreamInfo
    from .select import base_scope
    if len(node.columns) != 1 or node.unique:
        raise EPLValidationError("A spatial index takes a single (expressions) index-type(parameters) "
                                 "column and cannot be unique", text)
    col = node.columns[0]
    kind = col.kind
    if kind not in SPATIAL_ARITY:
        raise EPLValidationError(f"Unrecognized advanced-type index '{kind}'", text)
    arity = SPATIAL_ARITY[kind]
    if len(col.exprs) != arity:
        raise EPLValidationError(f"Index of type '{kind}' requires {arity} expressions but "
                                 f"received {len(col.exprs)}", text)
    if not 4 <= len(col.params) <= 6:
        raise EPLValidationError(f"Index of type '{kind}' requires 4 to 6 parameters (minX, minY, "
                                 f"width, height [, leafCapacity [, maxTreeHeight]]) but received "
                                 f"{len(col.params)}", text)
    scope = base_scope(engine, [StreamInfo(0, target.event_type, None, target.name)], text)
    coords = []
    for e in col.exprs:
        c = compile_expr(e, scope)
        if not c.type.is_numeric:
            raise EPLValidationError(f"Index of type '{kind}' requires numeric expressions, "
                                     f"'{expr_text(e)}' returns '{c.type}'", text)
        coords.append(c.fn)
    params = []
    for e in col.params:
        c = compile_expr(e, scope)
        if not c.is_constant or not c.type.is_numeric:
            raise EPLValidationError(f"Index of type '{kind}' requires constant numeric parameters, "
                                     f"'{expr_text(e)}' is not", text)
        params.append(c.fn(()))
    if params[2] <= 0 or params[3] <= 0:
        raise EPLValidationError(f"Index of type '{kind}' requires a positive width and height", text)
    if len(params) > 4 and params[4] < 1 or len(params) > 5 and params[5] < 1:
        raise EPLValidationError(f"Index of type '{kind}' requires a leaf capacity and tree "
                                 f"height of at least 1", text)
    indexes = getattr(target, "indexes", None) or {}
    if node.name in indexes:
        raise EPLValidationError(f"An index by name '{node.name}' already exists", text)
    index = SpatialIndexSpec(node.name, kind, tuple(expr_text(e) for e in col.exprs), tuple(coords),
                             tuple(params))

    # a window makes the index from its plan (a context-partitioned one gives each
    # partition's window its own); a table's lookups scan, with the same results
    def add() -> None:
        if not target.is_table:
            target.add_index(index)

    def remove() -> None:
        if not target.is_table:
            target.remove_index(node.name)

    return CompiledStatement("create-index", None, statement_name(node.annotations),
                             annotations=node.annotations, on_create=[(add, remove)])


# -- lookups ---------------------------------------------------------------------------------
def spatial_lookup(where: Any, target: Any, scope: Any, target_info: Any) -> Optional[tuple]:
    """`(index columns, query-rectangle functions)` when a conjunct of `where` is a spatial
    method over the columns of a spatial index of `target` and values not of the target:
    the on-action then asks the index for candidates (the where-clause still checks them)."""
    spatial = [i for i in (getattr(target, "indexes", None) or {}).values() if getattr(i, "spatial", False)]
    if not spatial or where is None:
        return None
    from ..ast.walk import operands
    from .expressions import compile_expr
    from .keylookup import _column, _reads
    for conj in operands(where, A.BinOp.AND):
        while isinstance(conj, A.Parens):
            conj = conj.inner
        if not isinstance(conj, A.Dot) or conj.args is None or len(conj.args) != 1:
            continue
        name = conj.name.lower()
        if name == "inside":
            point, rect = _shape(conj.target, "point", 2), _shape(conj.args[0], "rectangle", 4)
            if not point or not rect:
                continue
            sides = [(point, rect, "pointregionquadtree")]
            # a trigger's point inside the rectangles an MX-CIF index holds
            sides.append((rect, point, "mxcifquadtree"))
        elif name == "intersects":
            a, b = _shape(conj.target, "rectangle", 4), _shape(conj.args[0], "rectangle", 4)
            if not a or not b:
                continue
            sides = [(a, b, "mxcifquadtree"), (b, a, "mxcifquadtree")]
        else:
            continue
        for indexed, query, kind in sides:
            cols = [_column(e, scope, target_info.index) for e in indexed]
            if None in cols or any(_reads(e, scope, target_info.index) for e in query):
                continue
            for idx in spatial:
                if idx.kind == kind and list(idx.columns[1:]) == cols:
                    fns = tuple(compile_expr(e, scope).fn for e in query)
                    if len(fns) == 2:           # a point: the zero-size rectangle at it
                        px, py = fns
                        fns = (px, py, lambda eps: 0, lambda eps: 0)
                    return idx.columns, fns
    return None
