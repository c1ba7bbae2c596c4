"""W11: an inner join of two length windows on a key,
`select a.seq as x, b.seq as y from A#length(100) as a, B#length(100) as b where a.id = b.id`,
A and B events mixed half and half over 50 ids (about two matches per event), sent one by
one. Only the insert stream is selected: each event joins the other window's current rows."""
from __future__ import annotations

from collections import deque

from . import data
from .harness import LoopRow, Row, Run, measure, send_typed, stopwatch

NAME = "W11 join"
EPL = ("select a.seq as x, b.seq as y from A#length(100) as a, B#length(100) as b "
       "where a.id = b.id")
SIZES = {False: 200_000, True: 20_000}
IDS = 50
LENGTH = 100


def _listener(acc: list):
    def listen(new, old):
        for row in new:
            u = row.underlying
            acc[0] += 1
            acc[1] += u["x"]
            acc[2] += u["y"]
    return listen


def engine_run(evs: list[tuple[str, dict]]) -> Run:
    acc = [0, 0, 0]       # rows, sum of a.seq, sum of b.seq
    return send_typed(data.PATTERN_SCHEMAS, EPL, _listener(acc), evs), tuple(acc)


def loop_run(evs: list[tuple[str, dict]]) -> Run:
    acc = [0, 0, 0]
    listen = _listener(acc)
    windows = {"A": deque(), "B": deque()}
    by_id: dict = {"A": {}, "B": {}}       # side -> id -> that side's window events, oldest first
    elapsed = stopwatch()
    for side, ev in evs:
        window, index = windows[side], by_id[side]
        if len(window) == LENGTH:
            old = window.popleft()
            index[old["id"]].pop(0)
        window.append(ev)
        key = ev["id"]
        same = index.get(key)
        if same is None:
            index[key] = [ev]
        else:
            same.append(ev)
        others = by_id["B" if side == "A" else "A"].get(key)
        if others:
            if side == "A":
                listen([LoopRow({"x": ev["seq"], "y": o["seq"]}) for o in others], None)
            else:
                listen([LoopRow({"x": o["seq"], "y": ev["seq"]}) for o in others], None)
    return elapsed(), tuple(acc)


def run(quick: bool, repeat: int) -> list[Row]:
    evs = data.pattern_events(SIZES[quick], ids=IDS)
    return [measure(NAME, "A#length(100) join B#length(100) on id", len(evs),
                    lambda: engine_run(evs), lambda: loop_run(evs), repeat)]
