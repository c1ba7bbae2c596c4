"""Replay output written to Parquet by the Spark workers themselves: each partition's engine
writes its record batches to a file of its own with pyarrow, and only one summary row per
partition goes back through Spark (the JVM neither converts nor writes the output rows).

Files: `<path>/part-<partition>.parquet`, written under a temporary name and renamed when
the partition is done, so a retried or speculative task leaves one whole file (replay is
deterministic: every attempt writes the same rows). `path` is a local directory or any
URI pyarrow.fs opens (s3://, hdfs://, gs://, file://) that every worker can reach."""
from __future__ import annotations

import time
import uuid
from typing import Any, Iterator, Optional

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from engine.contracts.frozen import frozen_dataclass
from .replay import PartitionTask, Prepared, Statements, prepare_replay
from .runner import DEFAULT_FLUSH_MS

# one row per partition: what the driver gets back
SUMMARY = pa.schema([
    pa.field("partition", pa.int32()), pa.field("file", pa.string()),
    pa.field("events", pa.int64()), pa.field("rows", pa.int64()),
    pa.field("cpu_seconds", pa.float64()),
])


@frozen_dataclass
class Written:
    """What `replay_to_parquet` wrote: the directory, its files, the counts, the seconds of
    CPU the partitions' Python workers spent (conversion, engine, writing)."""

    path: str
    files: tuple[str, ...]
    events: int
    rows: int
    partitions: int
    worker_cpu_seconds: float


def _filesystem(path: str) -> tuple[pafs.FileSystem, str]:
    return pafs.FileSystem.from_uri(path) if "://" in path else (pafs.LocalFileSystem(), path)


class ParquetPartitionTask:
    """mapInArrow's function: PartitionTask's engine, its batches written to one file."""

    def __init__(self, task: PartitionTask, path: str) -> None:
        self.task = task
        self.path = path

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyspark import TaskContext

        cpu0 = time.process_time()
        ctx = TaskContext.get()
        part = ctx.partitionId() if ctx is not None else 0
        fs, root = _filesystem(self.path)
        name = f"part-{part:05d}.parquet"
        tmp = f"{root}/.{name}.{uuid.uuid4().hex}.tmp"
        events = rows = 0
        writer: Optional[pq.ParquetWriter] = None
        task = self.task

        def counted() -> Iterator[pa.RecordBatch]:
            nonlocal events
            for b in batches:
                events += b.num_rows
                yield b
        try:
            for out in task(counted()):
                if writer is None:
                    writer = pq.ParquetWriter(tmp, task.job.schema, filesystem=fs)
                writer.write_batch(out)
                rows += out.num_rows
            if writer is not None:
                writer.close()
                writer = None
                fs.move(tmp, f"{root}/{name}")
        except BaseException:
            if writer is not None:
                writer.close()
            try:
                fs.delete_file(tmp)
            except OSError:
                pass
            raise
        file = name if rows else ""
        yield pa.RecordBatch.from_pylist(
            [{"partition": part, "file": file, "events": events, "rows": rows,
              "cpu_seconds": time.process_time() - cpu0}], schema=SUMMARY)


def replay_to_parquet(df_or_path: Any, statements: Statements, path: str, *, event_type: str,
                      time_column: str, key: str, spark: Any = None, mode: str = "error",
                      allow_single_partition: bool = False, partitions: Optional[int] = None,
                      start_time: Optional[int] = None, end_time: Optional[int] = None,
                      flush_ms: int = DEFAULT_FLUSH_MS, sequence_column: Optional[str] = None,
                      format: Optional[str] = None, stepping: str = "span") -> Written:
    """`replay`, its output rows written to Parquet files under `path` by the workers (one
    file per partition that has rows; one empty file when no partition has any). The same
    rows as `replay(...).write.parquet(path)`, without the JVM converting and writing each
    row. `mode`: "error" (the default) refuses a directory that holds files, "overwrite"
    deletes them first. The other arguments are `replay`'s."""
    _prepare_directory(str(path), mode)
    prepared = prepare_replay(df_or_path, statements, event_type=event_type,
                              time_column=time_column, key=key, spark=spark,
                              allow_single_partition=allow_single_partition,
                              partitions=partitions, start_time=start_time, end_time=end_time,
                              flush_ms=flush_ms, sequence_column=sequence_column, format=format,
                              stepping=stepping)
    return write_prepared(prepared, str(path))


def _prepare_directory(path: str, mode: str) -> None:
    if mode not in ("error", "overwrite"):
        raise ValueError(f"mode must be 'error' or 'overwrite', not {mode!r}")
    fs, root = _filesystem(path)
    info = fs.get_file_info(root)
    if info.type == pafs.FileType.File:
        raise ValueError(f"'{path}' is a file: replay_to_parquet writes a directory")
    if info.type == pafs.FileType.Directory:
        if fs.get_file_info(pafs.FileSelector(root)):
            if mode == "error":
                raise ValueError(f"'{path}' is not empty (mode='overwrite' replaces its files)")
            fs.delete_dir_contents(root)
    else:
        fs.create_dir(root)


def write_prepared(prepared: Prepared, path: str, mode: Optional[str] = None) -> Written:
    """Run a prepared replay (prepare_replay), the workers writing its rows under `path`
    (with `mode`, the directory is checked or emptied first, as in replay_to_parquet)."""
    from pyspark.sql.pandas.types import from_arrow_schema

    if mode is not None:
        _prepare_directory(path, mode)
    fs, root = _filesystem(path)
    task = ParquetPartitionTask(prepared.task, path)
    summary = prepared.ordered.mapInArrow(task, from_arrow_schema(SUMMARY)).collect()
    files = tuple(sorted(r["file"] for r in summary if r["file"]))
    if not files:    # a readable (empty) dataset all the same
        pq.write_table(prepared.job.schema.empty_table(), f"{root}/part-00000.parquet", filesystem=fs)
        files = ("part-00000.parquet",)
    return Written(path, files, sum(r["events"] for r in summary), sum(r["rows"] for r in summary),
                   prepared.partitions, sum(r["cpu_seconds"] for r in summary))
