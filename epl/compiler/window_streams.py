"""Stream plans of statements that consume a named window (`select ... from W(filter)`) or
read a table in a join."""
from __future__ import annotations

from typing import Any

from engine.contracts.plans import StreamPlan
from views.consumer import ConsumerViewFactory
from epl.compiler.expressions import compile_predicate
from epl.compiler.filters import UnfilteredTemplate
from epl.compiler.scope import Scope, StreamInfo


def consumer_stream(service: Any, info: Any, spec: Any, views: tuple, scope: Any) -> StreamPlan:
    """The stream plan of `select ... from W(filter)#views as w` (`service`: the engine's named
    windows)."""
    window = service.windows[info.type_name]
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
