"""Context conditions at runtime: what starts and ends temporal partitions (and ends keyed
ones): an event filter, a pattern, a crontab, a time period after the start, or `@now` (the
conditions themselves are plan data, epl/plans/contexts.py).

`arm(condition, runtime, narrow, bindings, fire, start)` registers the condition and returns
a token to `stop()`; when the condition occurs it calls `fire(props, events)`: `props` are the
context properties it provides (the filter's alias, the pattern's tags), `events` those the
new partition's statements should also process (the starting event)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.contracts.crontab import next_occurrence
from engine.instance import StatementContext
from engine.patterns.run import start_pattern
from epl.plans.contexts import (
    AfterCondition, CrontabCondition, FilterCondition, NowCondition, PatternCondition,
)

from .partition import first_order, last_order

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

Fire = Callable[[dict, list], None]


class _ControllerStatement:
    """Stands in for a statement where runtime services expect one (schedules, patterns)."""

    __slots__ = ("_order_key", "_match_key", "drop", "annotations", "name")

    def __init__(self, order: tuple, name: str) -> None:
        self._order_key = order
        self._match_key = order
        self.drop = False
        self.annotations = ()
        self.name = name


class _Token:
    __slots__ = ("release",)

    def __init__(self, release: Callable[[], None]) -> None:
        self.release = release

    def stop(self) -> None:
        release, self.release = self.release, _noop
        release()


def _noop() -> None:
    pass


class _FilterHandle:
    __slots__ = ("fire", "alias", "order", "drop", "statement", "skip_initial")

    def __init__(self, fire: Fire, alias: Optional[str], order: tuple, start: bool) -> None:
        self.fire = fire
        self.alias = alias
        self.order = order
        self.drop = False
        self.statement = None
        # an end condition registered while an event starts its partition must not see it
        self.skip_initial = not start

    def on_event(self, bean: EventBean) -> None:
        self.fire({self.alias: bean} if self.alias else {}, [bean])


def _arm_filter(cond: FilterCondition, runtime: Any, narrow: Callable, bindings: Any, fire: Fire,
                start: bool) -> Any:
    spec = narrow(cond.template.bind(bindings))
    order = first_order() if start else last_order()
    return runtime.add_filter(spec, _FilterHandle(fire, cond.alias, order, start))


class _PatternInstance:
    """What a pattern run asks of the instance it runs for."""

    def __init__(self, engine: "Runtime", order: tuple, narrow: Callable) -> None:
        self.engine = engine
        self.statement = _ControllerStatement(order, "context")
        self.ctx = StatementContext(engine, self.statement, order)
        self.pattern_filter_addendum = narrow
        self.run: Any = None

    def relocate(self, runtime: "Runtime") -> None:
        """Move the run's filters; its schedules (in the ContextRuntime's slots) have moved."""
        if self.run is not None:
            self.run.relocate(runtime)
        # its schedules (in the ContextRuntime's slots) moved shifted by the clocks' gap
        self.ctx.offset += runtime.scheduler.now - self.ctx._scheduler.now
        self.ctx._scheduler = runtime.scheduler
        self.engine = runtime


class _PatternHandle:
    __slots__ = ("fire", "inclusive", "order", "drop", "statement")

    def __init__(self, fire: Fire, inclusive: bool, order: tuple) -> None:
        self.fire = fire
        self.inclusive = inclusive
        self.order = order
        self.drop = False
        self.statement = None

    def on_event(self, match: EventBean) -> None:
        tags = dict(match.underlying)
        events = [v for v in tags.values() if isinstance(v, EventBean)] if self.inclusive else []
        self.fire(tags, events)


def _arm_pattern(cond: PatternCondition, runtime: Any, narrow: Callable, bindings: Any, fire: Fire,
                 start: bool) -> _Token:
    order = first_order() if start else last_order()
    inst = _PatternInstance(runtime.engine, order, narrow)
    release = runtime.track_pattern(inst, order)
    initial = None
    if cond.provided and bindings is not None:
        initial = {a: b for a, b in zip(cond.provided, bindings) if b is not None}
    try:
        run = inst.run = start_pattern(cond.plan, inst,
                                       _PatternHandle(fire, cond.inclusive and start, order), initial)
    except Exception:
        release()
        raise

    def stop() -> None:
        release()
        run.stop()
    return _Token(stop)


def _schedule(runtime: Any, at: int, fire: Fire, start: bool) -> Any:
    slot = first_order() if start else last_order()
    return runtime.schedule(at, slot, lambda: fire({}, []))


def _crontab_next(cond: CrontabCondition, now: int) -> int:
    return next_occurrence(cond.spec, now)


def _after_next(cond: AfterCondition, now: int) -> int:
    if cond.length is not None:
        v = cond.length()
        ms = int(round(v)) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0
        return now + max(0, ms)
    return now + cond.msec


# conditions whose next occurrence is known from the time alone
_NEXT_TIME: dict[type, Callable[[Any, int], int]] = {
    CrontabCondition: _crontab_next,
    AfterCondition: _after_next,
}


def next_time(condition: Any, now: int) -> Optional[int]:
    """When a crontab or after condition armed at `now` occurs (None for the others)."""
    nt = _NEXT_TIME.get(type(condition))
    return nt(condition, now) if nt is not None else None


def _arm_timed(cond: Any, runtime: Any, narrow: Callable, bindings: Any, fire: Fire, start: bool) -> Any:
    return _schedule(runtime, next_time(cond, runtime.engine.scheduler.now), fire, start)


def _arm_now(cond: NowCondition, runtime: Any, narrow: Callable, bindings: Any, fire: Fire,
             start: bool) -> _Token:
    fire({}, [])
    return _Token(_noop)


_ARM: dict[type, Callable[..., Any]] = {
    FilterCondition: _arm_filter,
    PatternCondition: _arm_pattern,
    CrontabCondition: _arm_timed,
    AfterCondition: _arm_timed,
    NowCondition: _arm_now,
}


def arm(condition: Any, runtime: Any, narrow: Callable, bindings: Any, fire: Fire, start: bool) -> Any:
    """Register a condition (see the module docstring); the token's `stop()` releases it."""
    return _ARM[type(condition)](condition, runtime, narrow, bindings, fire, start)


def end_time(condition: Any, now: int) -> Optional[int]:
    """When an end condition will occur, when that is known at the start (`endTime`)."""
    return next_time(condition, now)
