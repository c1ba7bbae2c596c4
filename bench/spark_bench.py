"""Spark batch replay beside the single-process engine on the same data (`python -m bench
--only Spark`): keyed events in Parquet, three partitionable statements (a grouped sliding
window, a time batch, a keyed pattern); events per second of `replay` on local[2] and of
one engine in this process; the two outputs must be the same multiset of rows."""
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


def run_local_to_parquet(table: pa.Table, path: str, chunk: int = 50_000) -> tuple[float, int]:
    """One engine over all events (the reference), output written to Parquet as it comes;
    returns (seconds: conversion, engine and writing, as Spark's figure counts them, and
    output rows)."""
    from pipeline.partitioning import statement_texts
    from pipeline.runner import DEFAULT_FLUSH_MS, EngineRunner, plan_job

    times = table.column("ts").to_pylist()
    start, end = times[0], times[-1] + DEFAULT_FLUSH_MS
    runner = EngineRunner(plan_job(statement_texts(MODULE), "T", start, None))
    rows = 0
    writer = pq.ParquetWriter(path, runner.job.schema)
    t0 = time.perf_counter()
    try:
        for off in range(0, table.num_rows, chunk):
            runner.feed(times[off:off + chunk], table.slice(off, chunk).to_pylist())
            batch = runner.take_batch()
            rows += batch.num_rows
            writer.write_batch(batch)
        runner.advance(end)
        batch = runner.take_batch()
        rows += batch.num_rows
        writer.write_batch(batch)
    finally:
        writer.close()
    return time.perf_counter() - t0, rows


def check_million(spark: Any, workdir: str, n: int = 1_000_000) -> dict:
    """Replay n events on Spark and in one engine; raise unless the outputs are equal.
    Returns the figures (events, seconds of each, rows)."""
    from pipeline import replay

    data = os.path.join(workdir, "events.parquet")
    table = make_events(n)
    pq.write_table(table, data)
    local_path = os.path.join(workdir, "local.parquet")
    local_s, local_rows = run_local_to_parquet(table, local_path)
    del table
    out_path = os.path.join(workdir, "spark.parquet")
    # warm up: Python workers start and import the engine on a session's first job
    replay(spark.read.parquet(data).limit(2000), MODULE, event_type="T", time_column="ts",
           key="k", spark=spark).count()
    t0 = time.perf_counter()
    replay(data, MODULE, event_type="T", time_column="ts", key="k", spark=spark) \
        .write.mode("overwrite").parquet(out_path)
    spark_s = time.perf_counter() - t0
    got = spark.read.parquet(out_path).drop("seq")
    want = spark.read.parquet(local_path).drop("seq")
    got_rows = got.count()
    missing = want.exceptAll(got).count()
    extra = got.exceptAll(want).count()
    if got_rows != local_rows or missing or extra:
        raise AssertionError(f"Spark output differs from the local run: {got_rows} rows against "
                             f"{local_rows}, {missing} missing, {extra} extra")
    return {"events": n, "spark_seconds": spark_s, "local_seconds": local_s, "rows": got_rows}


def run(quick: bool = False, master: str = "local[2]") -> list[dict]:
    """The benchmark runner's entry: one row, Spark events/s beside one engine's."""
    from pyspark.sql import SparkSession

    from pipeline import spark_session

    n = 100_000 if quick else 1_000_000
    owned = SparkSession.getActiveSession() is None
    t0 = time.perf_counter()
    spark = spark_session(master, app_name="epl-engine bench",
                          conf={"spark.sql.shuffle.partitions": "2"})
    startup = time.perf_counter() - t0
    try:
        with tempfile.TemporaryDirectory(prefix="epl-spark-bench-") as tmp:
            r = check_million(spark, tmp, n)
    finally:
        if owned:
            spark.stop()
    note = (f"engine = Spark replay incl. read, shuffle, sort, write ({r['spark_seconds']:.1f} s; "
            f"session start {startup:.1f} s and a warm-up job not counted); loop = one engine in-process "
            f"({r['local_seconds']:.1f} s); outputs equal ({r['rows']:,} rows)")
    case = CASE.replace("1,000 keys", "1,000 keys" if not quick else "1,000 keys, quick")
    return [{"workload": "Spark", "case": case, "events": n,
             "engine_eps": n / r["spark_seconds"], "loop_eps": n / r["local_seconds"], "note": note}]


def main(argv: Optional[list[str]] = None) -> int:
    import argparse
    p = argparse.ArgumentParser(prog="python -m bench.spark_bench")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--master", default="local[2]")
    args = p.parse_args(argv)
    for row in run(args.quick, args.master):
        print(f"{row['case']}: {row['events']:,} events; Spark {row['engine_eps']:,.0f} events/s, "
              f"one engine {row['loop_eps']:,.0f} events/s\n  {row['note']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
