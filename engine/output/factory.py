"""The output clause to a limiter factory: conditions compiled once per statement, limiters
made per statement instance with the instance's result-set processor."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import epl.ast as A
from engine.contracts.errors import EPLValidationError

import engine.output.aggregated_grouped as AG
import engine.output.aggregated_ungrouped as AU
import engine.output.row_for_all as RA
import engine.output.rollup as RU
import engine.output.row_per_group as RG
import engine.output.simple as S
from .after import AfterSpec
from .at import AtCrontab
from .base import AlwaysFactory, OutputClock, TerminatedFactory
from .count import EveryEvents
from .crontab import WILDCARD, CrontabError, Every, Keyword, Range, parse_crontab
from .limiters import AfterLimiter, BatchLimiter, FirstLimiter, SnapshotLimiter
from .other import KeyedLastBatch, ProcessedBatch
from .periodic import EveryTime
from .polled import PolledFactory
from .tap import tap
from .when import compile_when

K = A.OutputKind

# (result-set kind, output kind) -> batch class, or (without order by, with order by): Esper's
# default configuration uses non-buffered helpers for `output all|last` without order by
_BATCHES: dict = {
    ("simple", K.DEFAULT): S.SimpleAll, ("simple", K.ALL): S.SimpleAll, ("simple", K.LAST): S.SimpleLast,
    ("row-for-all", K.DEFAULT): RA.RowForAllAll, ("row-for-all", K.ALL): RA.RowForAllAll,
    ("row-for-all", K.LAST): RA.RowForAllLast,
    ("aggregated-ungrouped", K.DEFAULT): AU.AggregatedUngroupedAll,
    ("aggregated-ungrouped", K.ALL): AU.AggregatedUngroupedAll,
    ("aggregated-ungrouped", K.LAST): AU.AggregatedUngroupedLast,
    ("row-per-group", K.DEFAULT): RG.RowPerGroupDefault,
    ("row-per-group", K.ALL): (RG.RowPerGroupAllUnordered, RG.RowPerGroupAll),
    ("row-per-group", K.LAST): (RG.RowPerGroupLastUnordered, RG.RowPerGroupLast),
    ("aggregated-grouped", K.DEFAULT): AG.AggregatedGroupedDefault,
    ("aggregated-grouped", K.ALL): (AG.AggregatedGroupedAllUnordered, AG.AggregatedGroupedAll),
    ("aggregated-grouped", K.LAST): AG.AggregatedGroupedLast,
    ("row-per-group-rollup", K.ALL): RU.RollupAll,
}
_GROUPED_FIRST = {"row-per-group": RG.RowPerGroupFirst, "aggregated-grouped": AG.AggregatedGroupedFirst,
                  "row-per-group-rollup": RU.RollupFirst}

_SELECTORS = {None: "istream", A.StreamSelector.ISTREAM: "istream",
              A.StreamSelector.IRSTREAM: "irstream", A.StreamSelector.RSTREAM: "rstream"}


@dataclass(frozen=True)
class OutputPlan:
    """Everything decided about a statement's output clause."""

    kind: A.OutputKind
    condition: Any                       # condition factory, or None for `output after` alone
    after: Optional[AfterSpec]
    terminable: bool
    selector: str
    grouped: bool
    buffered: bool = False               # order by (or the hint) selects Esper's buffered forms

    def make(self, ctx: Any, emit: Callable[..., None], processor: Any = None,
             iterate: Optional[Callable[[], Sequence[Any]]] = None) -> Any:
        """A limiter for one statement instance. `processor` is the instance's result-set
        processor (its `process` is tapped, see tap.py); `iterate` gives the instance's current
        result for `output snapshot`."""
        if processor is None:
            raise ValueError("output rate limiting needs the statement's result-set processor")
        process = tap(processor)
        iterate = iterate or _iterate_of(ctx)
        ctx = OutputClock(ctx)
        after = self.after.make(ctx) if self.after is not None else None
        if self.condition is None:
            return AfterLimiter(process, after, emit)
        kind = getattr(processor, "kind", None)
        if self.kind is K.SNAPSHOT:
            return SnapshotLimiter(process, iterate, self.condition, ctx, emit,
                                   after, self.terminable)
        if self.kind is K.FIRST:
            first = _GROUPED_FIRST.get(kind) if self.grouped else None
            if first is None:
                return FirstLimiter(process, self.condition, ctx, emit, self.selector, after,
                                    self.terminable)
            batch = first(processor, process, PolledFactory(self.condition), ctx)
            return BatchLimiter(batch, AlwaysFactory(), ctx, emit, after, True, self.terminable)
        cls = _BATCHES.get((kind, self.kind))
        if isinstance(cls, tuple):
            cls = cls[1] if self.buffered else cls[0]
        if cls is not None:
            batch = cls(processor, process)
        elif self.kind is K.LAST and hasattr(processor, "keyed_process"):
            batch = KeyedLastBatch(processor.keyed_process)
        else:
            batch = ProcessedBatch(process, self.kind is K.LAST)
        keep = kind != "simple" or self.kind is K.LAST
        return BatchLimiter(batch, self.condition, ctx, emit, after, keep, self.terminable)


def output_factory(clause: A.OutputClause, node: A.SelectStatement, scope: Any, collector: Any,
                   text: str) -> Callable[..., Any]:
    """Compile the output clause; returns `make_output(ctx, emit, processor, iterate=None)`."""
    plan = compile_output(clause, node, scope, text)
    return plan.make


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
        condition = TerminatedFactory()
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
    from epl.compiler.expressions import compile_expr
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


def _iterate_of(ctx: Any) -> Callable[[], Sequence[Any]]:
    """The current result of the instance that owns `ctx` (when the caller did not pass one)."""
    def iterate() -> Sequence[Any]:
        for inst in getattr(ctx.statement, "_instances", ()):
            if getattr(inst, "ctx", None) is ctx:
                return inst.current_rows()
        return ()
    return iterate
