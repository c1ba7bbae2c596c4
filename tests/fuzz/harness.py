"""Runs one fuzzed text through the public API and classifies what happened: compiled and ran,
rejected with an EPL error, or crashed (any other exception, at compile or at send time,
including a statement fault the engine isolated and reported)."""
from __future__ import annotations

import random
import traceback
from dataclasses import dataclass, field
from typing import Any, Optional

from engine import Engine
from engine.errors import EngineError, EventTypeError
from epl.errors import EPLError

from . import grammar
from .mutate import corpus, mutate

# Errors a hostile text or event may legitimately get: the documented EPL and event errors.
EXPECTED = (EPLError, EngineError)


@dataclass
class Outcome:
    kind: str                      # "ran" | "rejected" | "crash"
    text: str
    where: str = ""                # "compile" | "send" | "setup" for crashes
    error: Optional[BaseException] = None
    trace: str = ""


@dataclass
class Counts:
    compiled: int = 0
    ran: int = 0
    rejected: int = 0
    crashes: int = 0
    examples: list = field(default_factory=list)

    def add(self, o: Outcome) -> None:
        if o.kind == "crash":
            self.crashes += 1
            if len(self.examples) < 50:
                self.examples.append(o)
        elif o.kind == "rejected":
            self.rejected += 1
        else:
            self.compiled += 1
            self.ran += 1


class _Faults:
    """Statement faults the engine isolates (statement_error signal, if the engine has it)."""

    def __init__(self, engine: Engine) -> None:
        self.errors: list[BaseException] = []
        sig = getattr(engine.signals, "statement_error", None)
        if sig is not None:
            sig.connect(self._on, sender=engine, weak=False)

    def _on(self, sender: Any, **kw: Any) -> None:
        err = kw.get("error")
        if err is not None and not isinstance(err, EXPECTED):
            self.errors.append(err)


def _crash(text: str, where: str, exc: BaseException) -> Outcome:
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-6:])
    return Outcome("crash", text, where, exc, tb)


def _value(r: random.Random, kind: str) -> Any:
    roll = r.random()
    if roll < 0.08:
        return None
    if kind == "num":
        return r.choice([0, 1, -1, 2, 3, 7, 2**31 - 1, 2**31, -2**63, 2.5, -0.0, float("nan"),
                         float("inf"), 1e300])
    if kind == "str":
        return r.choice(["a", "b", "", "A1", "aab", "a" * 30 + "c", "x%", "it's", "\n"])
    return r.choice([True, False])


def random_event(r: random.Random, type_name: str) -> dict:
    props = grammar.STREAMS[type_name]
    ev = {name: _value(r, kind) for name, kind in props.items()}
    for name in ("v", "l"):                 # declared ints must be ints (event checks)
        v = ev.get(name)
        if isinstance(v, float):
            ev[name] = int(v) if v == v and abs(v) < 2**62 else 1
    if ev.get("l") is not None:
        ev["l"] = abs(ev["l"]) % 100_000      # ext_timed reads it as a timestamp
    if r.random() < 0.03:                   # a wrong type: an EventTypeError is fine
        ev["v"] = "not a number"
    return ev


def run_generated(r: random.Random, events: int = 6) -> Outcome:
    """A statement from the grammar over the fixed schemas, then random events and time."""
    text = grammar.statement(r)
    if r.random() < 0.2:
        text = mutate(r, text)
    engine = Engine(time="simulated")
    try:
        for s in grammar.SETUP:
            engine.epl(s)
    except Exception as exc:  # noqa: BLE001 - the setup itself must never fail
        return _crash(text, "setup", exc)
    faults = _Faults(engine)
    try:
        stmt = engine.epl(text)
    except EXPECTED:
        return Outcome("rejected", text)
    except Exception as exc:  # noqa: BLE001
        return _crash(text, "compile", exc)
    stmt.add_listener(lambda new, old: None)
    t = 0
    try:
        for _ in range(events):
            if r.random() < 0.3:
                t += r.choice([1, 500, 1000, 3000])
                engine.advance_time(t)
            name = r.choice(["A", "A", "B"])
            try:
                engine.send(random_event(r, name), name)
            except EventTypeError:
                pass
        engine.advance_time(t + 10_000)
        list(stmt)                           # the pull API as well
        stmt.destroy()
    except EXPECTED:
        pass
    except Exception as exc:  # noqa: BLE001
        return _crash(text, "send", exc)
    if faults.errors:
        return _crash(text, "send (isolated)", faults.errors[0])
    return Outcome("ran", text)


def run_mutated(r: random.Random, steps: int = 25) -> Outcome:
    """A conformance case with one statement mutated, replayed on the case's events."""
    cases = corpus()
    case = cases[r.randrange(len(cases))]
    texts = list(case["epl"])
    i = len(texts) - 1 if r.random() < 0.6 else r.randrange(len(texts))   # mostly the statement
    texts[i] = mutate(r, texts[i])
    engine = Engine(time="simulated")
    faults = _Faults(engine)
    compiled = False
    for k, text in enumerate(texts):
        try:
            engine.epl(text).add_listener(lambda new, old: None)
            compiled = compiled or k == i
        except EXPECTED:
            if k == i:
                compiled = False
        except Exception as exc:  # noqa: BLE001
            return _crash(texts[i], f"compile (statement {k})", exc)
    try:
        for step in case["steps"][:steps]:
            if "time" in step:
                engine.advance_time(step["time"])
            elif "span" in step:
                engine.advance_time_span(step["span"])
            else:
                ev = dict(step["event"])
                if ev and r.random() < 0.1:     # perturb a value
                    key = r.choice(sorted(ev))
                    ev[key] = r.choice([None, 0, -1, "x", 2.5, True])
                try:
                    engine.send(ev, step["send"])
                except EventTypeError:
                    pass
        for s in engine.statements:
            list(s)
    except EXPECTED:
        pass
    except Exception as exc:  # noqa: BLE001
        return _crash(texts[i], "send", exc)
    if faults.errors:
        return _crash(texts[i], "send (isolated)", faults.errors[0])
    return Outcome("ran" if compiled else "rejected", texts[i])

