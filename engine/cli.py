"""The `epl` command: `epl run STATEMENTS.epl EVENTS.jsonl` replays an event file on simulated
time, `epl check STATEMENTS.epl` validates a module and prints each statement's columns,
`epl replay CASE.json [--check]` replays conformance cases, `epl spark ...` (pipeline.cli)
runs on Spark.

Errors in the user's files are printed as `FILE:LINE[:COL]: message` on stderr with exit
status 2 (as are usage errors); a Python traceback only with `--debug`. A closed stdout
(`epl run ... | head`) ends the run quietly."""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import sys
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from .cli_input import InputError, deploy_file, read_text
from .replay_clock import DEFAULT_FLUSH_MS, LATE_POLICIES, STEPPINGS

USAGE_ERROR = 2


# -- epl check ---------------------------------------------------------------------------------
def _cmd_check(args: argparse.Namespace) -> int:
    from .engine import Engine
    engine = Engine(time="simulated")
    try:
        statements = deploy_file(engine, args.statements)
    finally:
        engine.close()
    out = sys.stdout
    for s in statements:
        props = s.event_type.properties if s.event_type is not None else {}
        cols = ", ".join(f"{c} {props[c] if c in props else 'object'}" for c in s.column_names)
        out.write(f"{s.name} ({s.kind})" + (f": {cols}" if cols else "") + "\n")
    out.write(f"{args.statements}: {len(statements)} statement(s) ok\n")
    return 0


# -- epl run -----------------------------------------------------------------------------------
class _Event:
    __slots__ = ("line", "position", "event", "type_name", "time")

    def __init__(self, line: int, position: int, event: dict, type_name: str, time: Optional[int]) -> None:
        self.line = line
        self.position = position
        self.event = event
        self.type_name = type_name
        self.time = time


def _event_time(path: str, line: int, field: str, value: Any) -> int:
    if isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, (int, float)):
        return int(value)
    elif isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            pass
        try:
            d = _dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            pass
        else:
            if d.tzinfo is None:
                d = d.replace(tzinfo=_dt.timezone.utc)
            return int(d.timestamp() * 1000)
    if value is None:
        raise InputError(f"{path}:{line}: missing time field '{field}'")
    raise InputError(f"{path}:{line}: time field '{field}' is {value!r}: expected milliseconds "
                     f"(a number) or an ISO 8601 date-time")


def read_events(path: str, type_name: Optional[str], type_field: str,
                time_field: Optional[str]) -> Iterator[_Event]:
    """The events of a JSON-lines file, with their line numbers and byte positions."""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}") from e
    with f:
        position = 0
        for line_no, raw in enumerate(f, 1):
            position += len(raw)
            if not raw.strip():
                continue
            try:
                event = json.loads(raw)
            except json.JSONDecodeError as e:
                raise InputError(f"{path}:{line_no}:{e.colno}: invalid JSON: {e.msg}") from e
            except UnicodeDecodeError as e:
                raise InputError(f"{path}:{line_no}: not UTF-8 text") from e
            if not isinstance(event, dict):
                raise InputError(f"{path}:{line_no}: expected a JSON object, got {type(event).__name__}")
            name = type_name or event.pop(type_field, None)
            if type_name is not None and type_field in event and event[type_field] == type_name:
                del event[type_field]
            if not isinstance(name, str):
                raise InputError(f"{path}:{line_no}: no event type (use --type or a '{type_field}' field)")
            t = _event_time(path, line_no, time_field, event.get(time_field)) if time_field else None
            yield _Event(line_no, position, event, name, t)


def _cmd_run(args: argparse.Namespace) -> int:
    from .cli_output import make_writer
    from .cli_progress import Progress
    from .engine import Engine
    from engine.contracts.errors import EngineError
    from .replay_clock import LateEventError, ReplayClock

    read_text(args.statements)   # a missing statements file is reported before the events
    events = read_events(args.events, args.type, args.type_field, args.time_field)
    first = next(events, None)
    if args.time_field is None:
        hint = ""
        if first is not None:
            guess = [k for k in first.event if k.lower() in ("ts", "time", "timestamp", "event_time", "t")]
            hint = f" (this file has '{guess[0]}')" if guess else ""
        _warn(f"no --time-field: every event happens at time {args.start_time or 0}, so time "
              f"windows and timers never move; name the field holding event times in ms{hint}")
    start = args.start_time
    if start is None:
        start = first.time if first is not None and first.time is not None else 0
    engine = Engine(time="simulated", start_time=start)
    statements = deploy_file(engine, args.statements)
    selects = [s for s in statements if s.kind == "select"]
    out = sys.stdout
    writer = make_writer(args.format, out, [c for s in selects for c in s.column_names])
    pending: list[tuple] = []

    def attach(stmt: Any) -> None:
        name = stmt.name
        # the listener only queues: writing (and a closed pipe) happens outside the engine
        stmt.add_listener(lambda new, old: pending.append((engine.now, name, new, old)))
    for s in selects:
        attach(s)

    def flush() -> None:
        for d in pending:
            writer.delivery(*d)
        pending.clear()

    clock = ReplayClock(engine, args.stepping, args.late)
    try:
        size = os.path.getsize(args.events)
    except OSError:
        size = None
    progress = Progress(args.progress if args.progress is not None else sys.stderr.isatty(),
                        size, Path(args.events).name)
    n = 0
    last_time: Optional[int] = None
    first_late_line: Optional[int] = None
    item = first
    position = 0
    try:
        while item is not None:
            position = item.position
            if item.time is not None:
                late_before = clock.late_count
                try:
                    keep = clock.to(item.time)
                except LateEventError as e:
                    raise InputError(f"{args.events}:{item.line}: {e}") from e
                if clock.late_count != late_before and first_late_line is None:
                    first_late_line = item.line
                last_time = item.time if last_time is None else max(last_time, item.time)
                flush()
            else:
                keep = True
            if keep:
                try:
                    engine.send(item.event, item.type_name)
                except EngineError as e:
                    raise InputError(f"{args.events}:{item.line}: {e}") from e
                n += 1
                flush()
            if n % 256 == 0:
                progress.update(position, n)
            item = next(events, None)
        end = args.end_time
        if end is None and last_time is not None:
            end = last_time + args.flush
        if end is not None:
            clock.finish(end)
        flush()
        writer.close()
        out.flush()
    finally:
        progress.close(position, n)
        engine.close()
    if clock.late_count:
        what = "sent at the engine's time" if args.late == "adjust" else "dropped"
        _warn(f"{args.events}:{first_late_line}: {clock.late_count} event(s) went back in time, "
              f"{what} (--late adjust|drop|fail)")
    return 0


