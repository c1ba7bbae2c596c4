"""Compiles Esper's date-time methods on long timestamps and datetimes (`ts.getHourOfDay()`,
`ts.withTime(0, 0, 0, 0).plus(1 day)`, `ts.format('yyyy-MM-dd')`, `ts.between(a, b)`) into
closures, through the compiler's `dot` service; interval algebra (`ts.before(x)`) stays in
engine/apptime. Semantics and time zone: engine/datetime_ops.py."""
from __future__ import annotations

from datetime import date, datetime, timezone, tzinfo
from typing import TYPE_CHECKING, Any, Callable, Optional

import engine.contracts.datetime_ops as D
import engine.contracts.epl_types as T
from engine.contracts.datetime_format import DEFAULT_PATTERN, PatternError, formatter
from engine.contracts.epl_types import EPLType, PropertyType

import epl.ast as A
from .compiled import Compiled
from .scope import Scope

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

DATETIME = PropertyType(EPLType.OBJECT, pyclass=datetime)

_CALENDAR_OPS = ("plus", "minus", "roundceiling", "roundfloor", "roundhalf", "set", "withdate",
                 "withtime", "withmax", "withmin")
_OTHER = ("get", "tomillisec", "todate", "tocalendar", "tolocaldatetime", "tozoneddatetime",
          "format", "between")
METHOD_NAMES = frozenset(D.GETTERS) | frozenset(_CALENDAR_OPS) | frozenset(_OTHER)


def time_zone(scope: Scope) -> tzinfo:
    engine = getattr(scope.services, "engine", None)
    return getattr(engine, "time_zone", None) or timezone.utc


def is_datetime_type(t: PropertyType) -> bool:
    if t.kind is EPLType.LONG:
        return True
    return t.kind is EPLType.OBJECT and (t.pyclass is None or
                                          (isinstance(t.pyclass, type) and issubclass(t.pyclass, date)))


def install(engine: "Runtime") -> None:
    previous: Optional[Callable] = engine.features.dot_hook

    def dot(node: Any, scope: Any) -> Any:
        if node.args is not None and node.name.lower() in METHOD_NAMES:
            c = compile_method(node, scope)
            if c is not None:
                return c
        return previous(node, scope) if previous is not None else None

    engine.features.dot_hook = dot


