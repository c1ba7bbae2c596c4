"""One engine over one time-ordered slice of events (a Spark partition, one key, or the whole
input): the time protocol that local runs, batch replay and streaming share.

Time protocol (what makes a partitioned run equal a single engine):
- The engine starts at `start_time` on simulated time.
- Before each event, time moves to the event's time with `advance_time_span`: every
  scheduled callback fires at its own instant, never at the next event's time. (A jump
  with `advance_time` would fire a time window's expiry at whatever event comes next, and
  which event comes next depends on the other keys sharing the engine.) `epl run` steps
  the same way (engine.replay_clock); `stepping="jump"` selects Esper's advanceTime on
  every path, for those who want it (a partitioned jump run need not equal a local one).
- Events with equal times go in arrival order.
- At the end time moves, the same way, to `end_time` so time windows and batches post
  their last results ("infinity" that stays finite: schedules that repeat forever, such as
  `output every`, fire up to `end_time` and no further).

Output rows: statement name, 'insert' or 'remove', engine time of delivery, a sequence
number counted by this runner, then the statement's columns (others stay null); a delivery
lists its insert rows, then its remove rows."""
from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

import pyarrow as pa

from engine.contracts.frozen import frozen_dataclass
from engine.engine import Engine
from engine.statement import Statement
from engine.replay_clock import DEFAULT_FLUSH_MS as DEFAULT_FLUSH_MS, check_stepping

from .arrow import RowBuffer, arrow_type, output_schema

# end_time defaults to the last event's time plus DEFAULT_FLUSH_MS (one hour)


@frozen_dataclass
class Job:
    """What every engine of a run is built from (shipped to Spark workers)."""

    texts: tuple[str, ...]                        # statements, deployed in order
    event_type: str
    start_time: int
    schema: pa.Schema                             # output schema (base columns + selected)
    declare: Optional[tuple[tuple[str, str], ...]] = None   # event type properties, when the
    #                                               statements do not create the schema
    stepping: str = "span"                        # "span" (each instant) or "jump" (advanceTime)
    check_events: bool = True                     # False: every event comes from columns whose
    #                                               types declared the event type (checked once)


class _Sink:
    """Where a runner's statements write rows: the buffer, the row counter, the clock."""

    __slots__ = ("buffer", "seq", "engine")

    def __init__(self, buffer: RowBuffer, engine: Engine) -> None:
        self.buffer = buffer
        self.seq = 0
        self.engine = engine


class Recorder:
    """The listener on one statement: each delivered row's values appended to the
    statement's column lists, each delivery's time, seq and row counts to four more."""

    __slots__ = ("sink", "name", "rows")

    def __init__(self, sink: _Sink, stmt: Statement) -> None:
        self.sink = sink
        self.name = stmt.name
        self.rows = sink.buffer.statement(stmt.name, list(stmt.column_names))

    def __call__(self, new: Optional[list], old: Optional[list]) -> None:
        sink = self.sink
        sink.seq += self.rows.deliver(sink.engine.now, sink.seq, new, old)


def selected_columns(stmt: Statement) -> list[tuple[str, pa.DataType]]:
    """A statement's output columns and their Arrow types."""
    props = stmt.event_type.properties if stmt.event_type is not None else {}
    out = []
    for name in stmt.column_names:
        pt = props.get(name)
        out.append((name, arrow_type(pt) if pt is not None else pa.string()))
    return out


def build_engine(texts: Sequence[str], event_type: str, start_time: int,
                 declare: Optional[Iterable[tuple[str, str]]], check_events: bool = True) -> Engine:
    engine = Engine(time="simulated", start_time=start_time, check_events=check_events)
    if declare is not None:
        engine.register_type(event_type, dict(declare))
    for text in texts:
        engine.epl(text)
    return engine


def plan_job(texts: Sequence[str], event_type: str, start_time: int,
             declare: Optional[Iterable[tuple[str, str]]], stepping: str = "span",
             check_events: bool = True) -> Job:
    """Compile the statements once (errors surface here, not on a worker) and fix the
    output schema. `check_events=False` when every event comes from columns whose types
    declared the event type (`declare` made from the input's Arrow schema): the engine
    then skips its per-event type check, which those values pass by construction."""
    decl = tuple(declare) if declare is not None else None
    engine = build_engine(texts, event_type, start_time, decl)
    try:
        cols = [c for s in engine.statements if s.kind == "select" for c in selected_columns(s)]
    finally:
        engine.close()
    return Job(tuple(texts), event_type, start_time, output_schema(cols), decl,
               check_stepping(stepping), bool(check_events) or decl is None)


class EngineRunner:
    """An engine with a recorder on every result-producing statement."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.engine = build_engine(job.texts, job.event_type, job.start_time, job.declare,
                                   getattr(job, "check_events", True))
        self.sink = _Sink(RowBuffer(job.schema), self.engine)
        for stmt in self.engine.statements:
            if stmt.kind == "select":
                stmt.add_listener(Recorder(self.sink, stmt))

    @classmethod
    def adopt(cls, job: Job, engine: Engine) -> "EngineRunner":
        """A runner around an engine restored from a snapshot (its recorders came along)."""
        self = cls.__new__(cls)
        self.job = job
        self.engine = engine
        sinks = {id(fn.sink): fn.sink for s in engine.statements for fn in s.listeners
                 if isinstance(fn, Recorder)}
        if len(sinks) != 1:
            raise ValueError("restored engine has no pipeline recorders")
        self.sink = next(iter(sinks.values()))
        return self

    @property
    def now(self) -> int:
        return self.engine.now

    def _step(self) -> Any:
        engine = self.engine
        return engine.advance_time if getattr(self.job, "stepping", "span") == "jump" \
            else engine.advance_time_span

    def advance(self, t: int) -> None:
        if t > self.engine.now:
            self._step()(t)

    def feed(self, times: Sequence[int], events: Sequence[Any]) -> None:
        """Events in time order, each at its time."""
        engine = self.engine
        send = engine.send
        step = self._step()
        jump = engine.advance_time
        next_time = engine.scheduler.next_time
        et = self.job.event_type
        for t, e in zip(times, events):
            if t > engine.now:
                # nothing due up to t: stepping through the instants is the same as a jump
                # (the cheaper call); else step through them
                nt = next_time()
                if nt is None or nt > t:
                    jump(t)
                else:
                    step(t)
            send(e, et)

    def pending(self) -> int:
        return len(self.sink.buffer)

    def take_batch(self) -> pa.RecordBatch:
        return self.sink.buffer.take()

    def take_rows(self) -> list[dict]:
        return self.sink.buffer.take_rows()
