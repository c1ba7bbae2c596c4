"""A running select statement: its filter registrations, view chains, result-set processor
and output, built from the plan when the statement starts and released when it stops."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from views.registry import make_chain

from engine.contracts.bean import EventBean
from .joins.executor import JoinExecutor
from .output.plan import make_limiter
from .resultset.processors import make_processor

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime
    from .statement import Statement


def move_filter(token: Any, old: Any, new: Any) -> Any:
    """Move a filter registration from filter index `old` to `new` (same spec, same
    handle); returns the token of the new registration."""
    fresh = new.add(token.spec, token.handle)
    old.remove(token)
    return fresh


class StatementContext:
    """What views and limiters of one statement instance may ask of the engine (the
    views.base.ViewContext protocol): time, and schedules in the statement's slot."""

    __slots__ = ("_scheduler", "slot", "statement", "msec_per_unit", "offset")
    shared_state = True     # engine/rollback.py records through it, never its contents

    def __init__(self, engine: "Runtime", statement: "Statement", slot: Any) -> None:
        self._scheduler = engine.scheduler
        self.statement = statement
        self.slot = slot
        self.msec_per_unit = 1.0
        # the statement's time is its runtime's time less `offset`: 0 until the statement
        # moves between runtimes whose clocks differ (see `shift_to`)
        self.offset = 0

    def now(self) -> int:
        return self._scheduler.now - self.offset

    def schedule(self, at: int, callback: Callable[[], None]) -> Any:
        return self._scheduler.schedule(at + self.offset, self.slot, callback)

    def schedule_after_views(self, at: int, callback: Callable[[], None]) -> Any:
        """Schedule in a slot after the statement's views, so that at the same instant
        window expiry happens first (output conditions need this)."""
        return self._scheduler.schedule(at + self.offset, self.slot + (1,), callback)

    def shift_to(self, scheduler: Any) -> int:
        """Move the callbacks in this context's slots (its own and the ones nested under it)
        to `scheduler`, shifted by the gap between the two clocks as Esper shifts them: what
        was due in d ms is due in d ms on the new clock, and the statement's own timestamps
        (window arrivals, output references) stay consistent through `offset`. Returns the
        gap."""
        old = self._scheduler
        if old is scheduler:
            return 0
        delta = scheduler.now - old.now
        key = tuple(self.slot)
        n = len(key)
        scheduler.adopt(old.extract(lambda slot: isinstance(slot, tuple) and slot[:n] == key), delta)
        self._scheduler = scheduler
        self.offset += delta
        return delta

    def cancel(self, handle: Any) -> None:
        self._scheduler.cancel(handle)


class StreamHandle:
    """What the filter index returns for a stream: `on_event` feeds the stream's first view."""

    __slots__ = ("target", "order", "statement", "drop", "stream_index")

    def __init__(self, target: Any, statement: "Statement", stream_index: int) -> None:
        self.target = target
        self.statement = statement
        self.order = statement._match_key
        self.drop = statement.drop
        self.stream_index = stream_index

    def on_event(self, bean: EventBean) -> None:
        self.target.update([bean], None)


class RowHandle(StreamHandle):
    """The handle of a stream whose events are the statement's rows (no views, a
    PassthroughSink delivering the insert stream to the statement): each event goes to the
    statement's dispatch queue without passing the sink. When an event matched only this handle and no
    results wait for dispatch, the engine calls `statement._deliver_now` instead."""

    __slots__ = ()

    def on_event(self, bean: EventBean) -> None:
        self.statement._emit([bean], None)


class ContainedHandle:
    """Contained-event selection (`Order[items]`): the container event matched the filter;
    each event held in the property goes to the stream, in order."""

    __slots__ = ("inner", "split", "order", "statement", "drop", "stream_index")

    def __init__(self, inner: Any, split: Any) -> None:
        self.inner = inner
        self.split = split
        self.order = inner.order
        self.statement = inner.statement
        self.drop = inner.drop
        self.stream_index = inner.stream_index

    def on_event(self, bean: EventBean) -> None:
        for b in self.split(bean):
            self.inner.on_event(b)


def make_handle(first: Any, statement: "Statement", stream_index: int) -> StreamHandle:
    """RowHandle when the stream feeds its statement's rows directly, else StreamHandle."""
    if type(first) is PassthroughSink and first.want_new and first.emit == statement._emit:
        return RowHandle(first, statement, stream_index)
    return StreamHandle(first, statement, stream_index)


