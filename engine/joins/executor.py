"""A running join: one sink per stream at the end of its view chain, the streams' event
stores and indexes, and Esper's join execution.

What the streams report for one incoming event (or one timer callback) is collected first
and joined once, the way Esper dispatches a join after the statement has seen the event:

1. old rows: each leaving event joined with the other streams' contents as they were
   (still holding this update's leaving events, not yet its entering ones);
2. entering events are added to their stores, then leaving events removed;
3. new rows: each entering event joined with the updated contents.

Rows are kept once each (two entering events that join each other give one row). With
unidirectional streams only their entering events produce rows, and never old rows.

When several streams of the statement can receive the same event (a self-join), a flush
handle ordered after the statement's stream handles runs the join once all of them saw it;
timer callbacks of the streams' views due at one instant likewise run before one join.
"""
from __future__ import annotations

from typing import Any, Optional

from engine.contracts.bean import EventBean

from .indexes import EventStore, TableRows, make_index
from .inner import InnerJoin
from .outer import OuterJoin
from epl.plans.joins import InnerPlan, JoinPlan, Row
from .timers import JoinTimerContext


class JoinStreamSink:
    """The child of one stream's last view: hands updates to the join."""

    __slots__ = ("join", "stream")

    def __init__(self, join: "JoinExecutor", stream: int) -> None:
        self.join = join
        self.stream = stream

    def update(self, new: Optional[list], old: Optional[list]) -> None:
        self.join.receive(self.stream, new, old)


class JoinStreamHandle:
    """What the filter index calls for a join stream: feeds the stream's first view. The join
    runs as soon as the stream reports, unless another stream of the statement may receive
    the same event: then the flush handle runs it once all of them have."""

    __slots__ = ("target", "statement", "order", "drop", "stream_index", "join", "shared")

    def __init__(self, join: "JoinExecutor", target: Any, statement: Any, stream_index: int) -> None:
        self.join = join
        self.target = target
        self.statement = statement
        self.order = statement._match_key
        self.drop = statement.drop
        self.stream_index = stream_index
        self.shared = stream_index in join.shared_streams

    def on_event(self, bean: EventBean) -> None:
        if self.shared:
            self.join.deferred = True
        self.target.update([bean], None)


class JoinFlushHandle:
    """Registered on the filters of streams sharing an event type; ordered after the
    statement's stream handles (and after pattern flushes), so it runs the join once per
    event."""

    __slots__ = ("join", "statement", "order", "drop")

    def __init__(self, join: "JoinExecutor", statement: Any) -> None:
        self.join = join
        self.statement = statement
        self.order = tuple(statement._match_key) + (float("inf"), float("inf"))
        self.drop = False

    def on_event(self, bean: EventBean) -> None:
        self.join.deferred = False
        self.join.flush()


