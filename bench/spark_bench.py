"""Spark batch replay beside the single-process engine on the same data (`python -m bench
--only Spark`): keyed events in Parquet, three partitionable statements (a grouped sliding
window, a time batch, a keyed pattern). Rows: events per second of `replay` on local[2]
with Spark writing the output, and of `replay_to_parquet` (the workers write it), each
beside one engine in this process (wall clock: the ratio is the speed-up, target >= 1.5);
and events per CPU second of the replay's Python workers beside the one engine's (the
ratio is 1 / CPU per event relative to in-process, target CPU ratio <= 1.3). Every output
must be the same multiset of rows as the one engine's."""
from __future__ import annotations

import os
import random
import tempfile
import time
from typing import Any, Optional

import pyarrow as pa
import pyarrow.parquet as pq

MODULE = """
create schema T(k string, v int, ts long, n long);
@name('gw') select irstream k, sum(v) as total, count(*) as c from T#groupwin(k)#length(3) group by k;
@name('tb') select irstream k, sum(v) as total from T#time_batch(1 sec) group by k;
@name('pat') select a.k as k, a.v as av, b.v as bv from pattern
  [every a=T(v > 90) -> b=T(k = a.k and v < 10) where timer:within(2 sec)]
"""
CASE = "replay local[2] (groupwin+time_batch+pattern), 1,000 keys"
DIRECT_CASE = "replay_to_parquet local[2] (workers write Parquet), 1,000 keys"
CPU_CASE = "replay CPU per event: events per CPU-s (workers), 1,000 keys"


def make_events(n: int, keys: int = 1000, seed: int = 11) -> pa.Table:
    """k among `keys` keys, v in [0, 100), ts rising by 0-3 ms, n the position."""
    rng = random.Random(seed)
    pick = rng.randrange
    names = [f"k{i}" for i in range(keys)]
    ts, t = [], 1_700_000_000_000
    for _ in range(n):
        t += pick(4)
        ts.append(t)
    return pa.table({"k": [names[pick(keys)] for _ in range(n)],
                     "v": pa.array([pick(100) for _ in range(n)], pa.int32()),
                     "ts": pa.array(ts, pa.int64()), "n": pa.array(range(n), pa.int64())})


def run_local_to_parquet(table: pa.Table, path: str, chunk: int = 10_000) -> tuple[float, int, float]:
    """One engine over all events (the reference), output written to Parquet as it comes;
    returns (seconds: conversion, engine and writing, as Spark's figure counts them; output
    rows; CPU seconds of the same)."""
    from pipeline.arrow import batch_events
    from pipeline.partitioning import statement_texts
    from pipeline.runner import DEFAULT_FLUSH_MS, EngineRunner, plan_job

    times = table.column("ts").to_pylist()
    start, end = times[0], times[-1] + DEFAULT_FLUSH_MS
    runner = EngineRunner(plan_job(statement_texts(MODULE), "T", start, None))
    rows = 0
    writer = pq.ParquetWriter(path, runner.job.schema)
    names = table.schema.names
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        # the workers' steps: Arrow batches in, the engine, Arrow batches out
        for off, b in zip(range(0, table.num_rows, chunk), table.to_batches(max_chunksize=chunk)):
            runner.feed(times[off:off + b.num_rows], batch_events(b, names))
            batch = runner.take_batch()
            rows += batch.num_rows
            writer.write_batch(batch)
        runner.advance(end)
        batch = runner.take_batch()
        rows += batch.num_rows
        writer.write_batch(batch)
    finally:
        writer.close()
    return time.perf_counter() - t0, rows, time.process_time() - c0


