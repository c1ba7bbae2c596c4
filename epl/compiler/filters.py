"""Stream filters to filter-index specs: the planner decides what is indexed; what is not
becomes a boolean leaf compiled here."""
from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING, Any, Optional

from engine.contracts.errors import EvaluationTimeout

from filterindex.spec import FilterSpec

import epl.ast as A
from engine.contracts.errors import EPLError
from ..ast.walk import walk
from .expressions import compile_expr, expr_text
from .scope import Scope, StreamInfo

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

log = logging.getLogger("epl.regex")


class UnfilteredTemplate:
    """Every event of the type."""

    __slots__ = ("spec",)

    def __init__(self, event_type: Any) -> None:
        self.spec = FilterSpec(event_type, ((),))

    def bind(self, bindings: Any = None) -> FilterSpec:
        return self.spec


def compile_filter(expr: Optional[A.Expr], stream: StreamInfo, scope: Scope,
                   tag_scope: Optional[Scope] = None) -> Any:
    """A template whose `bind(bindings)` gives the FilterSpec to register. `tag_scope`
    resolves names of earlier pattern tags (their values are bound at activation)."""
    if expr is None:
        return UnfilteredTemplate(stream.event_type)
    from epl.compiler.filter_planner import plan_filter
    from filterindex.planner import Bound, Constant
    own = Scope(streams=[StreamInfo(0, stream.event_type, stream.alias, stream.type_name)],
                functions=scope.functions, variables=scope.variables, epl=scope.epl,
                services=scope.services, context_type=scope.context_type,
                context_holder=scope.context_holder)
    # validate the whole filter once (unknown properties, type errors) before planning
    from .expressions import compile_predicate
    if tag_scope is None:
        compile_predicate(expr, own)

    def resolve_value(e: A.Expr) -> Any:
        if _reads_stream(e, stream):
            return None
        empty = Scope(streams=[], functions=scope.functions, variables=scope.variables,
                      epl=scope.epl, services=scope.services, context_type=scope.context_type,
                      context_holder=scope.context_holder)
        # a value compiles without streams when it is known at registration; one that reads
        # a stream (another pattern tag, a property) is refused with a validation error and is
        # not an indexed value. Anything else is a compiler bug and must surface.
        try:
            c = compile_expr(e, empty)
        except EPLError:
            c = None
        if c is not None and c.is_constant:
            return Constant(c.constant)
        if c is not None and scope.context_type is not None and _reads_context(e):
            # `context.x`: known when a context partition registers the filter
            return Bound(lambda bindings, _f=c.fn: _f(()))
        if tag_scope is not None:
            try:
                tc = compile_expr(e, tag_scope)
            except EPLError:        # not known at activation either: a boolean leaf
                return None
            return Bound(tc.fn)     # fn(bindings): the bindings are the events per stream
        return None

    def compile_pred(e: A.Expr) -> Any:
        if tag_scope is not None:
            merged = Scope(streams=[StreamInfo(0, stream.event_type, stream.alias, stream.type_name)]
                           + [StreamInfo(i + 1, s.event_type, s.alias, s.type_name)
                              for i, s in enumerate(tag_scope.streams)],
                           functions=scope.functions, variables=scope.variables, epl=scope.epl,
                           services=scope.services)
            f = compile_expr(e, merged).fn

            def pred(bean, bindings=None, _f=f):
                return _f((bean,) + tuple(bindings or ())) is True
            return _bounded(pred, e, getattr(scope.services, "engine", None))
        f = compile_expr(e, own).fn

        def pred1(bean, bindings=None, _f=f):
            return _f((bean,)) is True
        return _bounded(pred1, e, getattr(scope.services, "engine", None))

    return plan_filter(expr, stream.event_type, stream_alias=stream.alias,
                       resolve_value=resolve_value, compile_predicate=compile_pred,
                       key_of=_statement_key(scope))


def _bounded(pred: Any, e: A.Expr, engine: "Runtime") -> Any:
    """A filter leaf that cannot be evaluated on an event does not match it: the statements
    sharing the leaf skip the event, every other statement processes it. Filters run before
    the event's values are checked against its type (events no filter wants are never
    checked), so a value of the wrong type gets here; a regular expression past its time
    bound is reported through the engine's `regex_timeout` signal and a log line."""
    text = expr_text(e)

    def bounded(bean, bindings=None):
        try:
            return pred(bean, bindings)
        except (TypeError, ValueError, ArithmeticError, AttributeError, LookupError):
            return False
        except EvaluationTimeout as exc:
            log.warning("Filter '%s' skipped an event: %s", text, exc)
            if engine is not None:
                engine.signals.regex_timeout.send(engine, expression=text, event=bean, error=exc)
            return False
    return bounded


_tokens = itertools.count(1)


def _statement_key(scope: Scope) -> Any:
    """Identical filter leaves share one predicate, except those reading a subquery: its
    window belongs to one statement, so the key names the statement being compiled."""
    token = next(_tokens)

    def key_of(e: A.Expr) -> str:
        text = expr_text(e)
        return f"{text} [subquery of #{token}]" if _has_subquery(e) else text
    return key_of


def _has_subquery(e: Any) -> bool:
    return any(isinstance(n, (A.Subquery, A.Exists, A.InSubquery)) for n in walk(e))


def _reads_stream(e: A.Expr, stream: StreamInfo) -> bool:
    """Whether an expression reads the filtered event itself (so it is not a bound value)."""
    def reads(n: Any) -> bool:
        if not isinstance(n, A.Property):
            return False
        first = n.path[0].name
        return bool(stream.alias and first == stream.alias) or \
            stream.event_type.property_type(".".join(s.name for s in n.path)) is not None
    return any(reads(n) for n in walk(e, prune=lambda n: isinstance(n, A.Property)))


def _reads_context(e: A.Expr) -> bool:
    """Whether an expression reads a context property (`context.key1`)."""
    return any(isinstance(n, A.Property) and len(n.path) > 1 and n.path[0].name == "context"
               for n in walk(e))
