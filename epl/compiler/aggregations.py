"""Collects the aggregation calls of a statement while its expressions compile: each call
becomes an AggEntry (factory, what an event enters) and an expression reading the current
aggregation row."""
from __future__ import annotations

from typing import Any

import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType

import epl.ast as A
from epl.plans.aggregation import AggEntry, AggregationContext
from .compiled import Compiled
from .expressions import compile_expr, expr_text
from .scope import Scope


class AggregationCollector:
    """Identical calls (same text) share one aggregator."""

    def __init__(self, user_registry: Any = None) -> None:
        self.ctx = AggregationContext()
        self.entries: list[AggEntry] = []
        self._by_text: dict[str, tuple[int, PropertyType]] = {}
        self.user_registry = user_registry or {}
        self.into_table = False         # the statement aggregates `into table`

    def __bool__(self) -> bool:
        return bool(self.entries)

    def collect(self, node: A.Call, scope: Scope) -> Compiled:
        from engine.contracts.aggregation import AggregationError
        from engine.contracts.aggregation import make_factory
        text = expr_text(node)
        known = self._by_text.get(text)
        if known is None:
            plain = [a for a in node.args if not isinstance(a, A.NamedArg)]
            named_nodes = {a.name: a.value for a in node.args if isinstance(a, A.NamedArg)}
            lname = node.name.lower()
            if lname == "countminsketchadd" and not self.into_table:
                raise scope.fail("Count-min-sketch aggregation function 'countMinSketchAdd' can only "
                                 "be used with into-table")
            if lname in POSITIONAL_FILTER and len(plain) == 2 and \
                    not any(k.lower() == "filter" for k in named_nodes):
                # `count(*, price > 10)`, `sum(vol, sym = 'X')`: the last parameter filters
                named_nodes["filter"] = plain.pop()
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
            group_key = None
            for k, v in named_nodes.items():
                if k.lower() == "group_by":
                    group_key = _group_key(v, inner)
                elif k.lower() == "filter":
                    fc = compile_expr(v, inner)
                    if fc.type.kind not in (EPLType.BOOLEAN, EPLType.OBJECT):
                        raise scope.fail(
                            f"Failed to validate select-clause expression '{text}': Invalid filter "
                            f"expression parameter to the aggregation function '{lname}' is expected "
                            f"to return a boolean value but returns {_java_name(fc.type)}")
                    ff = fc.fn
                    accept = (lambda eps, _f=ff: _f(eps) is True)
                    named["filter"] = accept
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
            if group_key is not None:
                # per-aggregation grouping: one aggregator per key of its own group_by
                factory = _KeyedFactory(factory)
                value_of = (lambda eps, _k=group_key, _v=value_of: (_k(eps), _v(eps)))
            index = len(self.entries)
            self.entries.append(AggEntry(factory, value_of, accept))
            rtype = factory.result_type()
            if factory.takes_event and node.name.lower() in ("maxby", "minby", "maxbyever", "minbyever") and scope.streams:
                rtype = PropertyType(EPLType.EVENT, event_type=scope.streams[0].event_type)
            known = (index, rtype, group_key)
            self._by_text[text] = known
        index, rtype, group_key = known
        ctx = self.ctx
        if group_key is not None:
            def keyed_value(eps, _c=ctx, _i=index, _k=group_key):
                return _c.row[_i].value_for(_k(eps)) if eps else None
            return Compiled(keyed_value, rtype, has_aggregation=True)
        return Compiled(lambda eps, _c=ctx, _i=index: _c.row[_i].value(), rtype, has_aggregation=True)


def _group_key(node: A.Expr, scope: Scope):
    """`group_by: a` or `group_by: (a, b)`."""
    parts = list(node.items) if isinstance(node, (A.ArrayLiteral, A.ExprTuple)) else [node]
    if len(parts) == 1 and isinstance(parts[0], A.Parens):
        parts = [parts[0].inner]
    fns = tuple(compile_expr(p, scope).fn for p in parts)
    if not fns:          # `group_by: ()`: one group of everything
        return lambda eps: ()
    if len(fns) == 1:
        return fns[0]
    return lambda eps, _f=fns: tuple(f(eps) for f in _f)


POSITIONAL_FILTER = frozenset((
    "count", "sum", "avg", "median", "stddev", "avedev", "countever", "firstever", "lastever",
    "maxever", "minever", "fmin", "fmax", "fminever", "fmaxever"))


def _java_name(t: PropertyType) -> str:
    from .casts import JAVA_NAMES
    return JAVA_NAMES.get(t.kind, str(t))


class _KeyedFactory:
    """Wraps an aggregation so that it keeps one aggregator per group_by key. Its state is
    shared by all rows of a statement's aggregation (`shared`): the function groups by its
    own keys, whatever the statement groups by."""

    shared = True

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.takes_event = False

    def result_type(self):
        return self.inner.result_type()

    def make(self) -> "_KeyedAggregator":
        return _KeyedAggregator(self.inner)


class _KeyedAggregator:
    __slots__ = ("factory", "groups", "counts")

    def __init__(self, factory: Any) -> None:
        self.factory = factory
        self.groups: dict = {}
        self.counts: dict = {}

    def enter(self, kv) -> None:
        key, value = kv
        agg = self.groups.get(key)
        if agg is None:
            agg = self.groups[key] = self.factory.make()
        agg.enter(value)
        self.counts[key] = self.counts.get(key, 0) + 1

    def leave(self, kv) -> None:
        key, value = kv
        agg = self.groups.get(key)
        if agg is None:
            return
        agg.leave(value)
        n = self.counts[key] - 1
        if n <= 0:
            del self.groups[key]
            del self.counts[key]
        else:
            self.counts[key] = n

    def value_for(self, key):
        agg = self.groups.get(key)
        return agg.value() if agg is not None else self.factory.make().value()

    def value(self):
        return None

    def clear(self) -> None:
        self.groups.clear()
        self.counts.clear()


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
