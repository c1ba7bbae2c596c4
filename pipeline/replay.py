"""Batch replay: statements over a DataFrame (or a Parquet, CSV or JSON path) on Spark, one
engine per partition, and the same run in one local engine (`run_local`), the reference
the Spark output equals.

The DataFrame is repartitioned by the key, sorted within partitions by (time, arrival
sequence), and fed to each partition's engine as Arrow record batches (mapInArrow) under
the time protocol of pipeline.runner: engine time starts at `start_time` (default: the
first event's time), moves through every scheduled instant to each event's time, and after
the last event to `end_time` (default: the last event's time plus `flush_ms`, one hour)."""
from __future__ import annotations

import datetime as _dt
import os
import zlib
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence, Union

import pyarrow as pa

import epl.ast as A
from epl.parser import parse_module

from .arrow import batch_events, declared_properties
from .partitioning import Analysis, analyse, statement_texts
from .runner import DEFAULT_FLUSH_MS, EngineRunner, Job, plan_job

TIME_COL = "__epl_t"      # the event time in ms, added to the input
SEQ_COL = "__epl_seq"     # the arrival order, added to the input
Statements = Union[str, Sequence[str]]


def declares_type(texts: Sequence[str], event_type: str) -> bool:
    """Whether the statements create the event type's schema themselves."""
    for t in texts:
        for node in parse_module(t).statements:
            if isinstance(node, A.CreateSchema) and node.name == event_type:
                return True
    return False


# -- local reference run -------------------------------------------------------------------
def _ms(v: Any) -> int:
    if isinstance(v, _dt.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=_dt.timezone.utc)
        return int(v.timestamp() * 1000)
    return int(v)


