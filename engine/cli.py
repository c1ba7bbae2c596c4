"""The `epl` command: `epl replay CASE.json [--check]`, `epl run STATEMENTS.epl EVENTS.jsonl`."""
from __future__ import annotations

import argparse
import json
import sys
import time as _time
from typing import Any, Optional, Sequence


def _cmd_replay(args: argparse.Namespace) -> int:
    from .replay import diff_calls, format_calls, replay_case
    status = 0
    for path in args.cases:
        with open(path) as f:
            case = json.load(f)
        try:
            calls = replay_case(case)
        except Exception as e:  # a case that cannot run is a failed case, not a crash
            print(f"{path}: error: {type(e).__name__}: {e}", file=sys.stderr)
            status = 1
            continue
        if args.check:
            diffs = diff_calls(calls, case.get("expected", []))
            if diffs:
                status = 1
                print(f"{path}: MISMATCH ({case.get('name', '')})")
                print("\n".join(diffs))
            else:
                print(f"{path}: ok ({len(calls)} calls)")
        else:
            out = format_calls(calls)
            if out:
                print(out)
    return status


class _Progress:
    """A progress line on stderr for long files (events read, events/s)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = _time.monotonic()
        self.last = 0.0

    def update(self, n: int, final: bool = False) -> None:
        if not self.enabled:
            return
        now = _time.monotonic()
        if final or now - self.last >= 0.5:
            self.last = now
            rate = n / max(now - self.start, 1e-9)
            sys.stderr.write(f"\r{n:,} events, {rate:,.0f} events/s")
            if final:
                sys.stderr.write("\n")
            sys.stderr.flush()


def _cmd_run(args: argparse.Namespace) -> int:
    from .engine import Engine
    from .replay import _row
    engine = Engine(time="simulated", start_time=args.start_time)
    with open(args.statements) as f:
        statements = engine.deploy(f.read())
    out = sys.stdout

    def attach(stmt: Any) -> None:
        def listener(new: Any, old: Any) -> None:
            out.write(json.dumps({"time": engine.now, "statement": stmt.name,
                                  "new": [_row(b) for b in new] if new else None,
                                  "old": [_row(b) for b in old] if old else None}) + "\n")
        stmt.add_listener(listener)
    for s in statements:
        if s.kind == "select":
            attach(s)
    progress = _Progress(args.progress if args.progress is not None else sys.stderr.isatty())
    n = 0
    with open(args.events) as f:
        for line_no, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            event = json.loads(line)
            type_name = args.type or event.pop(args.type_field, None)
            if type_name is None:
                print(f"{args.events}:{line_no}: no event type (use --type or a '{args.type_field}' field)", file=sys.stderr)
                return 2
            if args.time_field:
                t = event.get(args.time_field)
                if t is None:
                    print(f"{args.events}:{line_no}: missing time field '{args.time_field}'", file=sys.stderr)
                    return 2
                if t > engine.now:
                    engine.advance_time(int(t))
            engine.send(event, type_name)
            n += 1
            if n % 1000 == 0:
                progress.update(n)
    if args.end_time is not None and args.end_time > engine.now:
        engine.advance_time(args.end_time)
    progress.update(n, final=True)
    engine.close()
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="epl", description="epl-engine command line")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("replay", help="replay conformance cases and print the listener calls")
    r.add_argument("cases", nargs="+", help="case JSON files")
    r.add_argument("--check", action="store_true", help="compare with the case's expected output")
    r.set_defaults(func=_cmd_replay)
    run = sub.add_parser("run", help="run statements over a JSON-lines event file on simulated time")
    run.add_argument("statements", help="EPL module file (statements separated by ';')")
    run.add_argument("events", help="JSON lines, one event per line")
    run.add_argument("--time-field", default=None, help="event field holding the event time (ms)")
    run.add_argument("--type-field", default="type", help="event field naming the event type")
    run.add_argument("--type", default=None, help="event type of every line")
    run.add_argument("--start-time", type=int, default=0)
    run.add_argument("--end-time", type=int, default=None, help="advance time to this after the last event")
    run.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    run.set_defaults(func=_cmd_run)
    try:
        from pipeline.cli import add_spark_command
        add_spark_command(sub)
    except ImportError:
        pass
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
