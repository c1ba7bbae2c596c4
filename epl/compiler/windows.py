"""`create window`: the window's event type (from a type, a column list or a select clause),
its data window, and the registrations that make `insert into W` and `from W` reach it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from engine.contracts.epl_types import PropertyType
from engine.contracts.errors import EventTypeError
from engine.contracts.event_types import EventType, Representation

import epl.ast as A
from epl.plans.namedwindows import CreatePlan, InfraSpec, Preload, WindowSpec
from engine.contracts.errors import EPLValidationError
from .annotations import statement_name
from .expressions import compile_expr, compile_predicate, expr_text
from .result import CompiledStatement
from .scope import Scope, StreamInfo
from .context_use import check_context_use  # noqa: F401  (importers use it from here)
from .select import base_scope
from .views import compile_views

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def column_types(columns: tuple[A.ColumnDef, ...], engine: "Runtime", text: str, what: str) -> dict[str, PropertyType]:
    props: dict[str, PropertyType] = {}
    for col in columns:
        if col.type is None:
            raise EPLValidationError(f"Column '{col.name}' of {what} has no type", text)
        try:
            props[col.name] = engine.types.resolve_type(col.type.name + ("[]" if col.type.array else ""))
        except EventTypeError as e:
            raise EPLValidationError(str(e), text) from None
    return props


def check_new_name(name: str, engine: "Runtime", text: str) -> None:
    if engine.types.find(name) is not None or engine.services.named_windows.get(name) is not None:
        raise EPLValidationError(f"An event type or schema by name '{name}' already exists", text)


def compile_create_window(node: A.CreateWindow, engine: "Runtime", text: str) -> CompiledStatement:
    svc = engine.services.named_windows
    check_new_name(node.name, engine, text)
    source: Optional[EventType] = None
    row_fns: list[tuple[str, Any]] = []
    if node.columns:
        props = column_types(node.columns, engine, text, f"named window '{node.name}'")
    else:
        if node.as_type is None:
            raise EPLValidationError(f"Named window '{node.name}' needs a type, a column list or a select clause", text)
        source = engine.types.find(node.as_type)
        if source is None:
            raise EPLValidationError(
                f"Failed to resolve event type, named window or table by name '{node.as_type}'", text)
        if node.select is None or all(isinstance(i.expr, A.Wildcard) for i in node.select.items):
            props = dict(source.properties)
            row_fns = [(p, None) for p in props]
        else:
            scope = base_scope(engine, [StreamInfo(0, source, None, node.as_type)], text)
            props = {}
            for item in node.select.items:
                if isinstance(item.expr, A.Wildcard):
                    for p, t in source.properties.items():
                        props[p] = t
                        row_fns.append((p, None))
                    continue
                c = compile_expr(item.expr, scope)
                name = item.alias or expr_text(item.expr)
                props[name] = c.type
                row_fns.append((name, c.fn))
    event_type = EventType(node.name, Representation.MAP, props)
    if source is not None and source.representation is Representation.VARIANT and not node.select:
        # a window of a variant stream holds the variant's events, every member type's
        from engine.contracts.schema_types import make_variant
        event_type = make_variant(node.name, source.variant_members)
    stream = StreamInfo(0, event_type, None, node.name)
    scope = base_scope(engine, [stream], text)
    views = compile_views(node.views, stream, scope, retain_union=node.retain_union)
    if not views:
        from views.keepall import KeepAllWindowFactory
        views = (KeepAllWindowFactory(),)

    preload = None
    if node.insert:
        src_window = svc.get(node.as_type) if node.as_type else None
        if src_window is None or src_window.is_table:
            raise EPLValidationError(f"A named window by name '{node.as_type}' could not be located, "
                                     f"the insert-keyword requires an existing named window", text)
        accept = None
        if node.insert_where is not None:
            _check_insert_where(node.insert_where, engine, text)
            src_scope = base_scope(engine, [StreamInfo(0, src_window.event_type, None, node.as_type)], text)
            pred = compile_predicate(node.insert_where, src_scope)
            accept = lambda b, _p=pred: _p((b,))  # noqa: E731
        preload = Preload(node.as_type, accept, tuple(row_fns))
    if node.context is not None:
        if preload is not None:
            raise EPLValidationError(f"Named window '{node.name}' declared with context "
                                     f"'{node.context}' cannot be populated from another named "
                                     f"window (insert-keyword)", text)
        check_context(node.context, engine, text)
    spec = WindowSpec(node.name, event_type, tuple(views), context=node.context)
    plan = CreatePlan(spec, event_type, event_type.property_names, "irstream", preload)
    return CompiledStatement("create-window", plan, statement_name(node.annotations),
                             annotations=node.annotations, on_create=[declaration(spec, engine)])


def declaration(spec: InfraSpec, engine: "Runtime") -> tuple:
    """The (register, unregister) pair of a `create window|table` statement: its type and
    the window or table the named-window service makes from `spec`."""
    made: list = []

    def register() -> None:
        engine.types.add(spec.event_type)
        made.append(engine.services.named_windows.declare(spec))

    def unregister() -> None:
        if made:
            engine.services.named_windows.remove(made.pop())
        if engine.types.find(spec.name) is spec.event_type:
            engine.types.remove(spec.name)
    return register, unregister


def _check_insert_where(where: A.Expr, engine: "Runtime", text: str) -> None:
    """Esper's limits on `create window ... insert where <expr>`."""
    from ..ast.walk import walk
    for n in walk(where):
        if isinstance(n, (A.Subquery, A.Exists, A.InSubquery)) or \
                (isinstance(n, A.Quantified) and isinstance(getattr(n, "subquery", None), A.Subquery)):
            raise EPLValidationError("Create window where-clause may not have a subselect", text)
        if isinstance(n, A.Call):
            fname = n.name.lower()
            if fname in ("prev", "prior", "prevtail", "prevwindow", "prevcount"):
                raise EPLValidationError("Create window where-clause may not have a function that "
                                         "requires view resources (prior, prev)", text)
            if fname in engine.aggregations:
                raise EPLValidationError("Create window where-clause may not have an aggregation "
                                         "function", text)


def check_context(context: str, engine: "Runtime", text: str) -> None:
    """`context X create window|table`: X must be declared (the create statement then runs
    per partition of X)."""
    ctx_svc = engine.services.contexts
    definition = ctx_svc.get(context) if ctx_svc is not None else None
    if definition is None:
        raise EPLValidationError(f"Context by name '{context}' has not been declared", text)


def insert_target(engine: "Runtime", stream_name: Optional[str]) -> Any:
    """The window or table declared with a context that `insert into <stream_name>` names,
    or None."""
    if stream_name is None:
        return None
    svc = engine.services.named_windows
    target = svc.get(stream_name) if svc is not None else None
    return target if getattr(target, "context", None) is not None else None


def check_insert_into(node: Any, engine: "Runtime", text: str) -> Any:
    """`insert into W` where W is declared with a context: only from that context's
    statements (rows go to the partition's own W); returns W, or None for other targets."""
    ins = getattr(node, "insert_into", None)
    target = insert_target(engine, ins.stream_name if ins is not None else None)
    if target is not None:
        check_context_use(target, getattr(node, "context", None), text)
    return target


def compile_create_table(node: A.CreateTable, engine: "Runtime", text: str) -> CompiledStatement:
    from .tables import compile_create_table as _compile
    return _compile(node, engine, text)
