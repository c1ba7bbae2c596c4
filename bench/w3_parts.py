"""Where W3's time goes through per-event `advance_time` + `send`: CPU per event (best of
`--repeat` runs) of the hand loop, the whole row, the batch ends alone, `advance_time` alone
and `send` alone into one batch that never ends. `python -m bench.w3_parts [--events N]`;
a measuring aid for the stage figures in docs/performance.md, not a bench row."""
from __future__ import annotations

import argparse
import time

from engine import Engine

from . import data
from .timed import ticks_engine
from .w3_time_batch import BATCH_MS, EPL, loop_run


def _engine() -> Engine:
    return ticks_engine(EPL, lambda new, old: None)


def _whole(events: list[dict]) -> tuple[float, float]:
    """(CPU seconds of the row, of which in the time steps that end a batch)."""
    engine = _engine()
    advance, send = engine.advance_time, engine.send
    clock = time.process_time
    ends = 0.0
    start = clock()
    for t, ev in enumerate(events):
        if t % BATCH_MS == 0:
            t0 = clock()
            advance(t)
            ends += clock() - t0
        else:
            advance(t)
        send(ev, "Tick")
    return clock() - start, ends


def _advance_alone(events: list[dict]) -> float:
    engine = _engine()
    advance = engine.advance_time
    start = time.process_time()
    for t, _ in enumerate(events):
        advance(t)
    return time.process_time() - start


def _send_alone(events: list[dict]) -> float:
    """send into one batch that never ends (time does not move): the front's append."""
    engine = _engine()
    send = engine.send
    send(events[0], "Tick")
    start = time.process_time()
    for ev in events:
        send(ev, "Tick")
    return time.process_time() - start


def _empty(events: list[dict]) -> float:
    start = time.process_time()
    for t, _ in enumerate(events):
        pass
    return time.process_time() - start


def measure(n: int, repeat: int) -> dict[str, float]:
    """Nanoseconds per event, best of `repeat`, each stage measured in turn per repeat."""
    events = data.ticks(n)
    best: dict[str, float] = {}

    def keep(name: str, seconds: float) -> None:
        best[name] = min(best.get(name, float("inf")), seconds / n * 1e9)
    for _ in range(repeat):
        start = time.process_time()
        loop_run(events)
        keep("hand loop", time.process_time() - start)
        whole, ends = _whole(events)
        keep("engine, advance_time + send", whole)
        keep("  of which the batch ends", ends)
        keep("advance_time alone", _advance_alone(events))
        keep("send alone (one batch)", _send_alone(events))
        keep("the empty loop", _empty(events))
    return best


def main(argv: "list[str] | None" = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.w3_parts", description=__doc__)
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    best = measure(args.events, args.repeat)
    for name, ns in best.items():
        print(f"{name:32s} {ns:8.1f} ns/event")
    print(f"{'engine / loop':32s} {best['hand loop'] / best['engine, advance_time + send']:8.3f}")


if __name__ == "__main__":
    main()
