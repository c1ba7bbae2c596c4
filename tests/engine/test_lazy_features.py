"""Features whose modules load on first use (for a cold start) work when first used in a fresh
process, inside a listener: `regexp` (on a thread-safe engine fed from another thread; the
engines load when the statement is compiled, not at its first event) and application-time
inputs."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FIRST_REGEXP_IN_A_LISTENER = r"""
import sys, threading
from engine import Engine

engine = Engine(time="simulated")      # thread-safe: the default
engine.epl("create schema T(s string, p string)")
plain = engine.epl("select s from T")
assert "re2" not in sys.modules and "regex" not in sys.modules, "loaded at start: nothing to test"
made, got = [], []

def make_regexp_statements(new, old):
    if made:
        return
    # first use of `regexp`, inside a listener: a pattern known per event, a constant pattern,
    # and one only the back-tracking engine takes (a lookahead)
    made.append(engine.epl("select s, s regexp p as m from T"))
    assert "re2" in sys.modules and "regex" in sys.modules, "not loaded when compiled"
    made.append(engine.epl("select s from T(s regexp 'a+b')"))
    made.append(engine.epl("select s from T where s regexp '(?=a)a+b'"))
    for i, st in enumerate(made):
        st.add_listener(lambda new, old, i=i: got.append((i, [e.to_dict() for e in new])))

plain.add_listener(make_regexp_statements)
engine.send({"s": "x", "p": "x"}, "T")            # makes the statements
sender = threading.Thread(target=lambda: [engine.send(e, "T") for e in (
    {"s": "aab", "p": "a*b"}, {"s": "ab", "p": "c"}, {"s": "aab", "p": None})])
sender.start()
sender.join()
print(sorted(got, key=lambda g: (g[0], str(g[1]))))
"""

FIRST_INPUT_IN_A_LISTENER = r"""
import sys
from engine import Engine

engine = Engine(time="simulated")
engine.epl("create schema Go(n int)")
engine.epl("create schema P(id int, t long) starttimestamp t")
assert "engine.apptime.input" not in sys.modules, "loaded at start: nothing to test"
got, inputs = [], []
engine.epl("select id from P").add_listener(lambda new, old: got.append((engine.now, new[0]["id"])))

def open_input(new, old):
    # application time first used inside a listener
    inp = engine.input("P")
    for i, t in [(1, 30), (2, 10), (3, 20)]:
        inp.enqueue({"id": i, "t": t})
    inputs.append(inp)

engine.epl("select * from Go").add_listener(open_input)
engine.send({"n": 1}, "Go")
assert got == []
inputs[0].enqueue_cti(25)
from engine.apptime import CtiGeneration, Snapshot, clock
assert clock(engine).inputs == inputs
print(got)
"""


def run(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env, check=True).stdout.strip()


def test_regexp_first_used_inside_a_listener_from_a_fresh_process():
    out = run(FIRST_REGEXP_IN_A_LISTENER)
    assert out == str([
        (0, [{"s": "aab", "m": None}]),
        (0, [{"s": "aab", "m": True}]),
        (0, [{"s": "ab", "m": False}]),
        (1, [{"s": "aab"}]), (1, [{"s": "aab"}]), (1, [{"s": "ab"}]),
        (2, [{"s": "aab"}]), (2, [{"s": "aab"}]), (2, [{"s": "ab"}]),
    ])


def test_application_time_first_used_inside_a_listener_from_a_fresh_process():
    assert run(FIRST_INPUT_IN_A_LISTENER) == "[(10, 2), (20, 3)]"
