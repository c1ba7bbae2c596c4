"""Pattern compiler: `pattern [...]` (epl.ast.patterns) to a PatternPlan of frozen operator
plans, once per statement; the service the select compiler asks for pattern streams.

Tags: every tagged filter names its event type (one type per tag); tags inside a repeat
(`[n] a=A`, `a=A until B`) are arrays. The pattern stream's event type has one property per
tag. Expressions inside the pattern (filters referring to earlier tags, guard and observer
parameters, repeat bounds, every-distinct keys) are compiled against that type: at runtime
they read the match built so far.
"""
from __future__ import annotations

import dataclasses
import itertools
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional

import engine.contracts.crontab as C
import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.event_types import EventType, Representation
from engine.contracts.plans import StreamPlan
import epl.ast as A
from epl.compiler.expressions import compile_expr, compile_predicate
from epl.compiler.filters import UnfilteredTemplate, compile_filter
from epl.compiler.scope import Scope, StreamInfo
from engine.contracts.errors import EPLValidationError

import epl.compiler.pattern_fastpath as keyed_followed
from epl.plans.patterns import (
    AndPlan, AtPlan, EveryDistinctPlan, EveryPlan, FilterPlan, FollowedByPlan, GuardPlan,
    IntervalPlan, NotPlan, OrPlan, PatternPlan, RepeatPlan, WhileGuard, WithinGuard,
)

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

SUPPRESS = "suppressoverlappingmatches"
DISCARD = "discardpartialsonmatch"


class PatternService:
    """`engine.services.patterns`: what compile_select needs for `pattern [...]` streams."""

    def stream_info(self, index: int, spec: A.PatternStream, engine: "Runtime", text: str) -> StreamInfo:
        mt = pattern_match_type(spec.pattern, engine, text)
        return StreamInfo(index, mt, spec.alias, mt.name)

    def stream_plan(self, info: StreamInfo, spec: A.PatternStream, views: tuple, scope: Scope,
                    engine: "Runtime", text: str) -> StreamPlan:
        names = {a.name.lower() for a in spec.annotations}
        plan = compile_pattern(spec.pattern, engine, scope, text, info.event_type,
                               suppress=SUPPRESS in names, discard=DISCARD in names)
        if not plan.suppress_overlapping and not plan.discard_partials:
            fast = keyed_followed.detect(spec.pattern, plan, engine, scope, text)
            if fast is not None:
                plan = dataclasses.replace(plan, fast=fast)
        return StreamPlan(info.index, info.event_type, info.alias,
                          UnfilteredTemplate(info.event_type), views, spec.unidirectional,
                          pattern=plan)


def install(engine: "Runtime") -> None:
    """Register the pattern service (idempotent)."""
    if "patterns" not in engine.services:      # installing twice keeps the service
        engine.services.patterns = PatternService()


# -- tags ------------------------------------------------------------------------------------

_names = itertools.count()


def match_type(tags: Mapping[str, EventType], array_tags: Iterable[str]) -> EventType:
    """The event type of a pattern's matches: a map type with a property per tag, single
    tags first, then repeated ones (as Esper's pattern types order them). The underlying of a
    match is a dict tag -> EventBean, or tag -> list of EventBean for repeated tags."""
    arrays = set(array_tags)
    props: dict[str, PropertyType] = {}
    for tag, et in tags.items():
        if tag not in arrays:
            props[tag] = PropertyType(EPLType.EVENT, event_type=et)
    for tag, et in tags.items():
        if tag in arrays:
            props[tag] = T.array_of(PropertyType(EPLType.EVENT, event_type=et))
    return EventType(f"pattern_{next(_names)}", Representation.MAP, props)


def pattern_match_type(pattern: A.PatternExpr, engine: "Runtime", text: str) -> EventType:
    tags: dict[str, EventType] = {}
    arrays: set[str] = set()
    _collect_tags(pattern, False, tags, arrays, engine, text)
    return match_type(tags, arrays)


def _children(node: Any) -> tuple:
    if isinstance(node, (A.PatternFollowedBy, A.PatternAnd, A.PatternOr)):
        return node.children
    if isinstance(node, A.PatternUntil):
        return (node.child, node.until)
    if isinstance(node, A.PatternParens):
        return (node.inner,)
    child = getattr(node, "child", None)
    return (child,) if child is not None else ()


