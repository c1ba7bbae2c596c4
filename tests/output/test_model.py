"""Hypothesis: for a statement without aggregation over `T#length(3)`, `output every N events`
(and `output last` / `output first` / `output snapshot`) equal the unlimited statement's output
replayed through a small model of the limiter."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from output_support import Recorder, make_engine

SELECTS = ["select a", "select irstream a", "select rstream a"]


def run(select: str, clause: str, values: list[int], where: str = "") -> tuple[list, list]:
    """Per send: the unlimited statement's (new, old) rows; and the limited statement's calls."""
    engine = make_engine()
    engine.epl("create schema T(k string, a int)")
    plain, limited = Recorder(), Recorder()
    engine.epl(f"{select} from T#length(3) {where}").add_listener(plain)
    engine.epl(f"{select} from T#length(3) {where} {clause}").add_listener(limited)
    per_send = []
    calls = []
    for v in values:
        engine.send({"k": "x", "a": v}, "T")
        got = plain.take()
        per_send.append(got[0] if got else ([], []))
        calls.append(limited.take())
    return per_send, calls


def view_counts(values: list[int], where_ok) -> list[tuple[int, int]]:
    """Events each send puts through the view and where-clause: (inserted, removed)."""
    window: list[int] = []
    out = []
    for v in values:
        window.append(v)
        removed = [window.pop(0)] if len(window) > 3 else []
        out.append((int(where_ok(v)), sum(1 for r in removed if where_ok(r))))
    return out


@settings(max_examples=150, deadline=None)
@given(select=st.sampled_from(SELECTS), n=st.integers(1, 4),
       values=st.lists(st.integers(0, 9), max_size=14), filtered=st.booleans())
def test_every_n_events_is_buffer_and_flush(select, n, values, filtered) -> None:
    where = "where a > 3" if filtered else ""
    per_send, calls = run(select, f"output every {n} events", values, where)
    counts = view_counts(values, (lambda v: v > 3) if filtered else (lambda v: True))
    buf_new: list = []
    buf_old: list = []
    new_count = old_count = 0
    for (rows_new, rows_old), (c_new, c_old), got in zip(per_send, counts, calls):
        if c_new or c_old:
            buf_new += rows_new
            buf_old += rows_old
            new_count += c_new
            old_count += c_old
        expected = []
        if new_count >= n or old_count >= n:
            if buf_new or buf_old:
                expected = [(buf_new, buf_old)]
            buf_new, buf_old, new_count, old_count = [], [], 0, 0
        assert got == expected


@settings(max_examples=100, deadline=None)
@given(select=st.sampled_from(SELECTS), n=st.integers(1, 4), values=st.lists(st.integers(0, 9), max_size=14))
def test_last_every_n_events_keeps_the_last_row_of_each_stream(select, n, values) -> None:
    per_send, calls = run(select, f"output last every {n} events", values)
    last_new = last_old = None
    count = 0
    for (rows_new, rows_old), got in zip(per_send, calls):
        if rows_new:
            last_new = rows_new[-1]
        if rows_old:
            last_old = rows_old[-1]
        count += 1                      # one insert event per send
        expected = []
        if count >= n:
            if last_new is not None or last_old is not None:
                expected = [([last_new] if last_new else [], [last_old] if last_old else [])]
            last_new = last_old = None
            count = 0
        assert got == expected


@settings(max_examples=100, deadline=None)
@given(select=st.sampled_from(SELECTS), n=st.integers(1, 4), values=st.lists(st.integers(0, 9), max_size=14))
def test_first_every_n_events(select, n, values) -> None:
    per_send, calls = run(select, f"output first every {n} events", values)
    witnessed = False
    count = 0
    for (rows_new, rows_old), got in zip(per_send, calls):
        expected = []
        relevant = bool(rows_new or rows_old)
        if not witnessed:
            if not relevant:
                assert got == []
                continue
            witnessed = True
            expected = [(rows_new, rows_old)]
        count += 1
        if count >= n:
            witnessed = False
            count = 0
        assert got == expected


@settings(max_examples=100, deadline=None)
@given(n=st.integers(1, 4), values=st.lists(st.integers(0, 9), max_size=14))
def test_snapshot_is_the_window(n, values) -> None:
    _, calls = run("select a", f"output snapshot every {n} events", values)
    for i, got in enumerate(calls):
        window = values[max(0, i - 2): i + 1]
        expected = [([{"a": v} for v in window], [])] if (i + 1) % n == 0 else []
        assert got == expected
