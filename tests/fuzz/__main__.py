"""The long fuzz run (`make fuzz`): `python -m tests.fuzz [--count N] [--seed S]` draws N texts
(half from the grammar, half mutated conformance statements), runs each, and prints the counts
(compiled, ran, rejected with EPL errors, crashes) and the first crashes with their traces.
Exit status 1 when anything crashed."""
from __future__ import annotations

import argparse
import logging
import random
import resource
import signal
import sys
import time

from .harness import Counts, Outcome, run_generated, run_mutated

TEXT_SECONDS = 20            # a text running longer than this counts as a crash (a stall)
MEMORY_BYTES = 4 * 1024 ** 3  # and one that needs more memory (MemoryError) as well


class _Stalled(BaseException):
    """Raised by the alarm: not an Exception, so nothing in the engine swallows it."""


def _alarm(signum, frame):
    raise _Stalled()


def _run_one(i: int, seed: int):
    r = random.Random(seed * 1_000_003 + i)
    signal.alarm(TEXT_SECONDS)
    try:
        return run_generated(r) if i % 2 == 0 else run_mutated(r)
    except _Stalled:
        return Outcome("crash", f"text #{i} of seed {seed}", "stall", None,
                       f"ran longer than {TEXT_SECONDS} s")
    except MemoryError as exc:
        return Outcome("crash", f"text #{i} of seed {seed}", "memory", exc, "MemoryError")
    finally:
        signal.alarm(0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz")
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=10, help="crashes to print in full")
    args = ap.parse_args(argv)
    logging.disable(logging.CRITICAL)      # isolated faults log; the counts say enough
    signal.signal(signal.SIGALRM, _alarm)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    counts = Counts()
    started = time.perf_counter()
    for i in range(args.count):
        counts.add(_run_one(i, args.seed))
        if (i + 1) % 5000 == 0:
            print(f"{i + 1} texts: compiled {counts.compiled}, rejected {counts.rejected}, "
                  f"crashes {counts.crashes} ({time.perf_counter() - started:.0f} s)", flush=True)
    print(f"texts {args.count}: compiled {counts.compiled}, ran {counts.ran}, "
          f"rejected with EPL errors {counts.rejected}, crashes {counts.crashes} "
          f"({time.perf_counter() - started:.0f} s)")
    seen = set()
    shown = 0
    for o in counts.examples:
        key = (type(o.error).__name__, o.trace.strip().splitlines()[-3] if o.trace else "")
        if key in seen or shown >= args.show:
            continue
        seen.add(key)
        shown += 1
        print(f"\n--- crash at {o.where}: {o.text!r}\n{o.trace}")
    return 1 if counts.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
