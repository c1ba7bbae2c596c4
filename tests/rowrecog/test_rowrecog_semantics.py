"""match_recognize behaviour as Esper's reference and regression suite describe it: greedy
and reluctant quantifiers, one row per match and all matches, skip modes, partitions, prev,
indexed group variables, repetition, permutation, and the insert stream it delivers."""
from __future__ import annotations

import pytest

from _rowrecog_helpers import Run

KEEPALL = "@name('s0') select * from SupportRecogBean#keepall match_recognize "


def test_reluctant_zero_to_one_prefers_no_row():
    r = Run(KEEPALL + "(measures A.theString as a, B.theString as b pattern (A?? B?) "
            "define A as A.value = 1, B as B.value = 1)", ["a", "b"])
    assert r.send(("E1", 1)).pop() == [("E1", [(None, "E1")])]


@pytest.mark.parametrize("pattern, e17", [("A*? B? C", (None, None, None, "E16", "E17")),
                                          ("A+? B? C", ("E16", None, None, None, "E17"))])
def test_reluctant_many(pattern, e17):
    r = Run(KEEPALL + "(measures A[0].theString as a0, A[1].theString as a1, A[2].theString as a2, "
            f"B.theString as b, C.theString as c pattern ({pattern}) define A as A.value = 1, "
            "B as B.value in (1, 2), C as C.value = 3)", "a0,a1,a2,b,c".split(","))
    r.send(("E1", 1), ("E2", 1), ("E3", 1), ("E4", 3))
    assert r.pop() == [("E4", [("E1", "E2", None, "E3", "E4")])]
    r.send(("E11", 1), ("E12", 1), ("E13", 1), ("E14", 1), ("E15", 3))
    assert r.pop() == [("E15", [("E11", "E12", "E13", "E14", "E15")])]
    r.send(("E16", 1), ("E17", 3))
    assert r.pop() == [("E17", [e17])]


def test_alternation_within_concatenation_and_back():
    fields = "a,b,c,d".split(",")
    measures = "measures A.theString as a, B.theString as b, C.theString as c, D.theString as d"
    defines = "define A as A.value = 1, B as B.value = 2, C as C.value = 3, D as D.value = 4"
    r = Run(KEEPALL + f"({measures} all matches pattern (A B | C D) {defines})", fields)
    r.send(("E1", 3), ("E2", 5), ("E3", 4), ("E4", 3), ("E5", 4), ("E1", 1), ("E1", 1), ("E2", 2))
    assert r.pop() == [("E5", [(None, None, "E4", "E5")]), ("E2", [("E1", "E2", None, None)])]
    r = Run(KEEPALL + f"({measures} all matches pattern ((A | B) (C | D)) {defines})", fields)
    r.send(("E1", 3), ("E2", 1), ("E3", 2), ("E4", 5), ("E5", 1), ("E6", 3), ("E7", 2), ("E8", 3))
    assert r.pop() == [("E6", [("E5", None, "E6", None)]), ("E8", [(None, "E7", "E8", None)])]


def test_skip_to_current_row_lets_the_last_row_start_again():
    r = Run(KEEPALL + "(measures A.theString as a, B[0].theString as b0, B[1].theString as b1 "
            "after match skip to current row pattern (A B*) "
            "define A as A.theString like \"A%\", B as B.theString like \"B%\")", ["a", "b0", "b1"])
    assert r.send(("A1", 1), ("B1", 2)).pop() == [("A1", [("A1", None, None)]), ("B1", [("A1", "B1", None)])]


def test_skip_to_next_row_drops_matches_started_at_the_first_row():
    r = Run(KEEPALL + "(measures A.theString as a, B[0].theString as b0, B[1].theString as b1 "
            "after match skip to next row pattern (A B*) "
            "define A as A.theString like 'A%', B as B.theString like 'B%')", ["a", "b0", "b1"])
    assert r.send(("A1", 1), ("B1", 2)).pop() == [("A1", [("A1", None, None)])]


@pytest.mark.parametrize("skip, e6", [("to next row", [("E6", [("E5", "E6")])]), ("past last row", [])])
def test_skip_modes_with_all_matches(skip, e6):
    r = Run(KEEPALL + "(measures A.theString as a, B.theString as b all matches "
            f"after match skip {skip} pattern (A B) define B as B.value > A.value) order by a, b", ["a", "b"])
    r.send(("E1", 5), ("E2", 3), ("E3", 6), ("E4", 4), ("E5", 6), ("E6", 10), ("E7", 9), ("E8", 4))
    assert r.pop() == [("E3", [("E2", "E3")]), ("E5", [("E4", "E5")])] + e6


