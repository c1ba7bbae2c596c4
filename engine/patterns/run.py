"""One running pattern (per statement instance): the root of its state tree, the services its
nodes use (filter index, schedules, instance limit), and the delivery of matches to the
stream's views.

Matches go to the stream one at a time as they occur (Esper inserts each match into the
stream). With @SuppressOverlappingMatches or @DiscardPartialsOnMatch they are collected and
handled together once the statement has processed the event (or the timer callback): a
flush handle registered after the pattern's own filters in the statement's order does that.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from filterindex.spec import FilterSpec

from .base import Match, StateNode
from .consume import Consumption, has_consume
from .limits import PatternLimit, pattern_limit
from .match import event_ids, without_overlaps
from .nodes import build

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime
    from epl.plans.patterns import PatternPlan


# the fast paths' starts by the class of their plan: engine/patterns/keyed_followed.py
# registers its own (the Engine facade imports it); it imports engine.instance, which starts
# patterns through this module, so this module does not import it
FAST_PATHS: dict[type, Callable[[Any, Any, Any], Any]] = {}


def start_pattern(plan: "PatternPlan", instance: Any, handle: Any, initial: Optional[dict] = None) -> Any:
    """Run a compiled pattern for one statement instance (`instance.engine`, `.ctx`,
    `.statement`; optional `.pattern_filter_addendum`), feeding each match (an EventBean of
    `plan.match_type`) to `handle.on_event`. `initial`: tags bound before the pattern starts
    (a context's end pattern reading what its start condition provided). The run returned
    has `stop()`, which releases every filter and schedule, and `relocate(runtime)`."""
    # a guarded statement (engine/rollback.py) keeps the general state machines
    if plan.fast is not None and initial is None and getattr(instance, "guard", None) is None:
        start = FAST_PATHS.get(type(plan.fast))
        run = start(plan.fast, instance, handle) if start is not None else None
        if run is not None:
            return run
    return PatternRun(plan, instance, handle).start(initial)


class PatternRun:
    """Root evaluator and runtime services of one pattern instance; `stop()` releases it."""

    filter_child_stays = False

    def __init__(self, plan: "PatternPlan", instance: Any, handle: Any) -> None:
        self.plan = plan
        self.root = build(plan.root)        # what the state nodes are made from
        self.engine = instance.engine
        self.index = self.engine.filters
        self.ctx = instance.ctx
        self.statement = instance.statement
        self.order = self.statement._match_key
        self.drop = self.statement.drop
        self.handle = handle
        self.match_type = plan.match_type
        # context partitions narrow pattern filters with their own conditions
        self.addendum: Optional[Callable[[FilterSpec], FilterSpec]] = getattr(
            instance, "pattern_filter_addendum", None)
        names = {a.name.lower() for a in getattr(self.statement, "annotations", ()) or ()}
        self.suppress = plan.suppress_overlapping or "suppressoverlappingmatches" in names
        self.discard = plan.discard_partials or "discardpartialsonmatch" in names
        self.batching = self.suppress or self.discard
        self.buffer: list[EventBean] = []
        self.top: Optional[StateNode] = None
        self.flush_tokens: list[Any] = []
        # the nodes' filters in registration order, to move them in that order (relocate)
        self.live: dict[_LiveFilter, None] = {}
        self.starting = False
        self.consumption = Consumption(self) if has_consume(plan.root) else None
        # a guarded statement's filters run under its guard (engine/rollback.py)
        self.guard = getattr(instance, "guard", None)

    # -- lifecycle -----------------------------------------------------------------------
    def start(self, initial: Optional[dict] = None) -> "PatternRun":
        if self.batching:
            flusher: Any = _FlushHandle(self)
            if self.guard is not None:
                flusher = self.guard.filter_handle(flusher)
            for et in self.plan.event_types:
                self.flush_tokens.append(self.index.add(FilterSpec(et, ((),)), flusher))
        self.starting = True
        try:
            top = self.top = self.root.make(self, self)
            top.start(dict(initial) if initial else {})
        finally:
            self.starting = False
        return self

    def stop(self) -> None:
        top, self.top = self.top, None
        if top is not None:
            top.quit()
        tokens, self.flush_tokens = self.flush_tokens, []
        for t in tokens:
            self.index.remove(t)
        self.buffer.clear()

    def relocate(self, runtime: "Runtime") -> None:
        """Continue in another runtime (engine or isolated service) with the same state:
        every live filter moves to its filter index. Schedules go through the instance's
        context, which the instance moves itself."""
        old, new = self.index, runtime.filters
        if new is not old:
            for f in self.live:
                f.token = _moved(f.token, old, new)
            self.flush_tokens = [_moved(t, old, new) for t in self.flush_tokens]
        self.engine, self.index = runtime, new

    # -- root evaluator ----------------------------------------------------------------
    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        if quitted:
            self.top = None
        if self.starting:       # as in Esper, a pattern true on start reports nothing
            return
        bean = EventBean(self.match_type, dict(match))
        if self.batching:
            self.buffer.append(bean)
        else:
            self.handle.on_event(bean)

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        top, self.top = self.top, None
        if top is not None:
            top.quit()

    def flush(self) -> None:
        matches, self.buffer = self.buffer, []
        if not matches:
            return
        if self.discard and self.top is not None:
            self.top.remove_match(event_ids(matches))
        if self.suppress and len(matches) > 1:
            matches = without_overlaps(matches)
        target = getattr(self.handle, "target", None)
        if target is not None:
            target.update(matches, None)
        else:
            for m in matches:
                self.handle.on_event(m)

    # -- services for state nodes -------------------------------------------------------
    def add_filter(self, template: Any, begin: Match, handle: Any) -> Any:
        spec = template.bind((EventBean(self.match_type, begin),))
        if self.addendum is not None:
            spec = self.addendum(spec)
        if self.guard is not None:
            handle = self.guard.filter_handle(handle)
        f = _LiveFilter(self.index.add(spec, handle))
        self.live[f] = None
        return f

    def remove_filter(self, token: Any) -> None:
        self.live.pop(token, None)
        self.index.remove(token.token)

    def now(self) -> int:
        return self.ctx.now()

    def schedule(self, at: int, callback: Callable[[], None]) -> Any:
        if self.batching:
            def fire(_cb=callback) -> None:
                _cb()
                if self.buffer:
                    self.flush()
            return self.ctx.schedule(at, fire)
        return self.ctx.schedule(at, callback)

    def schedule_after(self, delta: int, callback: Callable[[], None]) -> Any:
        return self.schedule(self.ctx.now() + delta, callback)

    def cancel(self, handle: Any) -> None:
        self.ctx.cancel(handle)

    def acquire_instance(self) -> bool:
        engine = self.engine
        lim = engine.services.pattern_limit
        if lim.__class__ is not PatternLimit:      # not yet made, an int, or a subclass
            lim = pattern_limit(engine)
        return lim.try_acquire(engine, self.statement)

    def release_instance(self) -> None:
        lim = self.engine.services.pattern_limit
        if lim.__class__ is not PatternLimit:
            lim = pattern_limit(self.engine)
        lim.release(self.statement)


def _moved(token: Any, old: Any, new: Any) -> Any:
    """engine.instance.move_filter, which this module cannot import (engine.instance starts
    pattern runs): the registration moved from filter index `old` to `new`."""
    fresh = new.add(token.spec, token.handle)
    old.remove(token)
    return fresh


class _LiveFilter:
    """What `add_filter` gives a node: the filter index token, replaced when the run moves."""

    __slots__ = ("token",)

    def __init__(self, token: Any) -> None:
        self.token = token


class _FlushHandle:
    """Registered on every event type the pattern filters, ordered after the statement's
    own handles: called last for the statement, it hands the collected matches over."""

    __slots__ = ("run", "order", "drop", "statement")

    def __init__(self, run: PatternRun) -> None:
        self.run = run
        self.order = tuple(run.order) + (float("inf"),)
        self.drop = False
        self.statement = run.statement

    def on_event(self, bean: Any) -> None:
        if self.run.buffer:
            self.run.flush()