def _collect_tags(node: Any, repeated: bool, tags: dict, arrays: set, engine: "Runtime", text: str) -> None:
    if isinstance(node, A.PatternFilter):
        if node.tag is None:
            return
        et = _resolve_type(node.event_filter.type_name, engine, text)
        old = tags.get(node.tag)
        if old is not None and old is not et:
            raise EPLValidationError(
                f"Tag '{node.tag}' for event type '{et.name}' has already been declared for "
                f"events of type '{old.name}'", text)
        tags[node.tag] = et
        if repeated:
            arrays.add(node.tag)
        return
    if isinstance(node, A.PatternRepeat):
        _collect_tags(node.child, True, tags, arrays, engine, text)
        return
    if isinstance(node, A.PatternUntil):
        _collect_tags(node.child, True, tags, arrays, engine, text)
        _collect_tags(node.until, repeated, tags, arrays, engine, text)
        return
    for c in _children(node):
        _collect_tags(c, repeated, tags, arrays, engine, text)


def _filter_tags(node: Any) -> list[str]:
    if isinstance(node, A.PatternFilter):
        return [node.tag] if node.tag else []
    out: list[str] = []
    for c in _children(node):
        for t in _filter_tags(c):
            if t not in out:
                out.append(t)
    return out


def _resolve_type(name: str, engine: "Runtime", text: str) -> EventType:
    et = engine.types.find(name)
    if et is None:
        raise EPLValidationError(
            f"Failed to resolve event type, named window or table by name '{name}'", text)
    return et


# -- compiling ---------------------------------------------------------------------------------

def compile_pattern(pattern: A.PatternExpr, engine: "Runtime", scope: Scope, text: str,
                    match_type_: Optional[EventType] = None, *, suppress: bool = False,
                    discard: bool = False) -> PatternPlan:
    """Compile a pattern expression (also for on-statements and context conditions)."""
    mt = match_type_ if match_type_ is not None else pattern_match_type(pattern, engine, text)
    c = _Compiler(engine, scope, mt, text)
    root = c.compile(pattern)
    types: list = []
    for t in c.event_types:
        if t not in types:
            types.append(t)
    return PatternPlan(root, mt, tuple(types), suppress, discard)


class _Compiler:
    def __init__(self, engine: "Runtime", scope: Scope, mt: EventType, text: str) -> None:
        self.engine = engine
        self.scope = scope
        self.match_type = mt
        self.text = text
        self.event_types: list[EventType] = []
        self.tag_scope = Scope(streams=[StreamInfo(0, mt, None, None)], functions=scope.functions,
                               variables=scope.variables, epl=text, services=scope.services)

    def fail(self, message: str) -> EPLValidationError:
        return EPLValidationError(message, self.text)

    def compile(self, node: Any) -> Any:
        fn = _COMPILERS.get(type(node))
        if fn is None:
            raise self.fail(f"Pattern expression of kind '{type(node).__name__}' is not supported")
        return fn(self, node)

    # -- expressions over the match so far ----------------------------------------------
    def value_fn(self, expr: A.Expr) -> tuple[Callable[[dict], Any], Any]:
        """`fn(match) -> value` and the compiled form (for its type and constness)."""
        c = compile_expr(expr, self.tag_scope)
        if c.is_constant:
            v = c.constant
            return (lambda m, _v=v: _v), c
        f = c.fn
        mt = self.match_type
        return (lambda m, _f=f, _t=mt: _f((EventBean(_t, m),))), c

    def time_fn(self, expr: A.Expr, what: str) -> Callable[[dict], int]:
        """A time period or a number of seconds, as milliseconds."""
        fn, c = self.value_fn(expr)
        if not c.is_time_period and not c.type.is_numeric and c.type.kind is not EPLType.OBJECT:
            raise self.fail(f"{what} requires a time period or a number of seconds, got '{c.type}'")
        scale = 1 if c.is_time_period else 1000
        if c.is_constant:
            ms = _to_ms(c.constant, scale)
            if ms is None:
                raise self.fail(f"{what} requires a time period or a number of seconds")
            return lambda m, _v=ms: _v

        def millis(m: dict, _fn=fn, _s=scale) -> int:
            v = _to_ms(_fn(m), _s)
            return 0 if v is None else v
        return millis

    def int_fn(self, expr: A.Expr, what: str, minimum: int = 0) -> Callable[[dict], Optional[int]]:
        fn, c = self.value_fn(expr)
        if c.is_constant:
            v = c.constant
            if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
                raise self.fail(f"{what} must be an integer of {minimum} or more, got {v!r}")
            return lambda m, _v=v: _v
        if not c.type.is_integral and c.type.kind is not EPLType.OBJECT:
            raise self.fail(f"{what} must be an integer, got '{c.type}'")
        return lambda m, _fn=fn: _int_or_none(_fn(m))

    def constant_int(self, expr: A.Expr, what: str, minimum: int = 0) -> int:
        c = compile_expr(expr, self.tag_scope)
        v = c.constant if c.is_constant else None
        if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
            raise self.fail(f"{what} must be an integer constant of {minimum} or more")
        return v