def test_partition_by_two_keys_with_prev():
    r = Run(KEEPALL + "(partition by theString, cat measures A.theString as s, A.cat as c, A.value as a, "
            "B.value as b all matches pattern (A B) define A as (A.value > PREV(A.value)), "
            "B as (B.value > PREV(B.value))) order by s, c", "s,c,a,b".split(","))
    r.send(("S1", 5, "T1"), ("S2", 110, "T1"), ("S1", 21, "T2"), ("S1", 7, "T1"), ("S2", 111, "T1"),
           ("S1", 20, "T2"), ("S2", 110, "T1"), ("S2", 1000, "T2"), ("S2", 1001, "T2"), ("S1", 9, None),
           ("S1", 9, "T1"), ("S2", 1001, "T2"), ("S2", 109, "T1"), ("S1", 25, "T2"), ("S2", 1002, "T2"),
           ("S2", 1003, "T2"), ("S1", 28, "T2"))
    assert r.pop() == [("S1", [("S1", "T1", 7, 9)]), ("S2", [("S2", "T2", 1002, 1003)]),
                       ("S1", [("S1", "T2", 25, 28)])]


def test_prev_reads_rows_that_left_the_time_window():
    r = Run("@name('s0') select * from SupportRecogBean#time(5 sec) match_recognize (partition by cat "
            "measures A.theString as a all matches pattern (A) define A as PREV(A.value) = (A.value - 1)) "
            "order by a", ["a"])
    r.send(1000, ("E1", 100, "S1"), 2000, ("E2", 100, "S3"), 2500, ("E3", 102, "S2"), 6200, ("E4", 101, "S1"),
           6500, ("E5", 101, "S3"), 7000, ("E6", 102, "S1"), 10000, ("E7", 103, "S2"), ("E8", 102, "S2"),
           ("E8", 101, "S1"), ("E8", 104, "S2"), ("E8", 105, "S1"))
    assert r.pop() == [("E4", [("E4",)]), ("E5", [("E5",)]), ("E6", [("E6",)]), ("E7", [("E7",)])]


def test_unqualified_property_in_define_is_the_defined_variable():
    r = Run("@name('s0') select * from SupportRecogBean match_recognize (measures A.theString as s, "
            "A.value as v all matches pattern (A) define A as PREV(A.theString, 1) = theString)", ["s", "v"])
    r.send(("s1", 1), ("s2", 2), ("s1", 3), ("s3", 4), ("s2", 5), ("s1", 6), ("s1", 7))
    assert r.pop() == [("s1", [("s1", 7)])]


def test_indexed_group_variables_in_defines():
    r = Run("@name('s0') select * from SupportRecogBean match_recognize (measures A.theString as a, "
            "B[0].theString as b0, C.theString as c, D[0].theString as d0, E.theString as e "
            "pattern (A B+ C D+ E) define A as A.theString like 'A%', B as B.theString like 'B%', "
            "C as C.theString like 'C%' and C.value = B[1].value, D as D.theString like 'D%', "
            "E as E.theString like 'E%' and E.value = D[1].value and E.value = D[0].value)",
            "a,b0,c,d0,e".split(","))
    r.send(("A1", 100), ("B1", 50), ("B2", 49), ("C1", 49), ("D1", 2), ("D2", 2), ("E1", 2))
    assert r.pop() == [("E1", [("A1", "B1", "C1", "D1", "E1")])]
    r.send(("A1", 100), ("B1", 50), ("C1", 49), ("D1", 2), ("D2", 2), ("E1", 2))
    r.send(("A1", 100), ("B1", 50), ("B2", 49), ("C1", 49), ("D1", 2), ("D2", 3), ("E1", 2))
    assert r.pop() == []


def test_group_variable_as_event_list_and_empty_group_is_null():
    r = Run("@name('s0') select * from SupportRecogBean match_recognize (measures A as a, B as b "
            "pattern (A? B) define A as A.value = 1, B as B.value = 2)")
    r.send(("E1", 2))
    [(_, [row])] = r.pop()
    assert row["a"] is None and row["b"].get("theString") == "E1"
    r = Run("@name('s0') select * from SupportRecogBean match_recognize (measures A as a, A.countOf() as n "
            "pattern (A{3}) define A as A.value > prev(A.value))")
    r.send(("A1", 1), ("A2", 4), ("A3", 2), ("A4", 6), ("A5", 5), ("A6", 6), ("A7", 7), ("A9", 8))
    [(_, [row])] = r.pop()
    assert [b.get("theString") for b in row["a"]] == ["A6", "A7", "A9"] and row["n"] == 3