class JoinExecutor:
    """One instance of a join plan for one statement instance."""

    def __init__(self, plan: JoinPlan, instance: Any) -> None:
        # `instance`: the engine.instance.SelectInstance that makes this join (not imported:
        # the instance imports this module)
        self.plan = plan
        self.instance = instance
        self.processor = instance.processor
        self.output = instance.output
        n = plan.stream_count
        tables = plan.tables or (None,) * n
        # a table stream: its store and indexes read the table's rows at each lookup
        self.indexes = [make_index(spec) if tables[spec.stream] is None
                        else TableRows(tables[spec.stream], spec.key_of, spec.kind)
                        for spec in plan.index_specs]
        self.stores = [EventStore([ix for ix, spec in zip(self.indexes, plan.index_specs) if spec.stream == i])
                       if tables[i] is None else TableRows(tables[i])
                       for i in range(n)]
        strategy = plan.strategy
        self.lookup = InnerJoin(strategy, self.indexes, self.stores) if isinstance(strategy, InnerPlan) \
            else OuterJoin(strategy, self.indexes, self.stores)
        self.unidirectional = frozenset(plan.unidirectional)
        # Esper computes a unidirectional join's aggregation per triggering event: the
        # processor starts afresh each time; not under `output snapshot` and the non-buffered
        # `output all|last` (no order by), whose helpers apply updates without a reset
        self._reset_each = plan.per_trigger and hasattr(self.processor, "reset") \
            and not getattr(self.output, "keeps_aggregation", False)
        self.stream_sinks = [JoinStreamSink(self, i) for i in range(n)]
        self.shared_streams = _shared_streams(plan)
        # the streams' views schedule through it: same-instant callbacks, one join
        self.view_context = JoinTimerContext(instance.ctx, self)
        self.deferred = False
        self._new: list[Optional[list]] = [None] * n
        self._old: list[Optional[list]] = [None] * n
        self._pending = False
        self._flush_tokens: list[Any] = []
        self.executions = 0

    # -- wiring (called by SelectInstance) ---------------------------------------------------
    def make_handle(self, target: Any, statement: Any, stream_index: int) -> JoinStreamHandle:
        return JoinStreamHandle(self, target, statement, stream_index)

    def start(self) -> None:
        if not self.shared_streams:
            return
        index = self.instance.engine.filters
        flusher = JoinFlushHandle(self, self.instance.statement)
        for i in sorted(self.shared_streams):
            template = self.plan.filters[i]
            self._flush_tokens.append(index.add(template.bind(self.instance.bindings), flusher))

    def stop(self) -> None:
        index = self.instance.engine.filters
        tokens, self._flush_tokens = self._flush_tokens, []
        for t in tokens:
            index.remove(t)
        for s in self.stores:
            s.clear()
        n = self.plan.stream_count
        self._new, self._old = [None] * n, [None] * n
        self._pending = False
        self.deferred = False

    # -- execution -------------------------------------------------------------------------------
    def receive(self, stream: int, new: Optional[list], old: Optional[list]) -> None:
        if new:
            buf = self._new[stream]
            self._new[stream] = list(new) if buf is None else buf + list(new)
            self._pending = True
        if old:
            buf = self._old[stream]
            self._old[stream] = list(old) if buf is None else buf + list(old)
            self._pending = True
        if not self.deferred:
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        n = self.plan.stream_count
        new, old = self._new, self._old
        self._new, self._old = [None] * n, [None] * n
        self._pending = False
        self.executions += 1
        lookup, stores, uni = self.lookup, self.stores, self.unidirectional
        old_rows: dict[tuple, Row] = {}
        if not uni:
            for i in range(n):
                for bean in old[i] or ():
                    for row in lookup.rows_for(i, bean):
                        old_rows.setdefault(_row_key(row), row)
        for i in range(n):
            if i in uni:
                continue
            store = stores[i]
            for bean in new[i] or ():
                store.add(bean)
            for bean in old[i] or ():
                store.remove(bean)
        new_rows: dict[tuple, Row] = {}
        for i in range(n):
            if uni and i not in uni:
                continue
            for bean in new[i] or ():
                for row in lookup.rows_for(i, bean):
                    new_rows.setdefault(_row_key(row), row)
        if not new_rows and not old_rows:
            return
        processor = self.processor
        if self._reset_each:
            # output limiters apply an update's aggregation as it is delivered: a reset here
            # holds for them too
            processor.reset()
        nr, orows = processor.process(list(new_rows.values()), list(old_rows.values()))
        self.output.deliver(nr, orows)

    def current_rows(self) -> list[Row]:
        """The join of the streams' current contents (empty for unidirectional joins, whose
        triggering stream keeps nothing)."""
        if self.unidirectional:
            return []
        return self.lookup.all_rows()

    def iterate(self) -> list:
        return self.processor.iterate(self.current_rows())


def _row_key(row: Row) -> tuple:
    return tuple(map(id, row))


def _shared_streams(plan: JoinPlan) -> frozenset[int]:
    """Filter streams whose event type can also feed another filter stream of the join."""
    types = plan.event_types
    shared = set()
    for i, ti in enumerate(types):
        if ti is None or plan.filters[i] is None:
            continue
        for j, tj in enumerate(types):
            if i == j or tj is None or plan.filters[j] is None:
                continue
            if ti is tj or ti in tj.ancestors() or tj in ti.ancestors():
                shared.add(i)
    return frozenset(shared)
