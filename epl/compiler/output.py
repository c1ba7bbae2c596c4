"""The output clause compiler: `output ...` (epl.ast) to an OutputPlan (epl/plans/output.py),
its conditions compiled once per statement; the runtime makes each instance's limiter from it
(engine/output/plan.py, `make_limiter`)."""
from __future__ import annotations

from typing import Any, Sequence

import epl.ast as A
from engine.contracts.crontab import WILDCARD, CrontabError, Every, Keyword, Range, parse_crontab
from engine.contracts.errors import EPLValidationError
from epl.plans.output import AfterSpec, AtCrontab, EveryEvents, EveryTime, OutputPlan, TerminatedOnly
from epl.compiler.core import compile_expr
from epl.compiler.output_when import compile_when

K = A.OutputKind

_SELECTORS = {None: "istream", A.StreamSelector.ISTREAM: "istream",
              A.StreamSelector.IRSTREAM: "irstream", A.StreamSelector.RSTREAM: "rstream"}


def compile_output(clause: A.OutputClause, node: A.SelectStatement, scope: Any, text: str) -> OutputPlan:
    condition: Any = None
    if clause.every_events is not None:
        condition = _every_events(clause.every_events, scope, text)
    elif clause.every_time is not None:
        condition = _every_time(clause.every_time, scope, text)
    elif clause.at is not None:
        condition = AtCrontab(_crontab(clause.at, scope, text))
    elif clause.when is not None or clause.terminated_and is not None or clause.terminated_then_set:
        condition = compile_when(clause, scope)
    elif clause.when_terminated:
        condition = TerminatedOnly()
    after = None
    if clause.after_time is not None:
        after = AfterSpec(msec=_msec(clause.after_time, scope, text, "after"))
    elif clause.after_events is not None:
        after = AfterSpec(events=_int(clause.after_events, scope, text, "after"))
    if condition is None and after is None:
        raise EPLValidationError("Error in the output rate limiting clause: no output condition", text)
    if condition is None and clause.kind is not K.DEFAULT:
        raise EPLValidationError(
            f"Error in the output rate limiting clause: 'output {clause.kind.value}' requires an "
            f"output condition", text)
    if node.order_by and _hint(node, "enable_outputlimit_opt"):
        raise EPLValidationError("The ENABLE_OUTPUTLIMIT_OPT hint is not supported with order-by", text)
    return OutputPlan(kind=clause.kind, condition=condition, after=after,
                      terminable=clause.when_terminated, selector=_SELECTORS[node.select.selector],
                      grouped=bool(node.group_by),
                      buffered=bool(node.order_by) or _hint(node, "disable_outputlimit_opt"))


# -- pieces ------------------------------------------------------------------------------------

def _hint(node: A.SelectStatement, name: str) -> bool:
    for a in node.annotations:
        if a.name.lower() == "hint":
            values = [a.value] + [v for _, v in a.attrs]
            if any(isinstance(v, str) and name in [x.strip().lower() for x in v.split(",")] for v in values):
                return True
    return False


def _compile(e: A.Expr, scope: Any) -> Any:
    return compile_expr(e, scope)


def _every_events(e: A.Expr, scope: Any, text: str) -> EveryEvents:
    c = _compile(e, scope)
    if c.is_constant:
        rate = c.constant
        if isinstance(rate, bool) or not isinstance(rate, int) or rate <= 0:
            raise EPLValidationError(
                "Error in the output rate limiting clause: the number of events must be a positive "
                "integer", text)
        return EveryEvents(rate)
    if isinstance(e, A.Property) and scope.variables is not None and scope.variables.has(e.path[0].name):
        read = scope.variables.reader(e.path[0].name)
        current = read()
        return EveryEvents(int(current) if current is not None else 1, read)
    raise EPLValidationError(
        "Error in the output rate limiting clause: the number of events must be a constant or a "
        "variable", text)


def _every_time(e: A.Expr, scope: Any, text: str) -> EveryTime:
    """`every <time period>`; an amount that is a variable is read at each interval's start."""
    c = _compile(e, scope)
    if not c.is_constant and c.is_time_period:
        return EveryTime(0, length=lambda _fn=c.fn: _fn(()))
    if not c.is_constant and isinstance(e, A.Property) and scope.variables is not None \
            and scope.variables.has(e.path[0].name):
        read = scope.variables.reader(e.path[0].name)       # `every var`: seconds
        return EveryTime(0, length=lambda _r=read: None if _r() is None else _r() * 1000)
    return EveryTime(_msec(e, scope, text, "output rate"))


def _msec(e: A.Expr, scope: Any, text: str, what: str) -> int:
    c = _compile(e, scope)
    if not c.is_constant or isinstance(c.constant, bool) or not isinstance(c.constant, (int, float)):
        raise EPLValidationError(f"Error in the output rate limiting clause: the {what} must be a "
                                 f"constant time period", text)
    msec = c.constant if c.is_time_period else c.constant * 1000
    if not 0 < msec < float("inf"):     # NaN and infinity too
        raise EPLValidationError(f"Error in the output rate limiting clause: the {what} must be "
                                 f"a positive time period", text)
    return int(round(msec))


def _int(e: A.Expr, scope: Any, text: str, what: str) -> int:
    c = _compile(e, scope)
    if not c.is_constant or isinstance(c.constant, bool) or not isinstance(c.constant, int) or c.constant < 0:
        raise EPLValidationError(f"Error in the output rate limiting clause: the {what} number of "
                                 f"events must be a non-negative integer constant", text)
    return c.constant


def _crontab(params: Sequence[A.Expr], scope: Any, text: str) -> Any:
    try:
        return parse_crontab([_cron_param(p, scope, text) for p in params])
    except CrontabError as e:
        raise EPLValidationError(f"Error in the output rate limiting clause: {e}", text) from None


def _cron_param(p: Any, scope: Any, text: str) -> Any:
    if isinstance(p, A.Wildcard):
        return WILDCARD
    if isinstance(p, A.CronFrequency):
        return Every(_cron_int(p.every, scope, text))
    if isinstance(p, A.CronRange):
        return Range(_cron_int(p.low, scope, text), _cron_int(p.high, scope, text))
    if isinstance(p, A.CronKeyword):
        return Keyword(p.keyword, None if p.value is None else _cron_int(p.value, scope, text))
    if isinstance(p, (A.ArrayLiteral, tuple)):
        items = p.items if isinstance(p, A.ArrayLiteral) else p
        return tuple(_cron_param(i, scope, text) for i in items)
    c = _compile(p, scope)
    if c.is_constant and isinstance(c.constant, str):
        return c.constant
    return _cron_int(p, scope, text)


def _cron_int(e: A.Expr, scope: Any, text: str) -> int:
    c = _compile(e, scope)
    value = c.constant if c.is_constant else c.fn(())     # variables are read once, here
    if isinstance(value, bool) or not isinstance(value, int):
        raise EPLValidationError("Error in the output rate limiting clause: crontab parameters "
                                 "must be integers, ranges, frequencies, lists or keywords", text)
    return value
