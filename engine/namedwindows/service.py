"""`engine.services['named_windows']`: the named windows and tables of an engine by name,
and the stream plans of statements that consume a named window."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from engine.contracts.event_types import EventType
from engine.plan import StreamPlan

from .consumer import ConsumerViewFactory


@dataclass(frozen=True)
class WindowPlan:
    """The plan of a `create window` statement: starting it starts the window."""

    window: Any
    out_type: EventType
    columns: tuple[str, ...]
    passthrough: bool = True
    selector: str = "irstream"     # the statement's listeners see what enters and leaves
    insert_into: Any = None
    preload: Optional[Callable[[], list]] = None   # `insert` from another window

    def instantiate(self, engine: Any, statement: Any) -> list:
        w = self.window.start(engine, statement)
        if self.preload is not None:
            w.insert(self.preload())
        return [w]


@dataclass(frozen=True)
class TablePlan:
    """The plan of a `create table` statement: the table lives as long as the statement."""

    table: Any
    out_type: EventType
    columns: tuple[str, ...]
    passthrough: bool = True
    selector: str = "istream"
    insert_into: Any = None

    def instantiate(self, engine: Any, statement: Any) -> list:
        return [self.table.start(engine, statement)]


@dataclass
class NamedWindowService:
    windows: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str) -> Any:
        return self.windows.get(name)

    def is_window(self, name: str) -> bool:
        w = self.windows.get(name)
        return w is not None and not w.is_table

    def is_table(self, name: str) -> bool:
        w = self.windows.get(name)
        return w is not None and w.is_table

    def add(self, window: Any) -> None:
        self.windows[window.name] = window

    def remove(self, window: Any) -> None:
        if self.windows.get(window.name) is window:
            del self.windows[window.name]

    def into_table(self, plan: Any, node: Any, engine: Any, text: str) -> Any:
        """The select plan of `into table T select ...`, aggregating into T's rows."""
        from epl.compiler.tables import compile_into_table
        return compile_into_table(plan, node, engine, text)

    def consumer_stream(self, info: Any, spec: Any, views: tuple, scope: Any) -> StreamPlan:
        """The stream plan of `select ... from W(filter)#views as w`."""
        from epl.compiler.expressions import compile_predicate
        from epl.compiler.filters import UnfilteredTemplate
        from epl.compiler.scope import Scope, StreamInfo
        window = self.windows[info.type_name]
        if window.is_table:
            return _table_stream(window, info, spec, views, scope)
        accept = None
        if spec.event_filter.filter is not None:
            own = Scope(streams=[StreamInfo(0, info.event_type, info.alias, info.type_name)],
                        functions=scope.functions, variables=scope.variables, epl=scope.epl,
                        services=scope.services, context_type=scope.context_type,
                        context_holder=scope.context_holder)
            pred = compile_predicate(spec.event_filter.filter, own)
            accept = lambda bean, _p=pred: _p((bean,))  # noqa: E731
        return StreamPlan(info.index, info.event_type, info.alias, UnfilteredTemplate(info.event_type),
                          (ConsumerViewFactory(window, accept),) + tuple(views), spec.unidirectional,
                          named_window=window)


def _table_stream(table: Any, info: Any, spec: Any, views: tuple, scope: Any) -> StreamPlan:
    """A table in the from-clause of a join: its rows are looked up, never a trigger (the
    join reads the table's rows as they are when another stream's event arrives)."""
    from epl.compiler.filters import UnfilteredTemplate
    if len(scope.streams) < 2:
        raise scope.fail(f"Table '{table.name}' cannot be used as a stream in the from-clause "
                         f"except in a join; read it with {table.name}[key] or a fire-and-forget query")
    if views or spec.event_filter.filter is not None or spec.unidirectional:
        raise scope.fail(f"Table '{table.name}' in the from-clause of a join takes no filter, "
                         f"view or unidirectional keyword")
    if getattr(table, "context", None) is not None:
        raise scope.fail(f"Table by name '{table.name}' has been declared for context "
                         f"'{table.context}' and cannot be joined")
    return StreamPlan(info.index, info.event_type, info.alias, UnfilteredTemplate(info.event_type),
                      (), False, named_window=table)


def install(engine: Any) -> NamedWindowService:
    svc = engine.services.get("named_windows")
    if svc is None:
        svc = engine.services["named_windows"] = NamedWindowService()
    import epl.compiler.fireandforget as fireandforget
    import epl.compiler.indexes as indexes
    import epl.compiler.onactions as onactions
    import epl.compiler.tables as tables
    import epl.compiler.windows as windows  # noqa: F401 (tables: T[key])
    statements = engine.services.setdefault("statements", {})
    statements["CreateWindow"] = windows.compile_create_window
    statements["CreateTable"] = windows.compile_create_table
    statements["OnStatement"] = onactions.compile_on
    statements["CreateIndex"] = indexes.compile_create_index
    statements["InsertValues"] = fireandforget.refuse_as_statement
    statements["DeleteStatement"] = fireandforget.refuse_as_statement
    statements.setdefault("UpdateStatement", fireandforget.refuse_as_statement)
    return svc