def _to_ms(v: Any, scale: int) -> Optional[int]:
    if v is None or isinstance(v, bool) or not isinstance(v, (int, float)):
        try:
            v = float(v)  # Decimal and friends
        except (TypeError, ValueError):
            return None
    ms = v * scale
    if ms != ms or ms in (float("inf"), float("-inf")):
        return None     # NaN or infinite: no point in time
    return int(round(ms))


def _int_or_none(v: Any) -> Optional[int]:
    if v is None or isinstance(v, bool):
        return None
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


_COMPILERS: dict[type, Callable[[_Compiler, Any], Any]] = {}


def _compiles(node_type: type):
    def register(fn):
        _COMPILERS[node_type] = fn
        return fn
    return register


@_compiles(A.PatternParens)
def _parens(c: _Compiler, node: A.PatternParens) -> Any:
    return c.compile(node.inner)


@_compiles(A.PatternFilter)
def _filter(c: _Compiler, node: A.PatternFilter) -> FilterPlan:
    ef = node.event_filter
    et = _resolve_type(ef.type_name, c.engine, c.text)
    own = StreamInfo(0, et, node.tag, ef.type_name)
    if ef.filter is not None:
        # validate once against the event and the tags (unknown properties, non-boolean)
        merged = Scope(streams=[own, StreamInfo(1, c.match_type, None, None)],
                       functions=c.scope.functions, variables=c.scope.variables, epl=c.text,
                       services=c.scope.services)
        compile_predicate(ef.filter, merged)
    template = compile_filter(ef.filter, own, c.scope, c.tag_scope)
    c.event_types.append(et)
    return FilterPlan(template, node.tag, et, node.consume)


@_compiles(A.PatternEvery)
def _every(c: _Compiler, node: A.PatternEvery) -> EveryPlan:
    return EveryPlan(c.compile(node.child))


@_compiles(A.PatternEveryDistinct)
def _every_distinct(c: _Compiler, node: A.PatternEveryDistinct) -> EveryDistinctPlan:
    if not node.keys:
        raise c.fail("every-distinct requires at least one distinct-value expression")
    child = c.compile(node.child)
    fns = []
    for k in node.keys:
        ce = compile_expr(k, c.tag_scope)
        if ce.is_time_period:
            raise c.fail("every-distinct expects the expiry time period after the distinct-value expressions")
        fns.append(ce.fn)
    mt = c.match_type
    if len(fns) == 1:
        f0 = fns[0]

        def key_of(m: dict, _f=f0, _t=mt) -> Any:
            return _f((EventBean(_t, m),))
    else:
        ftuple = tuple(fns)

        def key_of(m: dict, _fs=ftuple, _t=mt) -> Any:
            eps = (EventBean(_t, m),)
            return tuple(f(eps) for f in _fs)
    expiry = None
    if node.expiry is not None:
        ce = compile_expr(node.expiry, c.tag_scope)
        if not ce.is_constant:
            raise c.fail("The every-distinct expiry must be a constant time period")
        expiry = _to_ms(ce.constant, 1 if ce.is_time_period else 1000)
        if expiry is None or expiry <= 0:
            raise c.fail("The every-distinct expiry must be a positive time period")
    return EveryDistinctPlan(child, key_of, expiry)


@_compiles(A.PatternFollowedBy)
def _followed_by(c: _Compiler, node: A.PatternFollowedBy) -> Any:
    children = tuple(c.compile(ch) for ch in node.children)
    if len(children) == 1:
        return children[0]
    maxes: tuple = ()
    if any(x is not None for x in node.limits):
        maxes = tuple(None if x is None else c.constant_int(x, "The followed-by maximum -[N]>")
                      for x in node.limits)
        maxes = maxes + (None,) * (len(children) - 1 - len(maxes))
    return FollowedByPlan(children, maxes)


@_compiles(A.PatternAnd)
def _and(c: _Compiler, node: A.PatternAnd) -> AndPlan:
    return AndPlan(tuple(c.compile(ch) for ch in node.children))


@_compiles(A.PatternOr)
def _or(c: _Compiler, node: A.PatternOr) -> OrPlan:
    return OrPlan(tuple(c.compile(ch) for ch in node.children))


@_compiles(A.PatternNot)
def _not(c: _Compiler, node: A.PatternNot) -> NotPlan:
    return NotPlan(c.compile(node.child))


def _bounds(c: _Compiler, rng: Optional[A.RepeatRange]) -> tuple:
    if rng is None:
        return None, None, None, None
    low = c.int_fn(rng.low, "The repeat lower bound") if rng.low is not None else None
    high = c.int_fn(rng.high, "The repeat upper bound", 1) if rng.high is not None else None
    lc = compile_expr(rng.low, c.tag_scope) if rng.low is not None else None
    hc = compile_expr(rng.high, c.tag_scope) if rng.high is not None else None
    lv = lc.constant if lc is not None and lc.is_constant else None
    hv = hc.constant if hc is not None and hc.is_constant else None
    if lv is not None and hv is not None and lv > hv:
        raise c.fail(f"Incorrect range specification, lower bounds value '{lv}' is higher "
                     f"than higher bounds '{hv}'")
    return low, high, lv, hv


