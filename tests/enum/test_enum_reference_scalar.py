"""Esper's reference examples of every enumeration method on scalar arrays (`{1, 2, 3}.m(...)`),
with the outputs Esper documents for them (Java's `Integer.toString(x)` written as
`cast(x, string)`)."""
from __future__ import annotations

import pytest

from engine import Engine

EXAMPLES = [
    ("{1, 2, 3}.aggregate(0, (result, value) => result + value)", 6),
    ("{1, 2, 3}.aggregate(0, (result, value, index) => result + value + index*10)", 36),
    ("{1, 2, 3}.aggregate(0, (result, value, index, size) => result + value + index*10 + size*100)", 936),
    ("{1, 2, 3}.allOf(v => v > 0)", True),
    ("{1, 2, 3}.allOf(v => v > 1)", False),
    ("{1, 2, 3}.allOf((v, index) => case when index < 2 then true else v > 1 end)", True),
    ("{1, 2, 3}.allOf((v, index, size) => v > 1 or size >= 3)", True),
    ("{1, 2, 3}.anyOf(v => v > 1)", True),
    ("{1, 2, 3}.anyOf(v => v > 3)", False),
    ("{1, 2, 3}.anyOf( (v, index) => case when index < 2 then false else v = 3 end)", True),
    ("{1, 2, 3}.anyOf( (v, index, size) => v > 100 or size >= 3)", True),
    ("{1, 2, 3}.average()", 2.0),
    ("{1, 2, 3}.average(v => v+1)", 3.0),
    ("{1, 2, 3}.average((v, index) => v+10*index)", 12.0),
    ("{1, 2, 3}.average((v, index, size) => v+10*index + 100*size)", 312.0),
    ("{1, 2, 3}.countOf()", 3),
    ("{1, 2, 3}.countOf(v => v < 2)", 1),
    ("{1, 2, 3}.countOf( (v, index) => v > index)", 3),
    ("{1, 2, 3}.countOf( (v, index, size) => v >= size)", 1),
    ("{1, 2, 3}.except({1})", [2, 3]),
    ("{1, 2, 3}.intersect({2,3})", [2, 3]),
    ("{1, 2, 3}.firstOf()", 1),
    ("{1, 2, 3}.firstOf(v => v / 2 = 1)", 2),
    ("{1, 2, 3}.firstOf((v, index) => index = 1)", 2),
    ("{1, 2, 3}.firstOf((v, index, size) => v = size-1)", 2),
    ("{1, 2, 3}.lastOf()", 3),
    ("{1, 2, 3}.lastOf(v => v < 3)", 2),
    ("{1, 2, 3}.lastOf((v, index) => index < 2 )", 2),
    ("{1, 2, 3}.lastOf((v, index, size) => index < size - 2 )", 1),
    ("{1, 2, 3, 2, 1}.leastFrequent()", 3),
    ("{1, 2, 3, 2, 1}.leastFrequent(v => case when v = 3 then 4 else v end)", 4),
    ("{1, 2, 3, 2, 1}.leastFrequent((v, index) => case when index = 2 then 4 else v end)", 4),
    ("{1, 2, 3, 2, 1}.leastFrequent((v, index, size) => case when index = size - 2 then 4 else v end)", 2),
    ("{1, 2, 3, 2, 1}.max()", 3),
    ("{1, 2, 3, 2, 1}.max(v => case when v >= 3 then 0 else v end)", 2),
    ("{1, 2, 3, 2, 1}.max((v, index) => case when index = 2 then 0 else v end)", 2),
    ("{1, 2, 3, 2, 1}.max((v, index, size) => case when index > size - 4 then 0 else v end)", 2),
    ("{1, 2, 3, 2, 1}.min()", 1),
    ("{1, 2, 3, 2, 1}.min(v => v + 1)", 2),
    ("{1, 2, 3, 2, 1}.min((v, index) => v - index)", -3),
    ("{1, 2, 3, 2, 1}.min((v, index, size) => v - size)", -4),
    ("{1, 2, 3, 2, 1, 2}.mostFrequent()", 2),
    ("{1, 2, 3, 2, 1, 2}.mostFrequent(v => case when v = 2 then 10 else v end)", 10),
    ("{1, 2, 3, 2, 1, 2}.mostFrequent((v, index) => case when index > 2 then 4 else v end)", 4),
    ("{1, 2, 3, 2, 1, 2}.mostFrequent((v, index, size) => case when size > 3 then 0 else v end)", 0),
    ("{2, 3, 2, 1}.orderBy()", [1, 2, 2, 3]),
    ("{2, 3, 2, 1}.orderBy(v => -v)", [3, 2, 2, 1]),
    ("{2, 3, 2, 1}.orderBy((v, index) => index)", [2, 3, 2, 1]),
    ("{2, 3, 2, 1}.orderBy((v, index, size) => case when index < size - 2 then v else -v end)", [2, 1, 2, 3]),
    ("{2, 3, 2, 1}.distinctOf()", [2, 3, 1]),
    ("{2, 3, 2, 1}.distinctOf(v => case when v > 1 then 0 else -1 end)", [2, 1]),
    ("{2, 3, 2, 1}.distinctOf((v, index) => case when index = 0 then 1 else 2 end)", [2, 3]),
    ("{2, 3, 2, 1}.distinctOf((v, index, size) => case when index+1=size then 1 else 2 end)", [2, 1]),
    ("{2, 3, 2, 1}.reverse()", [1, 2, 3, 2]),
    ("{1, 2, 3}.sequenceEqual({1})", False),
    ("{1, 2, 3}.sequenceEqual({1, 2, 3})", True),
    ("{1, 2, 3}.sumOf()", 6),
    ("{1, 2, 3}.sumOf(v => v+1)", 9),
    ("{1, 2, 3}.sumOf((v, index) => v + index)", 9),
    ("{1, 2, 3}.sumOf((v, index, size) => v+index+size)", 18),
    ("{1, 2, 3}.take(2)", [1, 2]),
    ("{1, 2, 3}.takeLast(2)", [2, 3]),
    ("{1, 2, 3}.takeWhile(v => v < 3)", [1, 2]),
    ("{1, 2, 3}.takeWhile((v,ind) => ind < 2)", [1, 2]),
    ("{1, 2, -1, 4, 5, 6}.takeWhile((v,ind) => ind < 5 and v > 0)", [1, 2]),
    ("{1, 2, -1, 4, 5, 6}.takeWhile((v,ind,sz) => ind < sz - 5 and v > 0)", [1]),
    ("{1, 2, 3}.takeWhileLast(v => v > 1)", [2, 3]),
    ("{1, 2, 3}.takeWhileLast((v,ind) => ind < 2)", [2, 3]),
    ("{1, 2, -1, 4, 5, 6}.takeWhileLast((v,ind) => ind < 5 and v > 0)", [4, 5, 6]),
    ("{1, 2, -1, 4, 5, 6}.takeWhileLast((v,ind,sz) => ind < sz-4 and v > 0)", [5, 6]),
    ("{1, 2, 3}.union({4, 5})", [1, 2, 3, 4, 5]),
    ("{1, 2, 3}.where(v => v != 2)", [1, 3]),
    ("{1, 2, 3}.where((v, index) => v != 2 and index < 2)", [1]),
    ("{1, 2, 3}.where((v, index, size) => v != 2 and index < size - 2)", [1]),
    ("{1, 2, 3}.groupby(k => 'K' || cast(k, string))", {"K1": [1], "K2": [2], "K3": [3]}),
    ("{1, 2, 3}.groupby(k => 'K' || cast(k, string), v => 'V' || cast(v, string))",
     {"K1": ["V1"], "K2": ["V2"], "K3": ["V3"]}),
    ("{1, 2, 3}.groupby((k, i) => 'K' || cast(k, string) || \"_\" || cast(i, string), "
     "(v, i) => 'V' || cast(v, string) || \"_\" || cast(i, string))",
     {"K1_0": ["V1_0"], "K2_1": ["V2_1"], "K3_2": ["V3_2"]}),
    ("{1, 2, 3}.groupby((k, i, s) => 'K' || cast(k, string) || \"_\" || cast(s, string), "
     "(v, i, s) => 'V' || cast(v, string) || \"_\" || cast(s, string))",
     {"K1_3": ["V1_3"], "K2_3": ["V2_3"], "K3_3": ["V3_3"]}),
    ("{1, 2, 3, 2, 1}.maxby(v => v)", 3),
    ("{1, 2, 3, 2, 1}.maxby((v, index) => case when index < 3 then -1 else 0 end)", 2),
    ("{1, 2, 3, 2, 1}.maxby((v, index, size) => case when index < size - 2 then -1 else 0 end)", 2),
    ("{1, 2, 3, 2, 1}.minby(v => v)", 1),
    ("{1, 2, 3, 2, 1}.minby((v, index) => case when index < 3 then -1 else 0 end)", 1),
    ("{1, 2, 3, 2, 1}.minby((v, index, size) => case when index < size - 2 then -1 else 0 end)", 1),
    ("{'A','B','C'}.selectFrom(v => '<' || v || '>')", ["<A>", "<B>", "<C>"]),
    ("{'A','B','C'}.selectFrom((v, index) => v || '_' || cast(index, string))", ["A_0", "B_1", "C_2"]),
    ("{'A','B','C'}.selectFrom((v, index, size) => v || '_' || cast(size, string))", ["A_3", "B_3", "C_3"]),
    ("{1, 2, 3}.arrayOf()", [1, 2, 3]),
    ("{1, 2, 3}.arrayOf(v => v+1)", [2, 3, 4]),
    ("{1, 2, 3}.arrayOf((v, index) => v+index)", [1, 3, 5]),
    ("{1, 2, 3}.arrayOf((v, index, size) => v+index+size)", [4, 6, 8]),
    ("{1, 2, 3}.toMap(k => 'K' || cast(k, string), v => 'V' || cast(v, string))", {"K1": "V1", "K2": "V2", "K3": "V3"}),
    ("{1, 2, 3}.toMap((k, i) => 'K' || cast(k, string) || \"_\" || cast(i, string), "
     "(v, i) => 'V' || cast(v, string) || \"_\" || cast(i, string))", {"K1_0": "V1_0", "K2_1": "V2_1", "K3_2": "V3_2"}),
]


@pytest.fixture(scope="module")
def engine() -> Engine:
    e = Engine(time="simulated")
    e.epl("create schema SupportBean(theString string, intPrimitive int)")
    return e


@pytest.mark.parametrize("expr,expected", EXAMPLES, ids=[x for x, _ in EXAMPLES])
def test_reference_example(engine, expr, expected):
    stmt = engine.epl(f"select {expr} as result from SupportBean")
    got: list = []
    stmt.add_listener(lambda new, old: got.extend(b.get("result") for b in new))
    engine.send({"theString": "E1", "intPrimitive": 0}, "SupportBean")
    stmt.destroy()
    result = got[0]
    if isinstance(expected, list):
        result = list(result)
    assert result == expected
    assert type(result) is type(expected)
