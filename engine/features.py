"""The feature registry: statement compilers keyed by AST class and the compiler's hooks for
special functions, dot-methods and joins (Features), and the feature services with typed
accessors (Services), filled in by the feature packages when an engine is built."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Union

if TYPE_CHECKING:
    from .apptime.release import ApplicationClock
    from .contexts.service import ContextService
    from .namedwindows.service import NamedWindowService
    from .patterns.limits import PatternLimit
    from .subqueries import SubqueryService
    from .variables import VariableService

# (node, runtime, text) -> epl.compiler.result.CompiledStatement
StatementCompiler = Callable[[Any, Any, str], Any]
# (node, scope) -> a compiled expression, or None when the hook does not apply
CompileHook = Callable[[Any, Any], Any]
# (plan, runtime, statement) -> the statement's started instances: how the runtime starts a
# statement whose plan is data (epl/plans/), keyed by the plan's class
PlanStarter = Callable[[Any, Any, Any], list]


class PatternStreams(Protocol):
    """`engine.services.patterns`: what the select compiler asks for `pattern [...]` streams
    (epl.compiler.patterns.PatternService; a protocol, as the runtime does not import the
    compiler)."""

    def stream_info(self, index: int, spec: Any, engine: object, text: str) -> Any: ...

    def stream_plan(self, info: Any, spec: Any, views: tuple, scope: Any, engine: object,
                    text: str) -> Any: ...


class Features:
    """What the installed features add to the compiler. Every feature is always installed
    (engine.py, _install_features). A hook's install puts it in front of the hook installed
    before, which it calls for what it does not handle."""

    __slots__ = ("statements", "function_hook", "dot_hook", "join_compiler", "starters")

    def __init__(self) -> None:
        # statement kinds other than select and create schema, by their AST class
        self.statements: dict[type, StatementCompiler] = {}
        self.function_hook: Optional[CompileHook] = None   # `name(...)` beyond the built-ins
        self.dot_hook: Optional[CompileHook] = None        # `x.method(...)` beyond the built-ins
        # (node, streams, stream plans, where, scope, text) -> join factory: engine.joins
        self.join_compiler: Callable[..., Any] = _no_joins
        # plan data (epl/plans/) by its class -> the runtime function that starts it
        self.starters: dict[type, PlanStarter] = {}

    def add_statement(self, node_class: type, compiler: StatementCompiler) -> None:
        self.statements[node_class] = compiler

    def add_starter(self, plan_class: type, starter: PlanStarter) -> None:
        self.starters[plan_class] = starter

    def start(self, plan: Any, runtime: Any, statement: Any) -> list:
        """Start a statement whose plan is data (its `instantiate` asks for this): the
        starter registered for the plan's class makes the statement's instances."""
        return self.starters[type(plan)](plan, runtime, statement)

    def statement_compiler(self, node: Any) -> Optional[StatementCompiler]:
        return self.statements.get(type(node))


def _no_joins(*args: Any) -> Any:
    raise AssertionError("engine.joins is installed with every engine")


class Services(dict):
    """The feature services of one engine: a dict by name (`engine.services.variables`
    still works, also for replacing one) with a typed accessor for each. The first five are
    installed with every engine; the others are made on first use."""

    @property
    def variables(self) -> "VariableService":
        return self["variables"]

    @variables.setter
    def variables(self, svc: "VariableService") -> None:
        self["variables"] = svc

    @property
    def named_windows(self) -> "NamedWindowService":
        return self["named_windows"]

    @named_windows.setter
    def named_windows(self, svc: "NamedWindowService") -> None:
        self["named_windows"] = svc

    @property
    def contexts(self) -> "ContextService":
        return self["contexts"]

    @contexts.setter
    def contexts(self, svc: "ContextService") -> None:
        self["contexts"] = svc

    @property
    def subqueries(self) -> "SubqueryService":
        return self["subqueries"]

    @subqueries.setter
    def subqueries(self, svc: "SubqueryService") -> None:
        self["subqueries"] = svc

    @property
    def patterns(self) -> PatternStreams:
        return self["patterns"]

    @patterns.setter
    def patterns(self, svc: PatternStreams) -> None:
        self["patterns"] = svc

    @property
    def apptime(self) -> Optional["ApplicationClock"]:
        """The application clock, once an application-time input was opened."""
        return self.get("apptime")

    @apptime.setter
    def apptime(self, clock: "ApplicationClock") -> None:
        self["apptime"] = clock

    @property
    def pattern_limit(self) -> Union["PatternLimit", int, None]:
        """The pattern-instance limit: set by `set_pattern_limit`, or an int put here."""
        return self.get("pattern_limit")

    @pattern_limit.setter
    def pattern_limit(self, limit: Union["PatternLimit", int]) -> None:
        self["pattern_limit"] = limit

    @property
    def istream_updates(self) -> Any:
        """The `update istream` service (engine/istream_updates.py), once one was created."""
        return self.get("istream_updates")

    @istream_updates.setter
    def istream_updates(self, svc: Any) -> None:
        self["istream_updates"] = svc

    @property
    def expressions(self) -> dict:
        """Expressions declared by `create expression`, by name."""
        return self.setdefault("expressions", {})

    @property
    def isolated(self) -> dict:
        """The isolated services by name."""
        return self.setdefault("isolated", {})