def compile_method(node: A.Dot, scope: Scope) -> Optional[Compiled]:
    """The method compiled, or None when the target is no date-time value (other methods of
    that name may apply)."""
    from epl.compiler.core import compile_expr
    target = compile_expr(_start_timestamp(node.target, scope), scope)
    if not is_datetime_type(target.type):
        return None
    name = node.name.lower()
    tz = time_zone(scope)
    args = list(node.args or ())
    tf = target.fn
    agg = target.has_aggregation
    result_type = target.type if target.type.kind is EPLType.LONG or target.type.pyclass else T.OBJECT

    def arity(lo: int, hi: int) -> None:
        if not lo <= len(args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise scope.fail(f"Failed to validate date-time method '{node.name}', expected {want} "
                             f"parameter(s) but received {len(args)}")

    if name in D.GETTERS:
        arity(0, 0)
        g = D.GETTERS[name]
        return _value_method(tf, tz, lambda v, d: g(d), T.INT, agg)
    if name == "get":
        arity(1, 1)
        field = _field_arg(args[0], node, scope, allow_week_year=True)
        g = D.FIELD_GETTERS[field]
        return _value_method(tf, tz, lambda v, d: g(d), T.INT, agg)
    if name == "tomillisec":
        arity(0, 0)
        return _value_method(tf, tz, lambda v, d: D.to_millis(v, tz), T.LONG, agg)
    if name in ("todate", "tocalendar", "tolocaldatetime", "tozoneddatetime"):
        arity(0, 0)
        return _value_method(tf, tz, lambda v, d: d, DATETIME, agg)
    if name == "format":
        arity(0, 1)
        return _format(node, args, scope, tf, tz, agg)
    if name == "between":
        arity(2, 4)
        return _between(args, scope, tf, tz, agg)
    if name in ("plus", "minus"):
        arity(1, 1)
        return _plus_minus(node, args[0], scope, tf, tz, result_type, agg, -1 if name == "minus" else 1)
    if name in ("roundceiling", "roundfloor", "roundhalf"):
        arity(1, 1)
        field = _field_arg(args[0], node, scope)
        if field not in D._LEVELS:
            raise scope.fail(f"Failed to validate date-time method '{node.name}': field '{field}' "
                             f"cannot be rounded")
        mode = name[5:]
        return _calendar_op(tf, tz, lambda d, eps: D.round_to(d, field, mode), result_type, agg)
    if name in ("withmax", "withmin"):
        arity(1, 1)
        field = _field_arg(args[0], node, scope)
        op = D.with_max if name == "withmax" else D.with_min
        return _calendar_op(tf, tz, lambda d, eps: op(d, field), result_type, agg)
    if name == "set":
        arity(2, 2)
        field = _field_arg(args[0], node, scope)
        vf = _int_arg(args[1], scope)
        return _calendar_op(tf, tz, lambda d, eps: _maybe(d, vf(eps), lambda x: D.set_field(d, field, x)),
                            result_type, agg)
    if name == "withdate":
        arity(3, 3)
        y, m, dd = (_int_arg(a, scope) for a in args)
        return _calendar_op(tf, tz, lambda d, eps: D.with_date(d, y(eps), m(eps), dd(eps)), result_type, agg)
    if name == "withtime":
        arity(4, 4)
        h, mi, s, ms = (_int_arg(a, scope) for a in args)
        return _calendar_op(tf, tz, lambda d, eps: D.with_time(d, h(eps), mi(eps), s(eps), ms(eps)),
                            result_type, agg)
    return None


def _start_timestamp(target: A.Expr, scope: Scope) -> A.Expr:
    """An event of a type declaring a start timestamp stands for that timestamp (`a.getHourOfDay()`
    on `create schema A(...) starttimestamp ts`), as in Esper."""
    if isinstance(target, A.Property) and len(target.path) == 1 and target.path[0].index is None \
            and target.path[0].key is None:
        s = scope.stream_by_alias(target.path[0].name)
        et = s.event_type if s is not None else None
        if et is not None and et.property_type(target.path[0].name) is None and et.start_timestamp:
            return A.Property((target.path[0], A.PropSeg(et.start_timestamp)), target.span)
    return target


def _maybe(d: datetime, v: Optional[int], op: Callable[[int], datetime]) -> datetime:
    return d if v is None else op(v)


_ERRORS = (ValueError, OverflowError, TypeError, ArithmeticError)


def _value_method(tf: Callable, tz: tzinfo, get: Callable[[Any, datetime], Any],
                  rtype: PropertyType, agg: bool) -> Compiled:
    def f(eps):
        v = tf(eps)
        d = D.to_local(v, tz)
        if d is None:
            return None
        try:
            return get(v, d)
        except _ERRORS:
            return None
    return Compiled(f, rtype, has_aggregation=agg)


def _calendar_op(tf: Callable, tz: tzinfo, op: Callable[[datetime, Any], datetime],
                 rtype: PropertyType, agg: bool) -> Compiled:
    def f(eps):
        v = tf(eps)
        d = D.to_local(v, tz)
        if d is None:
            return None
        try:
            return D.like(v, op(d, eps), tz)
        except _ERRORS:
            return None
    return Compiled(f, rtype, has_aggregation=agg)


def _field_arg(node: A.Expr, method: A.Dot, scope: Scope, allow_week_year: bool = False) -> str:
    """A field name: a string constant ('hour') or a bare name (hour), as Esper accepts."""
    text = None
    if isinstance(node, A.Literal) and node.kind is A.LiteralKind.STRING:
        text = node.value
    elif isinstance(node, A.Property) and len(node.path) == 1:
        text = node.path[0].name
    field = D.field_name(text)
    if field is None or (field == "weekyear" and not allow_week_year):
        from epl.compiler.core import expr_text
        raise scope.fail(f"Failed to validate date-time method '{method.name}': failed to resolve "
                         f"date-time field name '{text if text is not None else expr_text(node)}'")
    return field


def _int_arg(node: A.Expr, scope: Scope) -> Callable[[Any], Optional[int]]:
    from epl.compiler.core import compile_expr, expr_text
    c = compile_expr(node, scope)
    if c.type.kind not in T.NUMERIC_RANK and c.type.kind is not EPLType.OBJECT:
        raise scope.fail(f"Failed to validate date-time method parameter '{expr_text(node)}': "
                         f"expected an integer value, received '{c.type}'")
    fn = c.fn

    def value(eps):
        v = fn(eps)
        return None if v is None else int(v)
    return value


def _plus_minus(node: A.Dot, arg: A.Expr, scope: Scope, tf: Callable, tz: tzinfo,
                rtype: PropertyType, agg: bool, sign: int) -> Compiled:
    from epl.compiler.core import compile_expr, expr_text
    while isinstance(arg, A.Parens):
        arg = arg.inner
    if isinstance(arg, A.TimePeriod):
        # calendar arithmetic per field: `plus(1 month)` is a calendar month
        parts = []
        for amount, unit in arg.parts:
            c = compile_expr(amount, scope)
            parts.append((_UNIT_FIELDS[unit], c.fn, unit))

        def period(eps):
            out: dict[str, int] = {}
            extra_ms = 0.0
            for field, fn, unit in parts:
                v = fn(eps)
                if v is None:
                    return None
                if unit is A.TimeUnit.MICROSECOND:
                    extra_ms += v / 1000
                    continue
                if isinstance(v, float) and not v.is_integer():
                    extra_ms += v * A.TIME_UNIT_MSEC[unit]
                    continue
                out[field] = out.get(field, 0) + int(v)
            if extra_ms:
                out["msec"] = out.get("msec", 0) + int(extra_ms)
            return out

        def op(d, eps):
            p = period(eps)
            return None if p is None else D.add_period(d, p, sign)

        def f(eps):
            v = tf(eps)
            d = D.to_local(v, tz)
            if d is None:
                return None
            try:
                r = op(d, eps)
                return None if r is None else D.like(v, r, tz)
            except _ERRORS:
                return None
        return Compiled(f, rtype, has_aggregation=agg)
    c = compile_expr(arg, scope)
    if c.type.kind not in T.NUMERIC_RANK and c.type.kind is not EPLType.OBJECT:
        raise scope.fail(f"Failed to validate date-time method '{node.name}': expected a time period "
                         f"or a number of milliseconds, received '{expr_text(arg)}'")
    af = c.fn

    def millis(eps):
        v = tf(eps)
        if v is None:
            return None
        n = af(eps)
        if n is None:
            return None
        try:
            if isinstance(v, int) and not isinstance(v, bool):
                return v + sign * int(n)
            d = D.to_local(v, tz)
            return None if d is None else D.like(v, D.add_field(d, "msec", sign * int(n)), tz)
        except _ERRORS:
            return None
    return Compiled(millis, rtype, has_aggregation=agg or c.has_aggregation)


_UNIT_FIELDS = {
    A.TimeUnit.YEAR: "year", A.TimeUnit.MONTH: "month", A.TimeUnit.WEEK: "week",
    A.TimeUnit.DAY: "day", A.TimeUnit.HOUR: "hour", A.TimeUnit.MINUTE: "min",
    A.TimeUnit.SECOND: "sec", A.TimeUnit.MILLISECOND: "msec", A.TimeUnit.MICROSECOND: "msec",
}


def _format(node: A.Dot, args: list, scope: Scope, tf: Callable, tz: tzinfo, agg: bool) -> Compiled:
    from epl.compiler.core import compile_expr
    if not args:
        fmt = formatter(DEFAULT_PATTERN)
        return _value_method(tf, tz, lambda v, d: fmt(d), T.STRING, agg)
    c = compile_expr(args[0], scope)
    if c.is_constant:
        if not isinstance(c.constant, str):
            raise scope.fail(f"Failed to validate date-time method 'format': expected a string "
                             f"pattern parameter")
        try:
            fmt = formatter(c.constant)
        except PatternError as e:
            raise scope.fail(f"Failed to validate date-time method 'format': {e}") from None
        return _value_method(tf, tz, lambda v, d: fmt(d), T.STRING, agg)
    pf = c.fn
    cache: dict[str, Callable] = {}

    def f(eps):
        v = tf(eps)
        d = D.to_local(v, tz)
        p = pf(eps)
        if d is None or not isinstance(p, str):
            return None
        fm = cache.get(p)
        try:
            if fm is None:
                fm = cache[p] = formatter(p)
            return fm(d)
        except _ERRORS:
            return None
    return Compiled(f, T.STRING, has_aggregation=agg or c.has_aggregation)


def _between(args: list, scope: Scope, tf: Callable, tz: tzinfo, agg: bool) -> Compiled:
    from epl.compiler.core import compile_expr
    cs = [compile_expr(a, scope) for a in args]
    lo, hi = cs[0].fn, cs[1].fn
    inc = [c.fn for c in cs[2:]]

    def f(eps):
        v = D.to_millis(tf(eps), tz)
        a = D.to_millis(lo(eps), tz)
        b = D.to_millis(hi(eps), tz)
        flags = [g(eps) for g in inc]
        if any(x is None for x in flags):
            return None
        il = flags[0] if flags else True
        ih = flags[1] if len(flags) > 1 else True
        return D.between(v, a, b, bool(il), bool(ih))
    return Compiled(f, T.BOOLEAN, has_aggregation=agg or any(c.has_aggregation for c in cs))
