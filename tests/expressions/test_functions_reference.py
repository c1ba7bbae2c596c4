"""Every example of docs/reference/functions.md runs: each supported function's statement
compiles against the page's types and delivers rows for a few events without raising."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import Engine

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "functions.md"
_ROW = re.compile(r"^\|\s*(?P<name>.+?)\s*\|\s*(?P<ok>yes|no)\s*\|\s*(?P<example>.*?)\s*\|\s*$")
_SCHEMAS = ("create schema Trade(sym string, price double, vol int, ts long, extra string)",
            "create schema Quote(sym string, bid double)")
_TRADES = [{"sym": "IBM", "price": 12.5, "vol": 3, "ts": 1_700_000_000_123, "extra": "2024-03-05"},
           {"sym": "MSFT", "price": 8.0, "vol": 1, "ts": 951_786_123_004, "extra": None},
           {"sym": "IBM", "price": 20.0, "vol": 5, "ts": 0, "extra": "1999-12-31"},
           {"sym": "GE", "price": 3.25, "vol": 2, "ts": 1_234_567_890, "extra": "x"}]


def _rows() -> list[tuple[str, str, str]]:
    out = []
    for line in PAGE.read_text().splitlines():
        m = _ROW.match(line)
        if m:
            ex = m.group("example")
            out.append((m.group("name"), m.group("ok"), ex[1:-1] if ex.startswith("`") else ex))
    return out


def _blocks() -> list[list[str]]:
    text = PAGE.read_text()
    return [[ln for ln in b.strip().splitlines() if ln.strip()]
            for b in re.findall(r"```epl\n(.*?)```", text, re.S)]


EXAMPLES = [(n, ex) for n, ok, ex in _rows() if ok == "yes" and ex.startswith("select")]


def test_page_lists_examples_and_unsupported_ones():
    rows = _rows()
    assert len(EXAMPLES) > 60
    assert all(ok == "yes" or not ex for _, ok, ex in rows)


@pytest.mark.parametrize("name, epl", EXAMPLES, ids=[n for n, _ in EXAMPLES])
def test_example_runs(name, epl):
    eng = Engine(time="simulated", start_time=1_700_000_000_000)
    for s in _SCHEMAS:
        eng.epl(s)
    stmt = eng.epl(epl)
    got = []
    stmt.add_listener(lambda new, old: got.append((new, old)))
    t = 1_700_000_000_000
    for e in _TRADES:
        eng.send(dict(e), "Trade")
        eng.send({"sym": e["sym"], "bid": e["price"] - 1}, "Quote")
        t += 700
        eng.advance_time(t)
    eng.advance_time(t + 20_000)
    assert got, f"{name}: no output"


def test_code_blocks_run():
    blocks = _blocks()
    assert blocks[0] == list(_SCHEMAS)
    eng = Engine(time="simulated")
    stmts = [eng.epl(line) for line in blocks[1]]
    got = []
    stmts[-1].add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    eng.send({"user-id": "u1", "first name": "Ann"}, "Login")
    eng.send({"user-id": "u1", "first name": None}, "Login")
    assert got == [{"user-id": "u1", "n": 1}]
