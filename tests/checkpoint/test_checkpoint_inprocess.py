"""Checkpoint at a random point, restore, continue: the restored engine's output equals an
uninterrupted engine's, for several statement mixes (hypothesis over the position)."""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

sys.path.insert(0, str(Path(__file__).parent))

import workload  # noqa: E402

from engine import Engine  # noqa: E402
from engine.apptime import CtiGeneration  # noqa: E402

# -- mixes: (build(engine) -> None, steps: list of callables (engine) -> None) ---------------

EVENTS = list(workload.events(400, 3))


def _step_event(t: int, type_name: str, ev: dict) -> Callable[[Engine], None]:
    def step(engine: Engine) -> None:
        engine.advance_time(t)
        engine.send(ev, type_name)
    return step


MIXED = (workload.build, [_step_event(*e) for e in EVENTS])

PATTERNS = ("""
create schema Trade(sym string, price double, vol int);
create schema Ctl(kind string, sym string);
@name('p1') select a.sym as s, b.price as p from pattern [every a=Trade(price > 60) -> (b=Trade(sym = a.sym, price < a.price) and not Ctl(sym = a.sym)) where timer:within(2 sec)];
@name('p2') select * from pattern [every-distinct(a.sym) a=Trade -> timer:interval(1 sec)];
@name('p3') select count(*) as c from pattern [every timer:at(*, *, *, *, *, */5)];
@name('m1') select * from Trade match_recognize (measures A.sym as s, count(B.price) as n pattern (A B* C) interval 1 sec define A as A.price > 50, B as B.price <= 50, C as C.price > 90);
@name('o1') select sym, count(*) as c from Trade group by sym output snapshot every 1500 msec;
@name('o2') select sym, price from Trade output first every 2 sec;
@name('w1') select irstream sym, sum(vol) as v from Trade#ext_timed(cast(price, long) * 10, 300) group by sym
""", [_step_event(*e) for e in EVENTS])


def _apptime_build(engine: Engine) -> None:
    engine.epl("create schema Reading(sensor string, value double, t long) starttimestamp t")
    engine.epl("@name('iv') select irstream sensor, avg(value) as a from Reading#time(3000) group by sensor")
    engine.epl("@name('ic') select count(*) as c from Reading#interval()")
    engine.input("Reading", name="r", generate=CtiGeneration(every_events=3, delay=-1))


def _apptime_steps() -> list:
    import random
    rng = random.Random(5)
    steps = []
    t = 0
    for i in range(150):
        t += rng.choice((100, 250, 600))
        ev = {"sensor": rng.choice("xyz"), "value": float(rng.randint(0, 50)),
              "t": t - rng.choice((0, 0, 150))}        # slightly out of order
        steps.append(lambda e, ev=ev: e.application_inputs["r"].enqueue(ev))
        if i % 20 == 19:
            steps.append(lambda e, c=t + 1000: e.application_inputs["r"].enqueue_cti(c))
    return steps


APPTIME = (_apptime_build, _apptime_steps())


def _builder(mix: Any) -> Callable[[Engine], None]:
    build = mix[0]
    if isinstance(build, str):
        return lambda e: e.deploy(build)
    return build


def _rows(beans: Any) -> Any:
    return None if not beans else [sorted(b.to_dict().items()) for b in beans]


def _listen(engine: Engine, out: list, pos: list) -> dict:
    fns = {}
    for s in engine.statements:
        if not s.name.startswith("stmt-"):
            fns[s.name] = (lambda n, o, _name=s.name: out.append(
                json.dumps([pos[0], _name, _rows(n), _rows(o)], default=str)))
    return fns


@functools.lru_cache(maxsize=None)
def _reference(mix_name: str) -> tuple[list, list]:
    """The uninterrupted run: all output lines, and how many there were before each step."""
    mix = MIXES[mix_name]
    e = Engine(time="simulated", start_time=0)
    _builder(mix)(e)
    out: list = []
    pos = [0]
    for name, fn in _listen(e, out, pos).items():
        e.statement(name).add_listener(fn)
    before = []
    for i, step in enumerate(mix[1]):
        pos[0] = i
        before.append(len(out))
        step(e)
    before.append(len(out))
    return out, before


MIXES = {"mixed": MIXED, "patterns": PATTERNS, "apptime": APPTIME}


def _check(mix_name: str, k: int, via_file: Path | None = None) -> None:
    mix = MIXES[mix_name]
    ref, before = _reference(mix_name)
    e = Engine(time="simulated", start_time=0)
    _builder(mix)(e)
    steps = mix[1]
    for i in range(k):
        steps[i](e)
    data = e.checkpoint(via_file) if via_file else e.checkpoint()
    del e
    out: list = []
    pos = [k]
    # listeners are not in a checkpoint: attached on restore, by the names its header lists
    r = Engine.restore(via_file or data, listeners=_listen_from(_listen_names(data), out, pos))
    for i in range(k, len(steps)):
        pos[0] = i
        steps[i](r)
    assert out == ref[before[k]:]


def _listen_names(data: bytes) -> list:
    from engine.checkpoint import info
    return [n for n in info(data).statements if not n.startswith("stmt-")]


def _listen_from(names: list, out: list, pos: list) -> dict:
    return {n: (lambda nw, o, _name=n: out.append(json.dumps([pos[0], _name, _rows(nw), _rows(o)],
                                                               default=str))) for n in names}


@settings(max_examples=12, deadline=None)
@given(st.integers(0, len(MIXED[1])))
def test_mixed_workload_continues_after_restore(k: int) -> None:
    _check("mixed", k)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, len(PATTERNS[1])))
def test_patterns_and_output_limiting_continue_after_restore(k: int) -> None:
    _check("patterns", k)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, len(APPTIME[1])))
def test_application_time_input_and_ctis_continue_after_restore(k: int) -> None:
    _check("apptime", k)


def test_checkpoint_file_roundtrip(tmp_path: Path) -> None:
    _check("mixed", 200, via_file=tmp_path / "ck.bin")
    assert [p.name for p in tmp_path.iterdir()] == ["ck.bin"]     # no temporary file left
