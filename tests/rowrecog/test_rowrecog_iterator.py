"""Esper's pull API on match_recognize: iterating the statement matches the pattern on demand
over the data window's current rows (the live matcher's partial matches stay as they are)."""
from engine import Engine

PATTERN = """measures A.price as a, B.price as b pattern (A B) define B as B.price > A.price)"""


def _run(window: str) -> tuple:
    e = Engine(time="simulated")
    e.epl("create schema T(sym string, price double)")
    s = e.epl(f"select * from T{window} match_recognize (partition by sym {PATTERN}")
    pushed: list = []
    s.add_listener(lambda new, old: pushed.extend(r.to_dict() for r in new))
    for sym, p in [("x", 1), ("x", 2), ("y", 5), ("y", 3), ("x", 0), ("x", 4), ("y", 4)]:
        e.send({"sym": sym, "price": float(p)}, "T")
    return pushed, [r.to_dict() for r in s]


def test_iterating_matches_over_the_whole_window():
    pushed, pulled = _run("#keepall")
    assert pushed == [{"a": 1.0, "b": 2.0}, {"a": 0.0, "b": 4.0}, {"a": 3.0, "b": 4.0}]
    assert sorted(pulled, key=str) == sorted(pushed, key=str)


def test_iterating_sees_only_the_rows_the_window_holds():
    _pushed, pulled = _run("#length(3)")      # holds x:0, x:4, y:4
    assert pulled == [{"a": 0.0, "b": 4.0}]


def test_no_data_window_iterates_nothing():
    e = Engine(time="simulated")
    e.epl("create schema T(sym string, price double)")
    s = e.epl(f"select * from T match_recognize ({PATTERN}")
    e.send({"sym": "x", "price": 1.0}, "T")
    e.send({"sym": "x", "price": 2.0}, "T")
    assert list(s) == []