@_compiles(A.PatternRepeat)
def _repeat(c: _Compiler, node: A.PatternRepeat) -> RepeatPlan:
    rng = node.range
    tight = rng.low is not None and (rng.exact or rng.low == rng.high)
    if not tight:
        raise c.fail("Variable bounds repeat operator requires an until-expression")
    low = c.int_fn(rng.low, "The repeat count", 1)
    return RepeatPlan(c.compile(node.child), None, low, low, tuple(_filter_tags(node.child)))


@_compiles(A.PatternUntil)
def _until(c: _Compiler, node: A.PatternUntil) -> RepeatPlan:
    low, high, _, _ = _bounds(c, node.range)
    return RepeatPlan(c.compile(node.child), c.compile(node.until), low, high,
                      tuple(_filter_tags(node.child)))


@_compiles(A.PatternGuard)
def _guard(c: _Compiler, node: A.PatternGuard) -> GuardPlan:
    name = f"{node.namespace}:{node.name}"
    key = name.lower()
    if key == "timer:within":
        if len(node.args) != 1:
            raise c.fail("Timer-within guard requires a single numeric or time period parameter")
        guard = WithinGuard(c.time_fn(node.args[0], "Timer-within guard"))
    elif key == "timer:withinmax":
        if len(node.args) != 2:
            raise c.fail("Timer-within-or-max-count guard requires two parameters: a time "
                         "period and a maximum number of matches")
        guard = WithinGuard(c.time_fn(node.args[0], "Timer-within-or-max-count guard"),
                            c.int_fn(node.args[1], "The maximum number of matches"))
    else:
        raise c.fail(f"Pattern guard function '{name}' could not be found")
    return GuardPlan(c.compile(node.child), guard)


@_compiles(A.PatternWhile)
def _while(c: _Compiler, node: A.PatternWhile) -> GuardPlan:
    pred = compile_predicate(node.condition, c.tag_scope)
    mt = c.match_type

    def test(m: dict, _p=pred, _t=mt) -> bool:
        return _p((EventBean(_t, m),))
    return GuardPlan(c.compile(node.child), WhileGuard(test))


@_compiles(A.PatternObserver)
def _observer(c: _Compiler, node: A.PatternObserver) -> Any:
    name = f"{node.namespace}:{node.name}"
    key = name.lower()
    if key == "timer:interval":
        if len(node.args) != 1:
            raise c.fail("Timer-interval observer requires a single numeric or time period parameter")
        return IntervalPlan(c.time_fn(node.args[0], "Timer-interval observer"))
    if key == "timer:at":
        if not 5 <= len(node.args) <= 7:
            raise c.fail("Invalid number of parameters for timer:at: expected minutes, hours, "
                         "days of month, months, days of week[, seconds[, timezone]]")
        try:
            spec = C.parse_crontab([_cron_param(c, a, i == 6) for i, a in enumerate(node.args)])
            C.next_occurrence(spec, 0)      # an impossible date (February 30) fails here
        except C.CrontabError as e:
            raise c.fail(f"Invalid parameter for pattern observer 'timer:at': {e}") from None
        return AtPlan(spec)
    raise c.fail(f"Pattern observer function '{name}' could not be found")


def _cron_param(c: _Compiler, e: A.Expr, timezone: bool = False) -> Any:
    """A crontab parameter as engine.contracts.crontab takes it."""
    if timezone:
        tz = compile_expr(e, c.tag_scope)
        if not tz.is_constant or not isinstance(tz.constant, str):
            raise c.fail("The timer:at timezone must be a string constant")
        return tz.constant
    if isinstance(e, A.Wildcard):
        return C.WILDCARD
    if isinstance(e, A.CronFrequency):
        return C.Every(c.constant_int(e.every, "A crontab frequency", 1))
    if isinstance(e, A.CronRange):
        return C.Range(c.constant_int(e.low, "A crontab range bound"),
                       c.constant_int(e.high, "A crontab range bound"))
    if isinstance(e, A.CronKeyword):
        day = c.constant_int(e.value, "A crontab day") if e.value is not None else None
        return C.Keyword(e.keyword, day)
    if isinstance(e, A.ArrayLiteral):
        return tuple(_cron_param(c, i) for i in e.items)
    if isinstance(e, A.Parens):
        return _cron_param(c, e.inner)
    return c.constant_int(e, "A crontab parameter")
