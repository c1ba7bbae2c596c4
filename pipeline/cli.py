"""`epl spark STATEMENTS.epl DATA --type T --time-column ts --key k [--master URL] [--out P]`:
batch replay on Spark from the command line, with our own progress line (Spark's is off).

Before Spark starts: the statements are compiled (errors as FILE:LINE:COL), the input is
checked against the declared event type (the first bad row named as FILE:LINE or FILE: row
N, with its column and value), and pyspark and a Java runtime must be there (else a hint
how to install them); all of these exit with status 2."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import threading
import time as _time
from typing import Any


def add_spark_command(subparsers: Any, parent: Any = None) -> argparse.ArgumentParser:
    """Add `spark` to an argparse command's subparsers (`parent`: options every command has)."""
    p = subparsers.add_parser(
        "spark", parents=[parent] if parent is not None else [], help="replay statements over a Parquet/CSV/JSON file on Spark, partitioned by a key",
        description=DESCRIPTION)
    return _add_arguments(p)


DESCRIPTION = ("Run EPL statements over a data file on Spark, one engine per partition of the key, "
               "on application time taken from the data.")


def spark_main(argv: Any, debug: bool = False) -> int:
    """`epl spark ARGS` (the `epl` command hands its arguments over)."""
    p = argparse.ArgumentParser(prog="epl spark", description=DESCRIPTION)
    p.add_argument("--debug", action="store_true", help="print Python tracebacks for errors")
    args = _add_arguments(p).parse_args(list(argv))
    args.debug = args.debug or debug
    return args.func(args)


def _add_arguments(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.add_argument("statements", help="EPL module file (statements separated by ';')")
    p.add_argument("data", help="input file or directory (Parquet, CSV with header, JSON lines)")
    p.add_argument("--type", required=True, dest="event_type", help="event type of every row")
    p.add_argument("--time-column", required=True, help="column with the event time (ms, timestamp or date)")
    p.add_argument("--key", required=True, help="column to partition by")
    p.add_argument("--master", default="local[*]", help="Spark master URL (default local[*])")
    p.add_argument("--out", default=None, help="write the output here as Parquet (default: rows on stdout)")
    p.add_argument("--output-format", choices=("jsonl", "csv", "table"), default="jsonl",
                   help="rows on stdout as JSON lines (default), CSV or a table")
    p.add_argument("--format", default=None, choices=["parquet", "csv", "json"], help="input format (default: from the extension)")
    p.add_argument("--partitions", type=int, default=None, help="number of partitions (default: Spark's parallelism)")
    p.add_argument("--allow-single-partition", action="store_true",
                   help="run statements that are not partitionable in one partition instead of refusing them")
    p.add_argument("--start-time", type=int, default=None, help="engine start time (default: the first event's)")
    p.add_argument("--end-time", type=int, default=None, help="advance to this after the last event (default: last event + flush)")
    p.add_argument("--sequence-column", default=None, help="column ordering events of equal time (default: input order)")
    p.add_argument("--check", action="store_true", help="only print which statements are partitionable, and why")
    p.add_argument("--check-input", action=argparse.BooleanOptionalAction, default=True,
                   help="check every row against the declared event type before starting Spark (default: on)")
    p.add_argument("--stepping", choices=("span", "jump"), default="span",
                   help="span: every scheduled instant fires at its own time (default, as epl run); "
                        "jump: Esper's advanceTime")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress line on stderr (default: when stderr is a terminal)")
    p.set_defaults(func=run_spark_command)
    return p


class _Progress:
    """A line on stderr with Spark's task counts and the time elapsed, from its status tracker."""

    def __init__(self, sc: Any, enabled: bool, interval: float = 0.5) -> None:
        self.sc = sc
        self.enabled = enabled
        self.interval = interval
        self.start = _time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="epl-spark-progress", daemon=True)

    def __enter__(self) -> "_Progress":
        if self.enabled:
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        if self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()

    def _line(self) -> str:
        tracker = self.sc.statusTracker()
        done = total = active = 0
        for sid in tracker.getActiveStageIds():
            info = tracker.getStageInfo(sid)
            if info is not None:
                done += info.numCompletedTasks
                total += info.numTasks
                active += info.numActiveTasks
        elapsed = _time.monotonic() - self.start
        if total and done:
            eta = elapsed * (total - done) / done
            return (f"\r\033[K[spark] {done / total:4.0%} {done}/{total} tasks, {active} running, "
                    f"{done / max(elapsed, 1e-9):,.1f} tasks/s, {elapsed:,.1f} s, ETA {eta:,.0f} s")
        return f"\r\033[K[spark] {done}/{total} tasks done, {active} running, {elapsed:,.1f} s"

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                sys.stderr.write(self._line())
                sys.stderr.flush()
            except Exception:  # the tracker may be gone while the session stops
                return


