"""`python -m bench` (`make bench`): every workload, engine beside a hand-written loop.

Prints events per second of the engine and of the loop and their ratio, medians of
`--repeat` runs; `--quick` uses small sizes; `--only W1,W5` picks workloads; `--save FILE`
keeps the figures as a baseline, `--compare FILE` prints the ratios against one and flags a
row more than 10% slower (exit status 1 when one is)."""
from __future__ import annotations

import argparse
import importlib
import sys
import time
from typing import Any, Callable

from . import (baseline, memory, w1_filter, w2_window, w3_time_batch, w4_pattern, w5_statements,
               w6_context, w7_rowrecog, w8_enum, w9_time_window, w10_subquery, w11_join)
from .harness import Row, format_rows, not_supported

WORKLOADS: dict[str, Callable[[bool, int], list[Row]]] = {
    "W1": w1_filter.run,
    "W2": w2_window.run,
    "W3": w3_time_batch.run,
    "W4": w4_pattern.run,
    "W5": w5_statements.run,
    "W6": w6_context.run,
    "W7": w7_rowrecog.run,
    "W8": w8_enum.run,
    "W9": w9_time_window.run,
    "W10": w10_subquery.run,
    "W11": w11_join.run,
    "MEM": memory.run,
}
SPARK = "Spark"


def spark_rows(quick: bool) -> list[Row]:
    """Rows of bench/spark_bench.py's `run(quick)` when it exists (owned by the Spark work);
    "not supported" without it or without pyspark."""
    try:
        spark_bench = importlib.import_module("bench.spark_bench")
    except ModuleNotFoundError as exc:
        if exc.name not in ("bench.spark_bench", "pyspark", "pyarrow"):
            raise
        return [not_supported("Spark", "partitioned replay", f"{exc.name} missing")]
    run = getattr(spark_bench, "run", None)
    if run is None:
        return [not_supported("Spark", "partitioned replay", "bench.spark_bench has no run()")]
    try:
        rows = run(quick)
    except ModuleNotFoundError as exc:
        if exc.name != "pyspark":
            raise
        return [not_supported("Spark", "partitioned replay", "pyspark not installed")]
    return [_as_row(r) for r in rows]


def _as_row(r: Any) -> Row:
    if isinstance(r, Row):
        return r
    if isinstance(r, dict):
        return Row(str(r.get("workload", "Spark")), str(r.get("case", "")), int(r.get("events", 0) or 0),
                   r.get("engine_eps"), r.get("loop_eps"), str(r.get("note", "")))
    return Row("Spark", str(r), 0, None, None, "")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes")
    p.add_argument("--repeat", type=int, default=3, help="runs per figure (median), default 3")
    p.add_argument("--only", default="", help="comma-separated workloads, e.g. W1,W5,Spark")
    p.add_argument("--save", metavar="FILE", help="write the figures to FILE (JSON) as a baseline")
    p.add_argument("--compare", metavar="FILE", help="print the ratios against the baseline FILE")
    args = p.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()] or [*WORKLOADS, SPARK]
    unknown = [n for n in names if n not in WORKLOADS and n != SPARK]
    if unknown:
        p.error(f"unknown workload(s) {', '.join(unknown)}; choose from {', '.join([*WORKLOADS, SPARK])}")
    rows: list[Row] = []
    started = time.perf_counter()
    for name in names:
        t0 = time.perf_counter()
        try:
            got = spark_rows(args.quick) if name == SPARK else WORKLOADS[name](args.quick, args.repeat)
        except Exception as exc:  # one broken workload must not hide the others' figures
            got = [Row(name, "", 0, None, None, f"FAILED: {type(exc).__name__}: {exc}")]
        rows.extend(got)
        print(f"[{name} done in {time.perf_counter() - t0:.1f} s]", file=sys.stderr, flush=True)
    print(format_rows(rows))
    from .cold_start import line as cold_start_line
    print("\n" + cold_start_line(3 if args.quick else 5))
    print(f"\nmedian of {args.repeat} run(s) per figure; {'quick' if args.quick else 'full'} sizes; "
          f"total {time.perf_counter() - started:.0f} s")
    worse = 0
    if args.compare:
        text, worse = baseline.compare(rows, args.compare)
        print(f"\nagainst {args.compare} (engine/loop ratios; a row more than 10% slower is flagged):")
        print(text)
    if args.save:
        baseline.save(rows, args.save)
        print(f"\nsaved to {args.save}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
