"""match_recognize with time and windows: `interval` (matches held until the interval after
their first row), `interval ... or terminated`, rows leaving data windows, named windows
(their rows at start, on-delete out of arrival order)."""
from __future__ import annotations

import datetime as dt

import pytest

from _rowrecog_helpers import Run

A_B_STAR = ("measures A.theString as a, B[0].theString as b0, B[1].theString as b1, "
            "last(B.theString) as lastb pattern (A B*) {interval} define A as A.theString like 'A%', "
            "B as B.theString like 'B%'")


def _interval(partition: str = "", interval: str = "interval 10 seconds") -> Run:
    return Run("@name('s0') select * from SupportRecogBean#keepall match_recognize (" + partition
               + A_B_STAR.format(interval=interval) + ") order by a, b0, b1, lastb", "a,b0,b1,lastb".split(","))


def test_interval_holds_matches_until_it_passes():
    r = _interval()
    r.send(1000, ("A1", 1), 10999)
    assert r.pop() == []
    r.send(11000, 13000, ("A2", 2), 15000, ("B1", 3), 22999)
    assert r.pop() == [("t=11000", [("A1", None, None, None)])]
    r.send(23000, 25000, ("A3", 4), 26000, ("B2", 5), 29000, ("B3", 6), 34999, ("B4", 7))
    assert r.pop() == [("t=23000", [("A2", "B1", None, "B1")])]
    r.send(35000)
    assert r.pop() == [("t=35000", [("A3", "B2", "B3", "B4")])]


def test_interval_per_partition_delivers_due_partitions_together():
    r = _interval("partition by cat ")
    r.send(1000, ("A1", 1, "C1"), ("A2", 2, "C2"), 2000, ("A3", 3, "C3"), 3000, ("A4", 4, "C4"),
           ("B1", 5, "C3"), ("B2", 6, "C1"), ("B3", 7, "C1"), ("B4", 7, "C4"), 10999)
    assert r.pop() == []
    r.send(11000, 11999, 12000, 13000)
    assert r.pop() == [("t=11000", [("A1", "B2", "B3", "B3"), ("A2", None, None, None)]),
                       ("t=12000", [("A3", "B1", None, "B1")]), ("t=13000", [("A4", "B4", None, "B4")])]


def test_interval_in_calendar_months():
    def ms(s):
        return int(dt.datetime.fromisoformat(s + "+00:00").timestamp() * 1000)
    r = Run("@name('s0') select * from SupportRecogBean match_recognize (measures A.theString as a, "
            "B[0].theString as b0 pattern (A B*) interval 1 month define A as A.theString like 'A%', "
            "B as B.theString like 'B%')", ["a", "b0"])
    r.send(ms("2002-02-01T09:00:00"), "A1", "B1", ms("2002-03-01T09:00:00") - 1)
    assert r.pop() == []
    r.send(ms("2002-03-01T09:00:00"))
    assert [rows for _, rows in r.pop()] == [[("A1", "B1")]]


def _terminated(measures: str, pattern: str, defines: str, extra: str = "") -> str:
    return (f"@name('s0') select * from SupportRecogBean#keepall match_recognize (measures {measures} "
            f"{extra} pattern ({pattern}) interval 10 seconds or terminated define {defines})")


DEFS3 = "A as A.theString like 'A%', B as B.theString like 'B%', C as C.theString like 'C%'"
DEFS2 = "A as A.theString like 'A%', B as B.theString like 'B%'"


def test_or_terminated_a_then_b_star_or_c():
    r = Run(_terminated("A.theString as a, B[0].theString as b0, B[1].theString as b1, C.theString as c",
                        "A (B* | C)", DEFS3), "a,b0,b1,c".split(","))
    r.send("A1", "C1", "A2", "B1", "B2", "X1", "A3", 10000, 2 ** 31)
    assert r.pop() == [("C1", [("A1", None, None, "C1")]), ("B1", [("A2", None, None, None)]),
                       ("X1", [("A2", "B1", "B2", None)]), ("t=10000", [("A3", None, None, None)])]


def test_or_terminated_without_optional_end_is_immediate():
    r = Run(_terminated("A.theString as a, B.theString as b", "A B", DEFS2), ["a", "b"])
    assert r.send("A1", "B1", "A2", "A3", "B2").pop() == [("B1", [("A1", "B1")]), ("B2", [("A3", "B2")])]


def test_or_terminated_trailing_star_and_timer():
    r = Run(_terminated("A.theString as a, B.theString as b, C[0].theString as c0, C[1].theString as c1",
                        "A B C*", DEFS3), "a,b,c0,c1".split(","))
    r.send("A1", "B1", "C1", "C2", "B2", "A2", "X1", "B3", "X2", "A3", "B4", "X3", 20000, "A4", "B5", "C3")
    assert r.pop() == [("B2", [("A1", "B1", "C1", "C2")]), ("X3", [("A3", "B4", None, None)])]
    assert r.send(30000).pop() == [("t=30000", [("A4", "B5", "C3", None)])]