REPEAT_CASES = [
    # pattern, properties (array?), sequences that match, sequences that do not (Esper's suite)
    ("A{2}", "a", [1], ["A1,A2", "A3,A4"], ["A5"]),
    ("A B{2} C", "a,b,c", [0, 1, 0], ["A1,B1,B2,C1"], ["B1,B2,C1", "A1,B1,C1", "A1,B1,B2"]),
    ("A (B{2}|C{2})", "a,b,c", [0, 1, 1], ["A1,C1,C2", "A2,B1,B2"], ["B1,B2", "C1,C2", "A1,B1,C1", "A1,C1,B1"]),
    ("A{2,3} B", "a,b", [1, 0], ["A1,A2,A3,B1", "A1,A2,B1"], ["A1,B1", "A1,A2", "B1"]),
    ("A{,2} B", "a,b", [1, 0], ["B1", "A1,B1", "A1,A2,B1"], ["A1"]),
    ("A{2,} B", "a,b", [1, 0], ["A1,A2,B1", "A1,A2,A3,B1"], ["A1,B1", "B1"]),
    ("(A B){2}", "a,b", [1, 1], ["A1,B1,A2,B2"], ["A1,A2,B1", "A1,A2,B1,B2", "A1,B1,B2,A2"]),
    ("A (B C){2}", "a,b,c", [0, 1, 1], ["A1,B1,C1,B2,C2"], ["A1,B1,C1,B2", "A1,B1,C1,C2", "A1,B1,B2,C1,C2"]),
    ("(A B){1,2} C", "a,b,c", [1, 1, 0], ["A1,B1,C1", "A1,B1,A2,B2,C1"], ["C1", "A1,A2,C2", "B1,A1,C1"]),
    ("(A B){,2} C", "a,b,c", [1, 1, 0], ["C1", "A1,B1,C1", "A1,B1,A2,B2,C1"], ["A1,B1,A2,B2", "A1,A2"]),
    ("(A B){2,} C", "a,b,c", [1, 1, 0], ["A1,B1,A2,B2,C1", "A1,B1,A2,B2,A3,B3,C1"],
     ["A1,B1,C1", "A1,B1,A2,C1", "B1,A1,B2,C1"]),
]


@pytest.mark.parametrize("pattern, props, arrays, matches, nomatches", REPEAT_CASES)
def test_repetition(pattern, props, arrays, matches, nomatches):
    props = props.split(",")
    measures = ", ".join(f"{p.upper()} as {p}" for p in props)
    defines = ", ".join(f"{p.upper()} as {p.upper()}.theString like \"{p.upper()}%\"" for p in props)
    r = Run(f"@name('s0') select * from SupportRecogBean match_recognize (partition by value "
            f"measures {measures} pattern ({pattern}) define {defines})")
    seq = 0
    for sequences, match in ((matches, True), (nomatches, False)):
        for sq in sequences:
            sent: dict = {}
            for name in sq.split(","):
                r.send((name, seq))
                sent.setdefault(name[0].lower(), []).append(name)
            got = r.pop()
            if not match:
                assert got == [], sq
                seq += 1
                continue
            [(_, [row])] = got
            for p, arr in zip(props, arrays):
                v = row[p]
                if arr:
                    assert (None if v is None else [b.get("theString") for b in v]) == sent.get(p), sq
                else:
                    assert (v.get("theString") if v is not None else None) == (sent[p][0] if p in sent else None)
            seq += 1


EQUIVALENT = [
    ("A{1}", "A"), ("A{3}", "A A A"), ("A?{2}", "A? A?"), ("A+{2}", "A+ A+"), ("A*?{2}", "A*? A*?"),
    ("(A B)?{2}", "(A B)? (A B)?"), ("A{1, 3}", "A A? A?"), ("A+{1, 3}", "A+ A* A*"),
    ("A+?{1, 3}", "A+? A*? A*?"), ("A??{2,}", "A?? A?? A*?"), ("A+{2,}", "A+ A+ A*"),
    ("A+{,2}", "A* A*"), ("(A B){,2}", "(A B)? (A B)?"), ("((A|B){2} (C|D){2}){2}",
                                                         "((A|B) (A|B) (C|D) (C|D)) ((A|B) (A|B) (C|D) (C|D))"),
    ("match_recognize_permute(A)", "(A)"), ("match_recognize_permute(A,B)", "(A B|B A)"),
    ("match_recognize_permute(A,B,C)", "(A B C|A C B|B A C|B C A|C A B|C B A)"),
    ("A match_recognize_permute(B,C) D", "A (B C|C B) D"),
    ("match_recognize_permute(A, match_recognize_permute(B, C))", "(A (B C|C B)|(B C|C B) A)"),
]