class SingleStreamSink:
    """End of a single stream's view chain: where-clause, result set, output."""

    __slots__ = ("where", "processor", "output")

    def __init__(self, where: Optional[Callable], processor: Any, output: Any) -> None:
        self.where = where
        self.processor = processor
        self.output = output

    def update(self, new: Optional[list], old: Optional[list]) -> None:
        # one event each way is the common update of a sliding window
        ne = ([(new[0],)] if len(new) == 1 else [(b,) for b in new]) if new else []
        oe = ([(old[0],)] if len(old) == 1 else [(b,) for b in old]) if old else []
        where = self.where
        if where is not None:
            if not ne and not oe:
                return
            ne = [e for e in ne if where(e)]
            oe = [e for e in oe if where(e)]
            if not ne and not oe:
                return
        new_rows, old_rows = self.processor.process(ne, oe)
        self.output.deliver(new_rows, old_rows)


class PassthroughSink:
    """End of a single stream's chain for `select *` without where, aggregation, having,
    order by, distinct, limit or output rate limiting: the events are the rows, as
    SingleStreamSink with a SimpleProcessor and a DirectOutput would deliver them, without
    wrapping each event in a tuple and unwrapping it again."""

    __slots__ = ("want_new", "want_old", "emit")

    def __init__(self, want_new: bool, want_old: bool,
                 emit: Callable[[Optional[list], Optional[list]], None]) -> None:
        self.want_new = want_new
        self.want_old = want_old
        self.emit = emit

    def update(self, new: Optional[list], old: Optional[list]) -> None:
        new = new if new and self.want_new else None
        old = old if old and self.want_old else None
        if new or old:
            self.emit(new, old)     # the statement copies the lists it queues


class PrevSink(SingleStreamSink):
    """SingleStreamSink of a statement using prev, prevtail, prevwindow or prevcount: tells the
    stream's access holders which rows are the remove stream's while the result set evaluates
    them (an event posted both as new and as old gets null from them on its remove-stream row,
    as Esper evaluates that row with isNewData false)."""

    __slots__ = ("holders",)

    def __init__(self, where: Optional[Callable], processor: Any, output: Any, holders: tuple) -> None:
        super().__init__(where, processor, output)
        self.holders = holders

    def update(self, new: Optional[list], old: Optional[list]) -> None:
        ne = [(b,) for b in new] if new else []
        oe = [(b,) for b in old] if old else []
        if self.where is not None and not ne and not oe:
            return
        holders = self.holders
        outer = [h.old_rows for h in holders]      # restored after: an update may nest
        for h in holders:           # the where-clause too sees the remove stream as such
            h.old_rows = oe
        try:
            where = self.where
            if where is not None:
                ne = [e for e in ne if where(e)]
                oe = [e for e in oe if where(e)]
                if not ne and not oe:
                    return
            new_rows, old_rows = self.processor.process(ne, oe)
            # an output limiter processing the update as it is handed over sees it too
            self.output.deliver(new_rows, old_rows)
        finally:
            for h, rows in zip(holders, outer):
                h.old_rows = rows


def make_sink(where: Optional[Callable], processor: Any, output: Any, prev_holders: tuple = ()) -> Any:
    """The sink of a single-stream statement: PassthroughSink when it is exactly equivalent,
    PrevSink when the statement uses the prev functions."""
    from .resultset.processors import SimpleProcessor
    if prev_holders:
        return PrevSink(where, processor, output, prev_holders)
    if where is None and type(processor) is SimpleProcessor and type(output) is DirectOutput \
            and processor.select.passthrough and processor.shaper.is_identity:
        return PassthroughSink(processor.want_new, processor.want_old, output.emit)
    return SingleStreamSink(where, processor, output)


class DirectOutput:
    """No output rate limiting: rows go straight to the statement."""

    __slots__ = ("emit",)

    def __init__(self, emit: Callable[[Optional[list], Optional[list]], None]) -> None:
        self.emit = emit

    def deliver(self, new_rows: Optional[list], old_rows: Optional[list]) -> None:
        if new_rows or old_rows:
            self.emit(new_rows, old_rows)

    def stop(self) -> None:
        pass