def _python_type_name(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "long"
    if isinstance(v, float):
        return "double"
    if isinstance(v, str):
        return "string"
    return "object"


@dataclass
class _LocalInput:
    texts: tuple[str, ...]
    times: list[int]
    events: list[dict]
    declare: Optional[tuple[tuple[str, str], ...]]
    start: int
    end: int
    checked: bool = False      # the event type comes from the table's schema: no per-event check


def _local_input(events: Union[Iterable[Mapping[str, Any]], pa.Table], statements: Statements,
                 event_type: str, time_column: str, start_time: Optional[int],
                 end_time: Optional[int], flush_ms: int,
                 sequence_column: Optional[str]) -> _LocalInput:
    if isinstance(events, pa.Table):
        declare_from: Any = events.schema
        rows = [e for b in events.to_batches() for e in batch_events(b, events.schema.names)]
    else:
        rows = [dict(e) for e in events]
        declare_from = None
    texts = statement_texts(statements)
    order = sorted(range(len(rows)), key=lambda i: (
        _ms(rows[i][time_column]), rows[i][sequence_column] if sequence_column else i))
    times = [_ms(rows[i][time_column]) for i in order]
    ordered = [rows[i] for i in order]
    declare = None
    if not declares_type(texts, event_type):
        if declare_from is not None:
            declare = tuple(declared_properties(declare_from).items())
        elif ordered:
            declare = tuple((k, _python_type_name(v)) for k, v in ordered[0].items())
        else:
            declare = ((time_column, "long"),)
    start = start_time if start_time is not None else (times[0] if times else 0)
    end = end_time if end_time is not None else (times[-1] if times else start) + flush_ms
    checked = declare is not None and declare_from is not None
    return _LocalInput(texts, times, ordered, declare, start, end, checked)


def run_local(events: Union[Iterable[Mapping[str, Any]], pa.Table], statements: Statements, *,
              event_type: str, time_column: str, start_time: Optional[int] = None,
              end_time: Optional[int] = None, flush_ms: int = DEFAULT_FLUSH_MS,
              sequence_column: Optional[str] = None, stepping: str = "span") -> list[dict]:
    """The statements over all events in one engine, under the same time protocol as the
    Spark runs and `epl run`: rows as dicts with statement, stream, time, seq and the
    selected columns. Events are taken in (time, sequence column or input order) order.
    `stepping="jump"` moves time with Esper's advanceTime instead of stepping through each
    scheduled instant (see engine.replay_clock)."""
    li = _local_input(events, statements, event_type, time_column, start_time, end_time,
                      flush_ms, sequence_column)
    runner = EngineRunner(plan_job(li.texts, event_type, li.start, li.declare, stepping,
                                   check_events=not li.checked))
    runner.feed(li.times, li.events)
    runner.advance(li.end)
    return runner.take_rows()


def run_partitioned(events: Union[Iterable[Mapping[str, Any]], pa.Table], statements: Statements,
                    *, event_type: str, time_column: str, key: str, partitions: int = 2,
                    start_time: Optional[int] = None, end_time: Optional[int] = None,
                    flush_ms: int = DEFAULT_FLUSH_MS,
                    sequence_column: Optional[str] = None, stepping: str = "span") -> list[dict]:
    """What `replay` does, without Spark: events split among `partitions` engines by a hash
    of the key, each engine under the time protocol; rows of partition 0, then 1, ...
    (seq counts within a partition). Raises for statements that are not partitionable."""
    li = _local_input(events, statements, event_type, time_column, start_time, end_time,
                      flush_ms, sequence_column)
    analysis = analyse(li.texts, key, start_time=li.times[0] if li.times else li.start)
    if not analysis.ok:
        raise ValueError(analysis.refusal(key))
    job = plan_job(analysis.texts, event_type, li.start, li.declare, stepping,
                   check_events=not li.checked)
    parts: list[tuple[list[int], list[dict]]] = [([], []) for _ in range(partitions)]
    for t, e in zip(li.times, li.events):
        times, evs = parts[zlib.crc32(repr(e.get(key)).encode()) % partitions]
        times.append(t)
        evs.append(e)
    rows: list[dict] = []
    for times, evs in parts:
        if not evs:
            continue
        runner = EngineRunner(job)
        runner.feed(times, evs)
        runner.advance(li.end)
        rows.extend(runner.take_rows())
    return rows


# -- Spark ------------------------------------------------------------------------------------
def parquet_time_bounds(path: Any, time_column: str) -> Optional[tuple[int, int, int]]:
    """(first time, last time, rows) of an integer time column from the Parquet footers of
    a file or directory, or None when some row group does not tell (no statistics, nulls
    only, a path pyarrow does not read the way Spark does): one pass over the data then."""
    try:
        import pyarrow.dataset as ds
        dataset = ds.dataset(str(path), format="parquet", partitioning="hive")
        lo = hi = None
        rows = 0
        for frag in dataset.get_fragments():
            md = frag.metadata
            rows += md.num_rows
            for i in range(md.num_row_groups):
                rg = md.row_group(i)
                if rg.num_rows == 0:
                    continue
                col = next((rg.column(j) for j in range(rg.num_columns)
                            if rg.column(j).path_in_schema == time_column), None)
                if col is None:
                    return None
                st = col.statistics
                if st is None or not st.has_min_max or not isinstance(st.min, int):
                    return None
                lo = st.min if lo is None else min(lo, st.min)
                hi = st.max if hi is None else max(hi, st.max)
    except (OSError, ValueError, pa.ArrowException, ImportError):
        return None
    if lo is None:
        return None
    return lo, hi, rows


class PartitionTask:
    """mapInArrow's function: one engine over one partition's sorted record batches."""

    def __init__(self, job: Job, event_columns: Sequence[str], end_time: int,
                 batch_rows: int = 8192) -> None:
        self.job = job
        self.event_columns = list(event_columns)
        self.end_time = end_time
        self.batch_rows = batch_rows

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        runner = None
        for b in batches:
            if b.num_rows == 0:
                continue
            if runner is None:
                runner = EngineRunner(self.job)
            runner.feed(b.column(TIME_COL).to_pylist(), batch_events(b, self.event_columns))
            if runner.pending() >= self.batch_rows:
                yield runner.take_batch()
        if runner is None:   # an empty partition runs no engine and outputs nothing
            return
        runner.advance(self.end_time)
        if runner.pending():
            yield runner.take_batch()
        runner.engine.close()


def load(df_or_path: Any, spark: Any = None, format: Optional[str] = None) -> Any:
    """A DataFrame as is, or one read from a path (format from the extension, else Parquet;
    CSV with a header and inferred types)."""
    from pyspark.sql import DataFrame
    if isinstance(df_or_path, DataFrame):
        return df_or_path
    from .session import active_session
    spark = spark or active_session()
    path = str(df_or_path)
    fmt = format or next((f for ext, f in ((".csv", "csv"), (".json", "json"), (".jsonl", "json"),
                                          (".ndjson", "json"), (".parquet", "parquet"))
                          if path.lower().endswith(ext)), "parquet")
    if fmt == "csv":
        return spark.read.option("header", True).option("inferSchema", True).csv(path)
    return spark.read.format(fmt).load(path)


def time_millis(df: Any, time_column: str) -> Any:
    """A Column with the event time in ms: timestamps and dates converted, numbers as longs."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
    if time_column not in df.columns:
        raise ValueError(f"No time column '{time_column}' among {df.columns}")
    dt = df.schema[time_column].dataType
    col = F.col(time_column)
    if isinstance(dt, (T.TimestampType, T.TimestampNTZType, T.DateType)):
        return F.unix_millis(col.cast("timestamp"))
    if isinstance(dt, T.NumericType):
        return col.cast("long")
    raise ValueError(f"Time column '{time_column}' has type {dt.simpleString()}: expected "
                     f"milliseconds (a number), a timestamp or a date")


@dataclass
class Prepared:
    """A replay set up and not yet run: `output` is the lazy result DataFrame."""

    output: Any
    analysis: Analysis
    job: Job
    start_time: int
    end_time: int
    events: int
    partitions: int
    ordered: Any = None        # the input, partitioned and sorted, before mapInArrow
    task: Optional["PartitionTask"] = None     # what mapInArrow runs on each partition


def prepare_replay(df_or_path: Any, statements: Statements, *, event_type: str,
                   time_column: str, key: str, spark: Any = None,
                   allow_single_partition: bool = False, partitions: Optional[int] = None,
                   start_time: Optional[int] = None, end_time: Optional[int] = None,
                   flush_ms: int = DEFAULT_FLUSH_MS, sequence_column: Optional[str] = None,
                   format: Optional[str] = None, stepping: str = "span") -> Prepared:
    """Everything `replay` does short of running: checks, times, the output plan."""
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.types import from_arrow_schema, to_arrow_schema

    df = load(df_or_path, spark, format)
    spark = df.sparkSession
    if key not in df.columns:
        raise ValueError(f"No key column '{key}' among {df.columns}")
    texts = statement_texts(statements)
    event_columns = list(df.columns)
    df = df.withColumn(TIME_COL, time_millis(df, time_column))
    df = df.withColumn(SEQ_COL, F.col(sequence_column).cast("long") if sequence_column
                       else F.monotonically_increasing_id())
    # the first and last times (the first pins unanchored time batches): from the Parquet
    # footers when they tell, else one pass over the data
    bounds = parquet_time_bounds(df_or_path, time_column) if isinstance(df_or_path, (str, os.PathLike)) \
        and df.schema[time_column].dataType.typeName() in ("long", "integer", "short", "byte") \
        and (format or "parquet") == "parquet" else None
    if bounds is None:
        row = df.agg(F.min(TIME_COL), F.max(TIME_COL), F.count(F.lit(1))).first()
        bounds = (row[0], row[1], row[2])
    first, last, events = bounds
    start = start_time if start_time is not None else (first if first is not None else 0)
    end = end_time if end_time is not None else (last if last is not None else start) + flush_ms
    analysis = analyse(texts, key, start_time=first if first is not None else start)
    single = False
    if not analysis.ok:
        if not allow_single_partition:
            raise ValueError(analysis.refusal(key))
        single = True
    declare = None
    if not declares_type(texts, event_type):
        declare = tuple(declared_properties(to_arrow_schema(df.select(*event_columns).schema, timezone="UTC")).items())
    # an event type declared from the input's schema needs no per-event type check
    job = plan_job(texts if single else analysis.texts, event_type, start, declare, stepping,
                   check_events=declare is None)
    n = 1 if single else (partitions or spark.sparkContext.defaultParallelism)
    ordered = (df.repartition(1) if single else df.repartition(n, F.col(key))) \
        .sortWithinPartitions(TIME_COL, SEQ_COL)
    task = PartitionTask(job, event_columns, end)
    out = ordered.mapInArrow(task, from_arrow_schema(job.schema, prefer_timestamp_ntz=False))
    return Prepared(out, analysis, job, start, end, events, n, ordered, task)


def replay(df_or_path: Any, statements: Statements, *, event_type: str, time_column: str,
           key: str, spark: Any = None, allow_single_partition: bool = False,
           partitions: Optional[int] = None, start_time: Optional[int] = None,
           end_time: Optional[int] = None, flush_ms: int = DEFAULT_FLUSH_MS,
           sequence_column: Optional[str] = None, format: Optional[str] = None,
           stepping: str = "span") -> Any:
    """Run EPL statements over a DataFrame or file on Spark, partitioned by `key`.

    Returns a DataFrame with columns statement, stream ('insert' | 'remove'), time (engine
    time of delivery, ms), seq (row number within the partition, deterministic for a given
    input and partition count) and every statement's selected columns (null where another
    statement's row). Statements that are not partitionable by `key` are refused with the
    reasons (see `check_partitionable`), or run in one partition with
    `allow_single_partition=True`. Events of equal time go in input order, or in
    `sequence_column` order. `time_column` holds ms, a timestamp or a date. Time steps
    through every scheduled instant, as in `run_local` and `epl run`; `stepping="jump"`
    selects Esper's advanceTime."""
    return prepare_replay(df_or_path, statements, event_type=event_type, time_column=time_column,
                          key=key, spark=spark, allow_single_partition=allow_single_partition,
                          partitions=partitions, start_time=start_time, end_time=end_time,
                          flush_ms=flush_ms, sequence_column=sequence_column,
                          format=format, stepping=stepping).output