def _expanded(pattern: str):
    from epl import parse
    from epl.compiler.rowrecog import _tree
    node = parse(f"select * from T match_recognize (pattern ({pattern}))").from_.match_recognize

    def flat(t):   # a nested concatenation is the same concatenation
        if t[0] == "cat":
            items = []
            for i in t[1]:
                i = flat(i)
                items.extend(i[1] if i[0] == "cat" else [i])
            return ("cat", tuple(items)) if len(items) != 1 else items[0]
        if t[0] == "alt":
            return ("alt", tuple(flat(i) for i in t[1])) if len(t[1]) != 1 else flat(t[1][0])
        if t[0] == "var":
            return t
        return (t[0], flat(t[1]), t[2])
    return flat(_tree(node.pattern, [], {}, set(), False))


@pytest.mark.parametrize("before, after", EQUIVALENT)
def test_repetition_and_permutation_equivalences(before, after):
    assert _expanded(before) == _expanded(after)


def test_permutation_matches_every_order():
    import itertools
    r = Run("@name('s0') select * from SupportRecogBean match_recognize (partition by value "
            "measures A.theString as a, B.theString as b, C.theString as c "
            "pattern (match_recognize_permute(A, B, C)) define A as A.theString like \"A%\", "
            "B as B.theString like \"B%\", C as C.theString like \"C%\")", ["a", "b", "c"])
    for count, perm in enumerate(itertools.permutations(range(3))):
        expected = [None] * 3
        for i in perm:
            expected[i] = "ABC"[i] + str(count)
            r.send((expected[i], count))
        assert r.pop() == [(expected[perm[-1]], [tuple(expected)])]


def test_only_an_insert_stream_and_order_by_over_one_delivery():
    r = Run("@name('s0') select irstream * from SupportRecogBean#time_batch(5 sec) match_recognize "
            "(partition by cat measures A.theString as a, B.theString as b, C.theString as c all matches "
            "pattern ((A | B) C) define A as A.theString like 'A%', B as B.theString like 'B%', "
            "C as C.theString like 'C%' and C.value in (A.value, B.value)) order by a", ["a", "b", "c"])
    r.send(50, ("A1", 1, "001"), ("B1", 1, "002"), ("B2", 4, "002"), 4000, ("C1", 4, "002"), ("C2", 5, "002"),
           ("B3", -1, "003"), 5050, 6000, ("C3", -1, "003"), ("C4", 1, "001"), 10050, 14000,
           ("A2", 0, "002"), ("B4", 10, "003"), ("C5", 0, "002"), ("C6", 10, "003"), 15050)
    assert [(label, rows, old) for label, rows, old in r.deliveries] == [
        ("t=5050", [(None, "B2", "C1")], ()),            # an empty remove stream is ()
        ("t=15050", [(None, "B4", "C6"), ("A2", None, "C5")], ())]


def test_select_list_where_and_insert_into_over_measures():
    r = Run("insert into Falls select sym, first_price - last_price as drop from SupportRecogBean "
            "match_recognize (partition by cat measures A.cat as sym, A.value as first_price, "
            "last(B.value) as last_price pattern (A B+ C) define B as B.value < prev(B.value), "
            "C as C.value > prev(C.value))",
            setup=[], engine=None)
    falls = r.engine.epl("select * from Falls where drop > 2")
    got = []
    falls.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    r.send(("x", 10, "S"), ("x", 8, "S"), ("x", 5, "S"), ("x", 6, "S"), ("x", 10, "T"), ("x", 9, "T"), ("x", 11, "T"))
    assert got == [{"sym": "S", "drop": 5}]
    assert [rows for _, rows in r.pop()] == [[{"sym": "S", "drop": 5}], [{"sym": "T", "drop": 1}]]


