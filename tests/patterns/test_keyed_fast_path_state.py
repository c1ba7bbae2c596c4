"""The keyed followed-by fast path keeps the general path's behaviour across engine
snapshots (checkpoints), isolated services and keyed context partitions: the same script
gives the same deliveries with the fast paths on and off."""
from __future__ import annotations

import pytest

from engine import Engine
from engine.fastpath_switch import set_fast_paths
from engine.state import restore, snapshot

SCHEMAS = ("create schema A(id int, g int, v int)", "create schema B(id int, g int, v int)")
PATTERN = "select a.v as av, b.v as bv from pattern [every a=A -> b=B(id = a.id) where timer:within(1 sec)]"
# without `within`, B's filter tests the waiting keys inline (FilterOp.IN_KEYS on a live dict)
PATTERNS = [PATTERN, "select a.v as av, b.v as bv from pattern [every a=A -> b=B(id = a.id)]"]
SCRIPT = [("A", 1, 0, 1), ("A", 2, 0, 2), ("T", 300), ("A", 1, 1, 3), ("B", 1, 0, 4), ("T", 800),
          ("B", 1, 1, 5), ("A", 2, 1, 6), ("T", 1500), ("B", 2, 0, 7), ("A", 3, 0, 8), ("T", 1900),
          ("B", 3, 1, 9), ("A", 3, 1, 10), ("T", 4000), ("B", 3, 0, 11)]


def _engine(fast: bool) -> tuple:
    engine = Engine(time="simulated", start_time=0)
    set_fast_paths(engine, fast)
    for s in SCHEMAS:
        engine.epl(s)
    return engine


def _play(target, steps, out) -> None:
    for s in steps:
        if s[0] == "T":
            target.advance_time(s[1])
        else:
            target.send({"id": s[1], "g": s[2], "v": s[3]}, s[0])
        out.append("|")


def _listener(out):
    def listen(new, old):
        out.append(sorted(tuple(sorted(e.underlying.items())) for e in new or []))
    return listen


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("fast", [False, True])
def test_snapshot_restores_waiting_instances_and_deadlines(fast, pattern):
    whole = []
    e = _engine(fast)
    e.epl(pattern).add_listener(_listener(whole))
    _play(e, SCRIPT, whole)
    halves = []
    e = _engine(fast)
    e.epl(pattern).add_listener(_listener(halves))
    _play(e, SCRIPT[:7], halves)
    e2 = restore(snapshot(e))
    e2.statements[-1].add_listener(_listener(halves))
    _play(e2, SCRIPT[7:], halves)
    assert halves == whole
    assert any(x != "|" for x in whole)


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("fast", [False, True])
def test_checkpoint_restores_waiting_instances_and_deadlines(fast, pattern):
    from engine import checkpoint
    whole = []
    e = _engine(fast)
    e.epl("@name('p') " + pattern).add_listener(_listener(whole))
    _play(e, SCRIPT, whole)
    halves = []
    e = _engine(fast)
    e.epl("@name('p') " + pattern).add_listener(_listener(halves))
    _play(e, SCRIPT[:9], halves)
    e2 = checkpoint.loads(checkpoint.dumps(e), listeners={"p": _listener(halves)})
    _play(e2, SCRIPT[9:], halves)
    assert halves == whole


def _isolated(fast: bool, pattern: str) -> list:
    out: list = []
    e = _engine(fast)
    stmt = e.epl(pattern)
    stmt.add_listener(_listener(out))
    _play(e, SCRIPT[:5], out)
    iso = e.isolated("replay")
    iso.add(stmt)
    _play(e, [("B", 2, 0, 100)], out)                 # the engine's events: not seen
    iso.advance_time(400)
    _play(iso, [("A", 2, 0, 101), ("B", 1, 0, 102), ("T", 1000), ("B", 2, 0, 103), ("A", 5, 0, 104)], out)
    iso.remove(stmt)
    _play(e, [("T", 900), ("B", 5, 0, 105), ("A", 6, 0, 106), ("T", 2500), ("B", 6, 0, 107)], out)
    stmt.destroy()
    assert e.filter_count() == 0 and e.schedule_count() == 0
    return out


@pytest.mark.parametrize("pattern", PATTERNS)
def test_isolated_service_moves_the_fast_path_like_the_state_machines(pattern):
    assert _isolated(True, pattern) == _isolated(False, pattern)


CONTEXT = "create context ByG partition by g from A, g from B"


def _context(fast: bool, pattern: str) -> list:
    out: list = []
    e = _engine(fast)
    e.epl(CONTEXT)
    e.epl("context ByG " + pattern.replace("select ", "select context.key1 as g, ")).add_listener(_listener(out))
    steps = [("A", 1, 0, 1), ("A", 1, 1, 2), ("B", 1, 1, 3), ("B", 1, 0, 4), ("A", 2, 0, 5), ("T", 500),
             ("A", 2, 1, 6), ("B", 2, 1, 7), ("T", 1200), ("B", 2, 0, 8), ("B", 2, 1, 9)]
    _play(e, steps, out)
    return out


@pytest.mark.parametrize("pattern", PATTERNS)
def test_keyed_context_partitions_narrow_the_fast_path_filters(pattern):
    got = _context(True, pattern)
    assert got == _context(False, pattern)
    assert any(x != "|" for x in got)