def _cpu_seconds(pid: int) -> tuple[float, float]:
    """(CPU seconds of process `pid`, of all its descendants, exited ones included), from
    /proc; (nan, nan) where there is no /proc."""
    try:
        tick = os.sysconf("SC_CLK_TCK")
        procs = {}
        for d in os.listdir("/proc"):
            if d.isdigit():
                try:
                    with open(f"/proc/{d}/stat") as f:
                        st = f.read()
                except OSError:
                    continue
                parts = st[st.rindex(")") + 2:].split()
                procs[int(d)] = (int(parts[1]), int(parts[11]) + int(parts[12]),
                                 int(parts[13]) + int(parts[14]))
        kids: dict[int, list[int]] = {}
        for p, (pp, _, _) in procs.items():
            kids.setdefault(pp, []).append(p)
        desc, stack = procs[pid][2], list(kids.get(pid, ()))
        while stack:
            p = stack.pop()
            desc += procs[p][1] + procs[p][2]
            stack.extend(kids.get(p, ()))
        return procs[pid][1] / tick, desc / tick
    except (OSError, KeyError, ValueError):
        return float("nan"), float("nan")


def _sorted_rows(path: str) -> pa.Table:
    """An output's rows without seq (numbered per partition), sorted by every column: a
    multiset that compares with `equals` (pyarrow: seconds, where Spark's exceptAll took
    minutes on a loaded machine)."""
    t = pq.read_table(path).drop_columns(["seq"])
    return t.sort_by([(n, "ascending") for n in t.column_names]).combine_chunks()


def _same(got_path: str, want: pa.Table, what: str) -> int:
    got = _sorted_rows(got_path)
    same = got.num_rows == want.num_rows and got.column_names == want.column_names and all(
        got.column(n).equals(want.column(n).cast(got.schema.field(n).type)) for n in got.column_names)
    if not same:
        raise AssertionError(f"{what} output differs from the local run: {got.num_rows} rows "
                             f"against {want.num_rows}")
    return got.num_rows


def check_million(spark: Any, workdir: str, n: int = 1_000_000) -> dict:
    """Replay n events on Spark (written by Spark, and written by the workers) and in one
    engine; raise unless the outputs are equal. Returns the figures: events, seconds of
    each, CPU seconds (local; the replay's Python workers and JVM), rows."""
    from pipeline import replay
    from pipeline.parquet_out import replay_to_parquet

    data = os.path.join(workdir, "events.parquet")
    table = make_events(n)
    # row groups of 100k rows: Spark reads the file in parallel (one row group is one split)
    pq.write_table(table, data, row_group_size=100_000)
    local_path = os.path.join(workdir, "local.parquet")
    local_s, local_rows, local_cpu = run_local_to_parquet(table, local_path)
    jvm = spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid()
    # warm up: Python workers start and import the engine on a session's first job
    replay(spark.read.parquet(data).limit(2000), MODULE, event_type="T", time_column="ts",
           key="k", spark=spark).count()
    out_path = os.path.join(workdir, "spark.parquet")
    j0, w0 = _cpu_seconds(jvm)
    t0 = time.perf_counter()
    replay(data, MODULE, event_type="T", time_column="ts", key="k", spark=spark) \
        .write.mode("overwrite").parquet(out_path)
    spark_s = time.perf_counter() - t0
    j1, w1 = _cpu_seconds(jvm)
    direct_path = os.path.join(workdir, "direct")
    t0 = time.perf_counter()
    written = replay_to_parquet(data, MODULE, direct_path, event_type="T", time_column="ts",
                                key="k", spark=spark)
    direct_s = time.perf_counter() - t0
    j2, w2 = _cpu_seconds(jvm)
    # the one engine again, after the Spark runs: the machine's load changes meanwhile (it
    # is shared), so the one-engine figure is the mean of a run before and one after
    again_s, _, again_cpu = run_local_to_parquet(table, os.path.join(workdir, "again.parquet"))
    del table
    want = _sorted_rows(local_path)
    if want.num_rows != local_rows:
        raise AssertionError("the local output lost rows on the way to Parquet")
    rows = _same(out_path, want, "Spark")
    _same(direct_path, want, "replay_to_parquet")
    local_s, local_cpu = (local_s + again_s) / 2, (local_cpu + again_cpu) / 2
    return {"events": n, "spark_seconds": spark_s, "local_seconds": local_s, "rows": rows,
            "direct_seconds": direct_s, "local_cpu": local_cpu,
            "spark_worker_cpu": w1 - w0, "spark_jvm_cpu": j1 - j0,
            "direct_worker_cpu": written.worker_cpu_seconds, "direct_worker_cpu_proc": w2 - w1,
            "direct_jvm_cpu": j2 - j1}