# -- epl replay --------------------------------------------------------------------------------
def _cmd_replay(args: argparse.Namespace) -> int:
    from .replay import diff_calls, format_calls, replay_case
    status = 0
    for path in args.cases:
        try:
            case = json.loads(read_text(path))
        except json.JSONDecodeError as e:
            raise InputError(f"{path}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}") from e
        try:
            calls = replay_case(case)
        except Exception as e:  # a case that cannot run is a failed case, not a crash
            if args.debug:
                raise
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


# -- the command -------------------------------------------------------------------------------
def _warn(message: str) -> None:
    print(f"epl: warning: {message}", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="epl", description="epl-engine command line")
    p.add_argument("--debug", action="store_true", help="print Python tracebacks for errors")
    from . import __version__
    p.add_argument("--version", action="version", version=f"epl-engine {__version__}")
    # also accepted after the command; SUPPRESS keeps `epl --debug run` from being reset
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="print Python tracebacks for errors")
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", parents=[common],
                         help="run statements over a JSON-lines event file on simulated time",
                         description="Replay a JSON-lines event file through an EPL module on "
                                     "simulated time and print every delivery.")
    run.add_argument("statements", help="EPL module file (statements separated by ';')")
    run.add_argument("events", help="JSON lines, one event per line")
    run.add_argument("--time-field", default=None, help="event field holding the event time (ms or ISO 8601)")
    run.add_argument("--type-field", default="type", help="event field naming the event type (default: type)")
    run.add_argument("--type", default=None, help="event type of every line")
    run.add_argument("--start-time", type=int, default=None, help="engine start time (default: the first event's)")
    run.add_argument("--end-time", type=int, default=None,
                     help="advance time to this after the last event (default: last event + --flush)")
    run.add_argument("--flush", type=int, default=DEFAULT_FLUSH_MS, metavar="MS",
                     help=f"after the last event, advance time by this much (default {DEFAULT_FLUSH_MS}, one hour)")
    run.add_argument("--stepping", choices=STEPPINGS, default="span",
                     help="span: every scheduled instant fires at its own time (the default, as the "
                          "pipeline); jump: Esper's advanceTime to each event's time")
    run.add_argument("--late", choices=LATE_POLICIES, default="adjust",
                     help="an event older than the engine time: send it at the engine time "
                          "(adjust, the default), drop it, or fail")
    run.add_argument("--format", choices=("jsonl", "csv", "table"), default="jsonl",
                     help="output: JSON lines per delivery (default), CSV or a table, one row per event")
    run.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="progress bar on stderr (default: when stderr is a terminal)")
    run.set_defaults(func=_cmd_run)

    check = sub.add_parser("check", parents=[common],
                           help="validate an EPL module and print each statement's output columns")
    check.add_argument("statements", help="EPL module file")
    check.set_defaults(func=_cmd_check)

    r = sub.add_parser("replay", parents=[common], help="replay conformance cases and print the listener calls")
    r.add_argument("cases", nargs="+", help="case JSON files")
    r.add_argument("--check", action="store_true", help="compare with the case's expected output")
    r.set_defaults(func=_cmd_replay)
    # `epl spark` parses its own options (pipeline.cli), loaded only when it runs: importing
    # the pipeline costs pyarrow's import, which the other commands do not need
    spark = sub.add_parser("spark", add_help=False, prefix_chars="\0",
                           help="replay statements over a Parquet/CSV/JSON file on Spark, partitioned "
                                "by a key (needs the 'spark' extra; epl spark --help)")
    spark.add_argument("rest", nargs=argparse.REMAINDER)
    spark.set_defaults(func=_cmd_spark)
    return p


def _cmd_spark(args: argparse.Namespace) -> int:
    try:
        from pipeline.cli import spark_main
    except ImportError as e:
        raise InputError(f"epl spark: {e}") from e
    args.debug = args.debug or "--debug" in args.rest
    return spark_main(args.rest, debug=args.debug)


def _quiet_stdout() -> None:
    """After a closed pipe: send what is left to /dev/null so that exiting prints nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    if not hasattr(args, "debug"):
        args.debug = False
    try:
        return args.func(args)
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except InputError as e:
        if args.debug:
            raise
        print(str(e), file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130
    except Exception as e:   # deliberate: the command line reports, --debug shows the traceback
        if args.debug:
            raise
        print(f"epl: internal error: {type(e).__name__}: {e} (run with --debug for the traceback)",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