def test_financial_data_set_all_matches_skip_to_current_row():
    """Esper's data set: with `to current row` no partial match is dropped, so matches of
    several first rows end at the same row, and again at the next rows."""
    r = Run("@name('s0') select * from SupportRecogBean match_recognize (measures A.theString as beginA, "
            "last(Z.theString) as lastZ all matches after match skip to current row pattern (A W+ X+ Y+ Z+) "
            "define W as W.value < prev(W.value), X as X.value > prev(X.value), "
            "Y as Y.value < prev(Y.value), Z as Z.value > prev(Z.value))", ["beginA", "lastZ"])
    values = [8, 8, 8, 6, 3, 7, 6, 2, 6, 2, 9, 9, 8, 5, 0, 9, 2, 0, 2, 3, 8, 5, 9, 9, 4, 7, 2, 8, 0, 4, 4, 7, 8,
              6, 4, 5, 1, 7, 5, 8, 6, 6, 0, 6, 8, 4, 3, 8, 2, 5, 3, 3, 9, 8, 5, 5, 9, 7, 3, 3]
    r.send(*[(f"E{i + 1}", v) for i, v in enumerate(values)])
    got = {label: sorted(a for a, _ in rows) for label, rows in r.pop()}
    assert got == {"E9": ["E3", "E4"], "E11": ["E6", "E7"], "E19": ["E12", "E13", "E14"],
                   "E20": ["E12", "E13", "E14"], "E21": ["E12", "E13", "E14"], "E23": ["E16", "E17"],
                   "E28": ["E24"], "E30": ["E26"], "E38": ["E33", "E34"], "E40": ["E36"], "E48": ["E42"],
                   "E50": ["E45", "E46"]}


def test_data_set_with_prev_and_a_variable_without_define():
    cols = ["a", "b", "c0", "d", "e0", "e1", "f0", "f1"]
    r = Run("@name('s0') select * from SupportRecogBean#keepall MATCH_RECOGNIZE (MEASURES A.theString AS a, "
            "B.theString AS b, C[0].theString AS c0, D.theString AS d, E[0].theString AS e0, "
            "E[1].theString AS e1, F[0].theString AS f0, F[1].theString AS f1 ALL MATCHES "
            "after match skip to current row PATTERN (A B C* D E* F+) DEFINE /* A is always true */ "
            "B AS (B.value < PREV (B.value)), C AS (C.value <= PREV (C.value)), D AS (D.value < PREV (D.value)), "
            "E AS (E.value >= PREV (E.value)), F AS (F.value >= PREV (F.value) and F.value > A.value))", cols)
    r.send(("E1", 100), ("E2", 98), ("E3", 75), ("E4", 61), ("E5", 50), ("E6", 49), ("E7", 64), ("E8", 78), ("E9", 84))
    got = {label: sorted(rows, key=repr) for label, rows in r.pop()}
    n = None
    assert got == {
        "E7": [("E4", "E5", n, "E6", n, n, "E7", n)],
        "E8": sorted([("E3", "E4", "E5", "E6", "E7", n, "E8", n), ("E4", "E5", n, "E6", "E7", n, "E8", n),
                      ("E4", "E5", n, "E6", n, n, "E7", "E8")], key=repr),
        "E9": sorted([("E3", "E4", "E5", "E6", "E7", n, "E8", "E9"), ("E3", "E4", "E5", "E6", "E7", "E8", "E9", n),
                      ("E4", "E5", n, "E6", "E7", "E8", "E9", n), ("E4", "E5", n, "E6", "E7", n, "E8", "E9"),
                      ("E4", "E5", n, "E6", n, n, "E7", "E8")], key=repr)}


def test_measures_call_methods_on_group_variables():
    r = Run("@name('s0') select * from SupportRecogBean match_recognize (measures A as a, A.theString as id, "
            "100 + B.size() as val pattern (A B*) interval 1 minute define A as (A.value = 1), B as (B.value = 2))",
            ["id", "val"])
    r.send(("E1", 1), ("E2", 2), 120_000)
    assert r.pop() == [("t=120000", [("E1", 101)])]


def test_partition_by_an_array_and_by_several_values():
    from engine import Engine
    e = Engine(time="simulated")
    e.epl("create schema WithArray(id string, array int[], value int)")
    s = e.epl("select * from WithArray match_recognize (partition by array measures A.id as a, B.id as b "
              "pattern (A B) define A as A.value = 1, B as B.value = 2)")
    got = []
    s.add_listener(lambda new, old: got.extend((b.get("a"), b.get("b")) for b in new))
    for id_, arr, v in [("E1", [1, 2], 1), ("E2", [1], 1), ("E3", None, 1), ("E4", [], 1),
                        ("E10", [1, 2], 2), ("E11", [], 2), ("E12", [1], 2), ("E13", None, 2)]:
        e.send({"id": id_, "array": arr, "value": v}, "WithArray")
    assert got == [("E1", "E10"), ("E4", "E11"), ("E2", "E12"), ("E3", "E13")]
