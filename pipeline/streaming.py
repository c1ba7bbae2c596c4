"""Streaming: the statements over a Structured Streaming DataFrame with
transformWithStateInPandas in event-time mode, one engine per key.

- The watermark is the CTI. Spark drops rows at or before the watermark W of the micro-batch
  (late events; Spark counts them as numRowsDroppedByWatermark, we count any that still come
  through). Every other row is buffered in its key's state; once W passes it, the key's
  events up to W are released in (time, sequence) order into the key's engine, and engine
  time moves to W under the time protocol of pipeline.runner (each schedule at its own
  instant). So each key's output equals what one engine over the ordered events outputs.
- Timers: each key keeps one event-time timer at the earliest of its first buffered event
  and its engine's next schedule (time windows, batches, pattern guards); when W passes it,
  Spark calls the key back even without new rows.
- State: per key, one value state holding a pickled `KeyState`: the engine as an
  engine.state snapshot (cloudpickle: compiled closures included), the buffered events, the
  released CTI, the output row counter and the late count. It survives a restart of the
  query from its checkpoint. The cost is one snapshot per key and micro-batch with rows or
  timers for that key (tens of kB per engine).
- Rows whose key is null are heartbeats: they move the watermark (Spark derives it from
  data only) and are otherwise ignored; send one with a late time to flush every key.
- `start_time` is every key's engine start, and where unanchored `#time_batch` intervals
  are pinned: give the time of the stream's first event to equal a single engine's run.
"""
from __future__ import annotations

import pickle
from typing import Any, Iterator, Optional, Sequence

import pyarrow as pa

from engine.state import next_schedule_time, restore, snapshot

from .partitioning import analyse, statement_texts
from .replay import TIME_COL, Statements, declares_type, time_millis
from .arrow import declared_properties
from .runner import EngineRunner, Job, plan_job

EVENT_TS_COL = "__epl_ts"     # the event time as a timestamp, for the watermark

try:  # the processor base class, when pyspark is there (this module needs it to run)
    from pyspark.sql.streaming.stateful_processor import StatefulProcessor as _Base
except ImportError:  # pragma: no cover
    _Base = object   # type: ignore[assignment, misc]


class KeyState:
    """What one key keeps between micro-batches."""

    __slots__ = ("engine", "buffer", "cti", "late", "timer", "arrivals", "next_due")

    def __init__(self) -> None:
        self.engine: Optional[bytes] = None          # engine.state snapshot (None: no event yet)
        self.buffer: list[tuple[int, int, dict]] = []   # (time, sequence, event), unreleased
        self.cti = -(1 << 62)                        # events up to here are released
        self.late = 0                                # rows that came at or before the CTI
        self.timer: Optional[int] = None             # the registered event-time timer
        self.arrivals = 0                            # sequence for rows without a sequence column
        self.next_due: Optional[int] = None          # the engine's next schedule

    def __getstate__(self) -> tuple:
        return tuple(getattr(self, n) for n in self.__slots__)

    def __setstate__(self, s: tuple) -> None:
        for n, v in zip(self.__slots__, s):
            setattr(self, n, v)