JAVA_HINT = ("Spark needs a Java runtime (17 or newer) and none was found: run `make java`, or "
             "`apt-get install openjdk-17-jre-headless` (as root), or set JAVA_HOME")
PYSPARK_HINT = "epl spark needs the 'spark' extra: pip install 'epl-engine[spark]'"


def java_available() -> bool:
    home = os.environ.get("JAVA_HOME")
    if home and os.path.exists(os.path.join(home, "bin", "java")):
        return True
    return shutil.which("java") is not None


def _preflight(args: argparse.Namespace) -> str:
    """Everything that can be checked without Spark; returns the module text."""
    from engine.engine import Engine
    from engine.cli_input import InputError, deploy_file, read_text

    module = read_text(args.statements)
    engine = Engine(time="simulated")
    try:
        deploy_file(engine, args.statements)
        event_type = engine.types.find(args.event_type)
    finally:
        engine.close()
    if args.check:
        return module
    if args.check_input:
        from .input_check import BadInput, check_input
        try:
            check_input(args.data, event_type, args.time_column, args.key, args.format)
        except BadInput as e:
            raise InputError(str(e)) from None
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise InputError(PYSPARK_HINT) from None
    if not java_available():
        raise InputError(f"epl spark: {JAVA_HINT}")
    return module


def _write_rows(df: Any, fmt: str) -> int:
    """The output rows on stdout, in the chosen format; returns how many."""
    import csv

    from engine.cli_output import write_table
    columns = list(df.columns)
    n = 0
    held: list[list[Any]] = []
    writer = csv.writer(sys.stdout, lineterminator="\n") if fmt == "csv" else None
    if writer is not None:
        writer.writerow(columns)
    for r in df.toLocalIterator():
        d = r.asDict(recursive=True)
        if fmt == "jsonl":
            sys.stdout.write(json.dumps(d, default=str) + "\n")
        elif writer is not None:
            writer.writerow(["" if d[c] is None else d[c] for c in columns])
        else:
            held.append([d[c] for c in columns])
        n += 1
    if fmt == "table":
        write_table(sys.stdout, columns, held)
    return n


def run_spark_command(args: argparse.Namespace) -> int:
    from .partitioning import check_partitionable

    module = _preflight(args)
    if args.check:
        verdicts = check_partitionable(module, args.key)
        for v in verdicts:
            print(f"{'ok ' if v.ok else 'NO '} {v.statement}: {v.reason}")
        return 0 if all(v.ok for v in verdicts) else 1
    from .replay import prepare_replay
    from .session import spark_session

    from pyspark.sql import SparkSession

    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    owned = SparkSession.getActiveSession() is None   # a caller's session is left running
    try:
        spark = spark_session(args.master, app_name="epl spark")
    except Exception as e:
        if "JAVA_GATEWAY_EXITED" in str(e) or "Java gateway" in str(e):
            from engine.cli_input import InputError
            raise InputError(f"epl spark: the Java gateway did not start. {JAVA_HINT}") from None
        raise
    started = _time.monotonic()                       # the rate leaves out the session start
    try:
        with _Progress(spark.sparkContext, progress):
            try:
                prepared = prepare_replay(
                    args.data, module, event_type=args.event_type, time_column=args.time_column,
                    key=args.key, spark=spark, allow_single_partition=args.allow_single_partition,
                    partitions=args.partitions, start_time=args.start_time, end_time=args.end_time,
                    sequence_column=args.sequence_column, format=args.format,
                    stepping=args.stepping)
            except ValueError as e:
                print(f"epl spark: {e}".replace("allow_single_partition=True", "--allow-single-partition"), file=sys.stderr)
                return 2
            out = prepared.output
            if args.out:   # the workers write the Parquet files (pipeline.parquet_out)
                from .parquet_out import write_prepared
                try:
                    rows = write_prepared(prepared, args.out, mode="overwrite").rows
                except ValueError as e:      # --out names a file, not a directory
                    print(f"epl spark: {e}", file=sys.stderr)
                    return 2
            else:
                rows = _write_rows(out.orderBy("time", "statement", "seq"), args.output_format)
        seconds = _time.monotonic() - started
        rate = prepared.events / max(seconds, 1e-9)
        where = f" -> {args.out}" if args.out else ""
        print(f"{prepared.events:,} events, {rows:,} rows{where}; {prepared.partitions} partitions, "
              f"{seconds:,.1f} s, {rate:,.0f} events/s", file=sys.stderr)
    finally:
        if owned:
            spark.stop()
    return 0

