"""Context conditions at runtime: what starts and ends temporal partitions (and ends keyed
ones): an event filter, a pattern, a crontab, a time period after the start, or `@now`.

`arm(runtime, narrow, bindings, fire, start)` registers the condition and returns a token to
`stop()`; when the condition occurs it calls `fire(props, events)`: `props` are the context
properties it provides (the filter's alias, the pattern's tags), `events` those the new
partition's statements should also process (the starting event)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.instance import StatementContext

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


@dataclass(frozen=True, eq=False)
class FilterCondition:
    """`Type(filter) [as alias]`; the filter may read an earlier condition's alias (bindings)."""

    template: Any
    event_type: Any
    alias: Optional[str] = None

    def arm(self, runtime: Any, narrow: Callable, bindings: Any, fire: Fire, start: bool) -> Any:
        spec = narrow(self.template.bind(bindings))
        order = first_order() if start else last_order()
        return runtime.add_filter(spec, _FilterHandle(fire, self.alias, order, start))


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


@dataclass(frozen=True, eq=False)
class PatternCondition:
    """`pattern [...] [@inclusive]`: the tags become context properties."""

    plan: Any
    inclusive: bool = False
    provided: tuple = ()        # tags the start condition provides (bindings, in this order)

    def arm(self, runtime: Any, narrow: Callable, bindings: Any, fire: Fire, start: bool) -> _Token:
        order = first_order() if start else last_order()
        inst = _PatternInstance(runtime.engine, order, narrow)
        release = runtime.track_pattern(inst, order)
        initial = None
        if self.provided and bindings is not None:
            initial = {a: b for a, b in zip(self.provided, bindings) if b is not None}
        try:
            from engine.patterns.run import start_pattern
            run = inst.run = start_pattern(self.plan, inst,
                                           _PatternHandle(fire, self.inclusive and start, order), initial)
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


@dataclass(frozen=True, eq=False)
class CrontabCondition:
    """`(minutes, hours, days, months, weekdays [, seconds [, timezone]])`."""

    spec: Any

    def next_time(self, now: int) -> int:
        from engine.contracts.crontab import next_occurrence
        return next_occurrence(self.spec, now)

    def arm(self, runtime: Any, narrow: Callable, bindings: Any, fire: Fire, start: bool) -> Any:
        return _schedule(runtime, self.next_time(runtime.engine.scheduler.now), fire, start)


@dataclass(frozen=True, eq=False)
class AfterCondition:
    """`after <time period>` (from the partition's start)."""

    msec: int
    length: Optional[Callable[[], Any]] = None     # a variable's time period, read when armed

    def next_time(self, now: int) -> int:
        if self.length is not None:
            v = self.length()
            ms = int(round(v)) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0
            return now + max(0, ms)
        return now + self.msec

    def arm(self, runtime: Any, narrow: Callable, bindings: Any, fire: Fire, start: bool) -> Any:
        return _schedule(runtime, self.next_time(runtime.engine.scheduler.now), fire, start)


@dataclass(frozen=True, eq=False)
class NowCondition:
    """`@now`: at once."""

    def arm(self, runtime: Any, narrow: Callable, bindings: Any, fire: Fire, start: bool) -> _Token:
        fire({}, [])
        return _Token(_noop)


def end_time(condition: Any, now: int) -> Optional[int]:
    """When an end condition will occur, when that is known at the start (`endTime`)."""
    nt = getattr(condition, "next_time", None)
    return nt(now) if nt is not None else None