class EngineProcessor(_Base):
    """The StatefulProcessor: buffers each key's events, releases them at the watermark
    into the key's engine, and outputs the engine's rows."""

    def __init__(self, job: Job, event_columns: Sequence[str],
                 sequence_column: Optional[str] = None) -> None:
        self.job = job
        self.event_columns = list(event_columns)
        self.sequence_column = sequence_column

    # -- StatefulProcessor ------------------------------------------------------------------
    def init(self, handle: Any) -> None:
        from pyspark.sql.types import BinaryType, StructField, StructType
        self.handle = handle
        self.state = handle.getValueState("epl", StructType([StructField("state", BinaryType())]))
        from pyspark import cloudpickle
        self._cloudpickle = cloudpickle

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        if key is None or key[0] is None:     # heartbeat rows: they only move the watermark
            for _ in rows:
                pass
            return iter(())
        st = self._load()
        cols = self.event_columns
        seq_col = self.sequence_column
        for pdf in rows:
            # columns come in input order (event columns, time, timestamp); Spark may rename
            # the added ones, so they are taken by position
            times = pdf.iloc[:, len(cols)].tolist()
            events = pdf.iloc[:, :len(cols)].set_axis(cols, axis=1).to_dict("records")
            seqs = [e[seq_col] for e in events] if seq_col else None
            for i, (t, e) in enumerate(zip(times, events)):
                t = int(t)
                if t <= st.cti:
                    st.late += 1
                    continue
                if seqs is not None:
                    s = int(seqs[i])
                else:
                    s = st.arrivals
                    st.arrivals += 1
                st.buffer.append((t, s, _plain(e)))
        return self._release(st, timerValues.getCurrentWatermarkInMs())

    def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
        st = self._load()
        st.timer = None           # Spark deletes the expired timer after this call
        return self._release(st, timerValues.getCurrentWatermarkInMs())

    def close(self) -> None:
        pass

    # -- the key's engine ---------------------------------------------------------------------
    def _load(self) -> KeyState:
        if self.state.exists():
            return pickle.loads(self.state.get()[0])
        return KeyState()

    def _runner(self, st: KeyState) -> EngineRunner:
        if st.engine is None:
            return EngineRunner(self.job)
        return EngineRunner.adopt(self.job, restore(st.engine))

    def _release(self, st: KeyState, watermark: int) -> Iterator[Any]:
        batch = None
        if watermark > st.cti:
            st.buffer.sort(key=_order)
            n = 0
            while n < len(st.buffer) and st.buffer[n][0] <= watermark:
                n += 1
            # the engine wakes up only for events or schedules due by the watermark; time
            # it skips meanwhile holds nothing, so advancing later gives the same results
            if n or (st.next_due is not None and st.next_due <= watermark):
                runner = self._runner(st)
                if n:
                    ready, st.buffer = st.buffer[:n], st.buffer[n:]
                    runner.feed([t for t, _, _ in ready], [e for _, _, e in ready])
                runner.advance(watermark)
                if runner.pending():
                    batch = runner.take_batch()
                st.next_due = next_schedule_time(runner.engine)
                st.engine = snapshot(runner.engine, pickler=self._cloudpickle)
            st.cti = watermark
        self._schedule(st, watermark)
        self.state.update((pickle.dumps(st, protocol=pickle.HIGHEST_PROTOCOL),))
        if batch is None:
            return iter(())
        return iter((batch.to_pandas(integer_object_nulls=True, date_as_object=True),))

    def _schedule(self, st: KeyState, watermark: int) -> None:
        first = min((b[0] for b in st.buffer), default=None)
        due = [t for t in (first, st.next_due) if t is not None]
        want = min(due) if due else None
        if want is not None and want <= watermark:
            want = watermark + 1          # timers must lie after the watermark
        if want != st.timer:
            if st.timer is not None:
                self.handle.deleteTimer(st.timer)
            if want is not None:
                self.handle.registerTimer(want)
            st.timer = want


def _order(item: tuple) -> tuple:
    return item[0], item[1]


def _plain(event: dict) -> dict:
    """numpy scalars from pandas rows as Python values (the engine compares them with ints)."""
    out = {}
    for k, v in event.items():
        item = getattr(v, "item", None)
        if item is not None and not isinstance(v, (str, bytes)):
            try:
                v = item()
            except (TypeError, ValueError):
                pass
        if isinstance(v, float) and v != v:     # pandas NaN stands for a null
            v = None
        out[k] = v
    return out


def stream(df: Any, statements: Statements, *, event_type: str, time_column: str, key: str,
           watermark_delay: str = "0 seconds", start_time: int = 0,
           sequence_column: Optional[str] = None, allow_single_partition: bool = False) -> Any:
    """The statements over a streaming DataFrame, per key, the watermark acting as the CTI.

    Returns a streaming DataFrame (append mode) with the columns of `replay` (seq counts
    rows per key); write it to any sink with a checkpoint location. See the module
    docstring for lateness, heartbeats and `start_time`."""
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.types import from_arrow_schema, to_arrow_schema

    texts = statement_texts(statements)
    if key not in df.columns:
        raise ValueError(f"No key column '{key}' among {df.columns}")
    analysis = analyse(texts, key, start_time=start_time)
    single = not analysis.ok
    if single and not allow_single_partition:
        raise ValueError(analysis.refusal(key))
    event_columns = list(df.columns)
    declare = None
    if not declares_type(texts, event_type):
        declare = tuple(declared_properties(to_arrow_schema(df.schema, timezone="UTC")).items())
    job = plan_job(texts if single else analysis.texts, event_type, start_time, declare)
    df = df.withColumn(TIME_COL, time_millis(df, time_column))
    df = df.withColumn(EVENT_TS_COL, F.timestamp_millis(F.col(TIME_COL)))
    df = df.withWatermark(EVENT_TS_COL, watermark_delay)
    # one group for everything when not partitionable: heartbeats (null keys) stay apart
    grouped = df.groupBy(F.when(F.col(key).isNull(), F.lit(None)).otherwise(F.lit(0)).alias("__epl_group")) \
        if single else df.groupBy(key)
    processor = EngineProcessor(job, event_columns, sequence_column)
    return grouped.transformWithStateInPandas(
        statefulProcessor=processor,
        outputStructType=from_arrow_schema(job.schema, prefer_timestamp_ntz=False),
        outputMode="Append",
        timeMode="EventTime",
    )


def empty_output(job: Job) -> pa.Table:
    """An empty table with the output schema (for sinks that need one up front)."""
    return job.schema.empty_table()


def late_events(query: Any) -> int:
    """Rows Spark dropped as late (at or before the watermark) over a query's recent
    progress reports: the late events of a `stream` query."""
    total = 0
    for p in query.recentProgress:
        for op in getattr(p, "stateOperators", None) or ():
            total += int(getattr(op, "numRowsDroppedByWatermark", 0) or 0)
    return total