class SelectInstance:
    """One instance of a select plan (the statement's, or one per context partition)."""

    def __init__(self, engine: "Runtime", statement: "Statement", plan: Any, slot: Any,
                 bindings: Any = None, ctx: Any = None, join_class: Optional[type] = None) -> None:
        self.engine = engine
        self.statement = statement
        self.plan = plan
        # a context partition passes its own ctx (its schedules set the partition's properties)
        own = ctx is None
        self.ctx = ctx if ctx is not None else StatementContext(engine, statement, slot)
        # a statement running user code that can raise mid-update rolls back (engine/rollback.py):
        # its schedules, streams and pattern filters go through its guard
        self.guard = None
        if getattr(plan, "extra", {}).get("guarded"):
            from .rollback import StatementGuard
            self.guard = StatementGuard(self)
            self.ctx = self.guard.context(self.ctx)
        self.processor = make_processor(plan.result_set)
        if self.guard is not None:
            self.guard.track(self.processor)
        if plan.output is None:
            self.output = DirectOutput(statement._emit)
        else:
            self.output = make_limiter(plan.output, self.ctx, statement._emit, self.processor,
                                       self.current_rows)
            # the limiter processes each view update itself: the plumbing hands updates over
            # through its stand-in for the processor (engine/output/tap.py)
            self.processor = self.output.stand_in
        self.views: list[list] = []
        self.registrations: list[Any] = []
        self.handles: list[StreamHandle] = []
        self.join = None
        subqueries = getattr(plan, "extra", {}).get("subqueries")
        self.subqueries = engine.services.subqueries.instantiate(self, subqueries) if subqueries else None
        if plan.join is not None:
            self.join = (join_class or JoinExecutor)(plan.join, self)
            sinks = self.join.stream_sinks
        else:
            sinks = [make_sink(plan.where, self.processor, self.output,
                               getattr(plan, "extra", {}).get("prev_holders", ()))]
        for stream, sink in zip(plan.streams, sinks):
            if stream.views:
                ctx = self.ctx if self.join is None else self.join.view_context
                first, chain = make_chain(list(stream.views), ctx, sink)
            else:
                first, chain = sink, []
            if self.guard is not None:
                first = self.guard.target(first)
            self.views.append(chain)
            handle = make_handle(first, statement, stream.index) if self.join is None \
                else self.join.make_handle(first, statement, stream.index)
            if stream.contained is not None:
                handle = ContainedHandle(handle, stream.contained)
            self.handles.append(handle)
        self.bindings = bindings
        if own:     # a statement's own instance may run as fused code (engine/fused.py)
            from .fused import fuse
            fuse(self)

    def start(self) -> None:
        index = self.engine.filters
        try:
            if self.subqueries is not None:   # subquery streams see an event before the outer ones
                self.subqueries.start()
            for stream, handle in zip(self.plan.streams, self.handles):
                if stream.pattern is not None:
                    from engine.patterns.run import start_pattern
                    self.registrations.append(start_pattern(stream.pattern, self, handle))
                elif stream.named_window is not None:
                    self.registrations.append(stream.named_window.attach(handle))
                else:
                    self.registrations.append(index.add(stream.filter.bind(self.bindings), handle))
            if self.join is not None:
                self.join.start()
        except Exception:
            self.stop()
            raise

    def stop(self) -> None:
        index = self.engine.filters
        for stream, reg in zip(self.plan.streams, self.registrations):
            if stream.pattern is not None or stream.named_window is not None:
                reg.stop()
            else:
                index.remove(reg)
        self.registrations.clear()
        if self.join is not None:
            self.join.stop()
        if self.subqueries is not None:
            self.subqueries.stop()
        for chain in self.views:
            for v in chain:
                v.stop()
        self.output.stop()

    def relocate(self, runtime: "Runtime") -> None:
        """Move this running instance, with its windows, aggregations, pattern state and
        pending output, to another runtime (the engine, or an isolated service's runtime):
        its filters go to that runtime's filter index and its pending schedules to that
        runtime's scheduler, shifted by the gap between the two clocks (Esper's schedule
        adjustment; see StatementContext.shift_to). Only for a statement's own instance: the schedules moved
        are those in the statement's slots."""
        old_index, new_index = self.engine.filters, runtime.filters
        if old_index is not new_index:
            regs = []
            for stream, reg in zip(self.plan.streams, self.registrations):
                if stream.pattern is not None:
                    reg.relocate(runtime)
                elif stream.named_window is None:    # a named window feeds its consumers anywhere
                    reg = move_filter(reg, old_index, new_index)
                regs.append(reg)
            self.registrations = regs
            if self.join is not None:
                self.join._flush_tokens = [move_filter(t, old_index, new_index)
                                           for t in self.join._flush_tokens]
            if self.subqueries is not None:
                for rt in self.subqueries.runtimes:
                    if rt.token is not None:
                        rt.token = move_filter(rt.token, old_index, new_index)
        # the view chains' slot and the later ones after it (output conditions)
        self.ctx.shift_to(runtime.scheduler)
        self.engine = runtime

    def current_rows(self) -> list:
        """`for row in statement`: the result over the current window contents."""
        if self.join is not None:
            return self.join.iterate()
        chain = self.views[0]
        if chain:
            events = [(b,) for b in chain[-1]]
        else:
            events = []
        if self.plan.where is not None:
            events = [e for e in events if self.plan.where(e)]
        return self.processor.iterate(events)
