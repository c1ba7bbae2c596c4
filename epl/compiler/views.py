"""View specs to view factories: each argument compiled once into a ViewArg."""
from __future__ import annotations

from typing import Any, Sequence

from views.base import NOT_CONSTANT, ViewArg, ViewParameterError

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from .expressions import compile_expr, expr_text
from .scope import Scope, StreamInfo


class _Values:
    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: dict = {}


def view_arg(node: A.Expr, scope: Scope) -> ViewArg:
    descending = False
    if isinstance(node, A.OrderItem):   # `#sort(3, price desc)`
        descending = node.descending
        node = node.expr
    c = compile_expr(node, scope)
    fn = c.fn

    def compile_with(names: Sequence[str], _node=node, _scope=scope):
        holder = _Values()
        import engine.contracts.epl_types as T
        sub = Scope(streams=_scope.streams, functions=_scope.functions,
                    builtins={**_scope.builtins, **{n: T.OBJECT for n in names}}, variables=_scope.variables,
                    epl=_scope.epl, services=_scope.services, builtins_holder=holder)
        inner = compile_expr(_node, sub).fn

        def run(bean, values, _inner=inner, _h=holder):
            _h.values = values
            return _inner((bean,))
        return run

    value = c.constant if c.is_constant else NOT_CONSTANT
    if not c.is_constant and _reads_only_variables(node, scope):
        # Esper evaluates a view parameter without event properties once, when the statement
        # is created: `#time(secs seconds)` keeps the length `secs` had then
        try:
            value = fn(())
        except Exception:       # noqa: BLE001 - left to the view's own parameter check
            value = NOT_CONSTANT
    kwargs: dict[str, Any] = dict(
        add_period=calendar_period(node, scope),
        text=expr_text(node) + (" desc" if descending else ""),
        value=value,
        is_time_period=c.is_time_period,
        evaluate=c.on_bean if c.on_bean is not None else (lambda bean, _f=fn: _f((bean,))),
        compile_with=compile_with,
        result_type=c.type,
    )
    return ViewArg(descending=descending, **kwargs)


def _reads_only_variables(node: A.Expr, scope: Scope) -> bool:
    """Whether the expression reads variables and nothing of an event or a view built-in."""
    from ..ast.walk import walk
    found = False
    for n in walk(node, prune=lambda n: isinstance(n, A.Property)):
        if isinstance(n, A.Property):
            try:
                r = scope.resolve(n)
            except EPLValidationError:
                return False
            if r.kind != "variable":
                return False
            found = True
        elif isinstance(n, A.Subquery):
            return False
    return found


def compile_views(specs: Sequence[A.ViewSpec], stream: StreamInfo, scope: Scope, *,
                  retain_union: bool = False) -> tuple:
    """Validate the view chain of one stream and build its factories; `retain_union` for a
    stream declared `retain-union` (or under `@hint('retain-union')`)."""
    from views.registry import create_factories
    if not specs:
        return ()
    single = Scope(streams=[StreamInfo(0, stream.event_type, stream.alias, stream.type_name)],
                   functions=scope.functions, variables=scope.variables, epl=scope.epl,
                   services=scope.services)
    from views.expr import BUILTIN_NAMES as EXPR_BUILTIN_NAMES
    import engine.contracts.epl_types as T
    compiled = []
    for spec in specs:
        args = []
        arg_scope = single
        if spec.name.lower() in ("expr", "expr_batch"):
            # expression views read built-ins (current_count, ...) only they provide
            arg_scope = Scope(streams=single.streams, functions=single.functions,
                              builtins={n: T.OBJECT for n in EXPR_BUILTIN_NAMES},
                              variables=single.variables, epl=single.epl, services=single.services,
                              builtins_holder=_Values())
        for a in spec.args:
            if isinstance(a, A.Wildcard):
                # `#uni(price, *)`: every property of the event as an additional property
                for prop, ptype in stream.event_type.properties.items():
                    args.append(ViewArg(prop, evaluate=lambda bean, _p=prop: bean.get(_p),
                                        result_type=ptype))
                continue
            try:
                args.append(view_arg(a, arg_scope))
            except EPLValidationError as e:
                raise EPLValidationError(f"Error in view '{spec.name}': {e.message}", scope.epl) from None
        compiled.append((spec.name.lower(), args))
    try:
        return tuple(create_factories(compiled, retain_union=retain_union))
    except ViewParameterError as e:
        raise EPLValidationError(str(e), scope.epl) from None


def derived_stream(views: tuple, stream: StreamInfo) -> StreamInfo:
    """The stream as the rest of the statement sees it: a derived-value view at the end of
    the chain (`#uni(price)`) replaces the event type with its own."""
    from views.registry import output_type
    t = output_type(views)
    if t is None:
        return stream
    return StreamInfo(stream.index, t, stream.alias, stream.type_name)


def calendar_period(node: A.Expr, scope: Scope) -> Any:
    """`f(t)`: t plus a time period with month or year parts, by the calendar (UTC); None for
    other arguments."""
    while isinstance(node, A.Parens):
        node = node.inner
    if not isinstance(node, A.TimePeriod) or not any(
            u in (A.TimeUnit.MONTH, A.TimeUnit.YEAR) for _, u in node.parts):
        return None
    months = 0
    fixed = 0.0
    for amount, unit in node.parts:
        c = compile_expr(amount, scope)
        if not c.is_constant or not isinstance(c.constant, (int, float)):
            return None
        if unit is A.TimeUnit.YEAR:
            months += int(c.constant) * 12
        elif unit is A.TimeUnit.MONTH:
            months += int(c.constant)
        else:
            fixed += c.constant * A.TIME_UNIT_MSEC[unit]
    return lambda t, _m=months, _f=fixed: _add_months(t, _m) + int(_f)


def _add_months(t: int, months: int) -> int:
    """Milliseconds since the epoch plus calendar months in UTC; the day of month is kept,
    or the month's last day when it has fewer days (as Java's Calendar.add)."""
    import calendar
    import datetime as dt
    d = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(milliseconds=t)
    m = d.month - 1 + months
    year, month = d.year + m // 12, m % 12 + 1
    day = min(d.day, calendar.monthrange(year, month)[1])
    moved = d.replace(year=year, month=month, day=day)
    return int((moved - dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)) / dt.timedelta(milliseconds=1))
