"""Collects the aggregation calls of a statement while its expressions compile: each call
becomes an AggEntry (factory, what an event enters) and an expression reading the current
aggregation row."""
from __future__ import annotations

from typing import Any

from engine import epl_types as T
from engine.epl_types import EPLType, PropertyType
from engine.resultset.aggregation_rows import AggEntry, AggregationContext

from .. import ast as A
from .compiled import Compiled
from .expressions import compile_expr, compile_predicate, expr_text
from .scope import Scope


class AggregationCollector:
    """Identical calls (same text) share one aggregator."""

    def __init__(self, user_registry: Any = None) -> None:
        self.ctx = AggregationContext()
        self.entries: list[AggEntry] = []
        self._by_text: dict[str, tuple[int, PropertyType]] = {}
        self.user_registry = user_registry or {}

    def __bool__(self) -> bool:
        return bool(self.entries)

    def collect(self, node: A.Call, scope: Scope) -> Compiled:
        from engine.aggregation import AggregationError, make_factory
        text = expr_text(node)
        known = self._by_text.get(text)
        if known is None:
            plain = [a for a in node.args if not isinstance(a, A.NamedArg)]
            named_nodes = {a.name: a.value for a in node.args if isinstance(a, A.NamedArg)}
            star = len(plain) == 1 and isinstance(plain[0], A.Wildcard)
            if star:
                plain = []
            inner = Scope(streams=scope.streams, functions=scope.functions,
                          variables=scope.variables, context_type=scope.context_type,
                          allow_aggregation=False, aggregations=None, epl=scope.epl,
                          services=scope.services, builtins=scope.builtins,
                          builtins_holder=scope.builtins_holder, context_holder=scope.context_holder)
            args = [compile_expr(a, inner) for a in plain]
            named: dict[str, Any] = {}
            accept = None
            for k, v in named_nodes.items():
                if k.lower() == "filter":
                    accept = compile_predicate(v, inner)
                    named[k] = accept
                else:
                    named[k] = compile_expr(v, inner)
            if scope.services is not None and hasattr(scope.services, "now"):
                named.setdefault("time_source", scope.services.now)
            try:
                factory = make_factory(node.name.lower(), [a.type for a in args], distinct=node.distinct,
                                       star=star, constants=[a.constant for a in args], named=named,
                                       registry=self.user_registry)
            except AggregationError as e:
                raise scope.fail(f"Failed to validate select-clause expression '{text}': {e}") from None
            value_of = _value_of(factory, args, star, scope)
            index = len(self.entries)
            self.entries.append(AggEntry(factory, value_of, accept))
            rtype = factory.result_type()
            if factory.takes_event and node.name.lower() in ("maxby", "minby") and scope.streams:
                rtype = PropertyType(EPLType.EVENT, event_type=scope.streams[0].event_type)
            known = (index, rtype)
            self._by_text[text] = known
        index, rtype = known
        ctx = self.ctx
        return Compiled(lambda eps, _c=ctx, _i=index: _c.row[_i].value(), rtype, has_aggregation=True)


def _value_of(factory: Any, args: list[Compiled], star: bool, scope: Scope):
    fns = tuple(a.fn for a in args)
    if factory.takes_event:
        first = fns[0] if fns else None
        if first is None:
            return lambda eps: (eps[0], eps[0])
        return lambda eps, _f=first: (_f(eps), eps[0])
    if not fns:
        return lambda eps: None
    if len(fns) == 1:
        return fns[0]
    return lambda eps: tuple(f(eps) for f in fns)