def test_or_terminated_alternative_of_stars():
    r = Run(_terminated("A.theString as a, B[0].theString as b0, C[0].theString as c0", "A (B* | C*)", DEFS3),
            ["a", "b0", "c0"])
    assert r.send("A1", "X1", "A2", "C1", "B1", "C2").pop() == [
        ("X1", [("A1", None, None)]), ("C1", [("A2", None, None)]), ("B1", [("A2", None, "C1")])]


def test_or_terminated_star_only_and_late_rows():
    r = Run(_terminated("A[0].theString as a0, A[1].theString as a1, A[2].theString as a2, A[3].theString as a3",
                        "A*", "A as theString like 'A%'"), "a0,a1,a2,a3".split(","))
    r.send("A1", "A2", "B1", 2000, "A3", "A4", "A5", 12000, "A6", "B2", "B3")
    assert r.pop() == [("B1", [("A1", "A2", None, None)]), ("t=12000", [("A3", "A4", "A5", None)]),
                       ("B2", [("A3", "A4", "A5", "A6")])]


@pytest.mark.parametrize("all_matches", [False, True])
def test_or_terminated_all_matches(all_matches):
    r = Run(_terminated("A.theString as a, B[0].theString as b0", "A B*", DEFS2,
                        "all matches" if all_matches else ""), ["a", "b0"])
    r.send("A1", "B1", "X1", 20000, "A2", "B2", 29999, 30000)
    first = [("A1", None), ("A1", "B1")] if all_matches else [("A1", "B1")]
    second = [("A2", None), ("A2", "B2")] if all_matches else [("A2", "B2")]
    assert r.pop() == [("X1", first), ("t=30000", second)]


def test_partial_matches_leave_with_their_rows():
    r = Run("@name('s0') select * from SupportRecogBean#time(5 sec) match_recognize (measures "
            "A.theString as a, B.theString as b, C.theString as c all matches pattern (A B C) "
            "define A as (A.value = 1), B as (B.value = 2), C as (C.value = 3))", ["a", "b", "c"])
    r.send(50, ("E1", 1), 1000, ("E2", 2), 6000, ("E3", 3), 7000, ("E4", 1), 8000, ("E5", 2), 11500, ("E6", 3))
    assert r.pop() == [("E6", [("E4", "E5", "E6")])]


def test_named_window_rows_present_at_start_are_matched():
    sb = lambda s, i: {"_type": "SupportBean", "theString": s, "intPrimitive": i}  # noqa: E731
    setup = ["create schema SupportBean(theString string, intPrimitive int)",
             "create window MyWindow#keepall as select * from SupportBean",
             "insert into MyWindow select * from SupportBean", sb("A", 1), sb("A", 2), sb("B", 1), sb("C", 3)]
    r = Run("@name('S1') select * from MyWindow match_recognize (partition by theString measures "
            "A.theString as ast, A.intPrimitive as ai, B.intPrimitive as bi all matches pattern (A B) "
            "define B as (B.intPrimitive = A.intPrimitive))", ["ast", "ai", "bi"], setup=setup)
    r.send({**sb("C", 3), "theString": "C"}, sb("E", 5), sb("E", 5))
    assert [rows for _, rows in r.pop()] == [[("C", 3, 3)], [("E", 5, 5)]]


def test_out_of_sequence_delete_rematches_the_remaining_rows():
    d = lambda s: {"_type": "SupportBean", "theString": s, "intPrimitive": 0}  # noqa: E731
    setup = ["create schema SupportBean(theString string, intPrimitive int)",
             "create window MyWindow#keepall as SupportRecogBean",
             "insert into MyWindow select * from SupportRecogBean",
             "on SupportBean as s delete from MyWindow as w where s.theString = w.theString"]
    r = Run("@name('s0') select * from MyWindow match_recognize (measures A[0].theString as a0, "
            "A[1].theString as a1, B[0].theString as b0, B[1].theString as b1, C.theString as c "
            "pattern (A+ B* C) define A as (A.value = 1), B as (B.value = 2), C as (C.value = 3))",
            "a0,a1,b0,b1,c".split(","), setup=setup)
    r.send(("E1", 1), ("E2", 1), d("E2"), ("E3", 3))
    assert r.pop() == [("E3", [("E1", None, None, None, "E3")])]
    r.send(d("E1"), d("E4"), ("E4", 1), ("E5", 1), d("E4"), ("E6", 3))
    assert r.pop() == [("E6", [("E5", None, None, None, "E6")])]
    r.send(("E7", 1), ("E8", 1), ("E9", 2), ("E10", 2), ("E11", 2), d("E9"), ("E12", 3))
    assert r.pop() == [("E12", [("E7", "E8", "E10", "E11", "E12")])]
    r.send(("E13", 1), ("E14", 1), ("E15", 2), ("E16", 2), d("E14"), d("E15"), d("E16"), d("E13"), ("E18", 3))
    assert r.pop() == []