def run(quick: bool = False, master: str = "local[2]") -> list[dict]:
    """The benchmark runner's entry: Spark events/s beside one engine's (wall clock: the
    speed-up of `master` over one process, Spark writing the output and the workers writing
    it), and the replay's CPU per event beside one engine's."""
    from pyspark.sql import SparkSession

    from pipeline import spark_session

    n = 100_000 if quick else 1_000_000
    owned = SparkSession.getActiveSession() is None
    t0 = time.perf_counter()
    spark = spark_session(master, app_name="epl-engine bench",
                          conf={"spark.sql.shuffle.partitions": "2"})
    startup = time.perf_counter() - t0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    try:
        with tempfile.TemporaryDirectory(prefix="epl-spark-bench-") as tmp:
            r = check_million(spark, tmp, n)
    finally:
        if owned:
            spark.stop()
    keys = "1,000 keys" if not quick else "1,000 keys, quick"
    local = f"one engine in-process {r['local_seconds']:.1f} s"
    note = (f"engine = Spark replay incl. read, shuffle, sort, write ({r['spark_seconds']:.1f} s; "
            f"session start {startup:.1f} s and a warm-up job not counted); loop = {local}; "
            f"outputs equal ({r['rows']:,} rows); load {load:.1f} at start")
    direct_note = (f"engine = replay_to_parquet: workers write the Parquet files "
                   f"({r['direct_seconds']:.1f} s); loop = {local}; target engine/loop >= 1.5; "
                   f"outputs equal")
    cpu_ratio = r["direct_worker_cpu"] / r["local_cpu"]
    with_jvm = (r["direct_worker_cpu"] + r["direct_jvm_cpu"]) / r["local_cpu"]
    cpu_note = (f"CPU per event, replay / in-process = {cpu_ratio:.2f} (target <= 1.3): Python workers "
                f"{r['direct_worker_cpu']:.1f} CPU-s (process_time in the tasks) against one engine "
                f"{r['local_cpu']:.1f} CPU-s; with the JVM ({r['direct_jvm_cpu']:.1f} CPU-s) "
                f"{with_jvm:.2f}; Spark writing the output: workers {r['spark_worker_cpu']:.1f} + JVM "
                f"{r['spark_jvm_cpu']:.1f} CPU-s")
    return [{"workload": "Spark", "case": CASE.replace("1,000 keys", keys), "events": n,
             "engine_eps": n / r["spark_seconds"], "loop_eps": n / r["local_seconds"], "note": note},
            {"workload": "Spark", "case": DIRECT_CASE.replace("1,000 keys", keys), "events": n,
             "engine_eps": n / r["direct_seconds"], "loop_eps": n / r["local_seconds"],
             "note": direct_note},
            {"workload": "Spark", "case": CPU_CASE.replace("1,000 keys", keys), "events": n,
             "engine_eps": n / r["direct_worker_cpu"], "loop_eps": n / r["local_cpu"],
             "note": cpu_note}]


def main(argv: Optional[list[str]] = None) -> int:
    import argparse
    p = argparse.ArgumentParser(prog="python -m bench.spark_bench")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--master", default="local[2]")
    args = p.parse_args(argv)
    for row in run(args.quick, args.master):
        print(f"{row['case']}: {row['events']:,} events; Spark {row['engine_eps']:,.0f} events/s, "
              f"one engine {row['loop_eps']:,.0f} events/s, ratio "
              f"{row['engine_eps'] / row['loop_eps']:.3f}\n  {row['note']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
