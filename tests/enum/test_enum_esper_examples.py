"""Each enumeration method against the outputs Esper documents for it (its reference and
regression examples, with the support beans as map schemas: `contained` holds Item events
`id,p00`, `strvals` strings, `extractNum('E12')` is 12)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Optional

import pytest

from engine import Engine
from engine.bean import EventBean


def _items(*specs: str) -> Optional[list]:
    out = []
    for s in specs:
        i, p = s.split(",")
        out.append({"id": i, "p00": int(p)})
    return out


def _strs(csv: Optional[str]) -> Optional[list]:
    if csv is None:
        return None
    return csv.split(",") if csv else []


@pytest.fixture()
def engine() -> Engine:
    e = Engine(time="simulated")
    e.epl("create schema Item(id string, p00 int)")
    e.epl("create schema Box(contained Item[], containedTwo Item[], strvals string[], strvalstwo string[])")
    e.register_function("extractNum", lambda s: int(s[1:]), "int")
    return e


def evaluate(engine: Engine, exprs: list[str], event: dict) -> list:
    cols = ", ".join(f"{x} as c{i}" for i, x in enumerate(exprs))
    stmt = engine.epl(f"select {cols} from Box")
    got: list = []
    stmt.add_listener(lambda new, old: got.extend(new))
    full = {"contained": None, "containedTwo": None, "strvals": None, "strvalstwo": None, **event}
    engine.send(full, "Box")
    stmt.destroy()
    row = got[0]
    return [_plain(row.get(f"c{i}")) for i in range(len(exprs))]


def _plain(v: Any) -> Any:
    if isinstance(v, EventBean):
        v = v.to_dict()
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict) and "id" in v and "p00" in v:
        return v["id"]           # an Item event: its id, as Esper's assertST0Id does
    return v


def ids(csv: str) -> list:
    return csv.split(",") if csv else []


def test_aggregate(engine):
    exprs = ["contained.aggregate(0, (result, item) => result + item.p00)",
             "contained.aggregate('', (result, item) => result || ', ' || item.id)",
             "contained.aggregate('', (result, item) => result || (case when result='' then '' else ',' end) || item.id)",
             "contained.aggregate(0, (result, item, i) => result + item.p00 + i*10)",
             "contained.aggregate(0, (result, item, i, s) => result + item.p00 + i*10 + s*100)",
             "contained.aggregate(0, (result, item) => null)"]
    assert evaluate(engine, exprs, {"contained": _items("E1,12", "E2,11", "E2,2")}) == \
        [25, ", E1, E2, E2", "E1,E2,E2", 12 + 21 + 22, 312 + 321 + 322, None]
    assert evaluate(engine, exprs, {}) == [None] * 6
    assert evaluate(engine, exprs, {"contained": []}) == [0, "", "", 0, 0, 0]
    assert evaluate(engine, exprs, {"contained": _items("E1,12")}) == [12, ", E1", "E1", 12, 112, None]


def test_aggregate_scalar(engine):
    exprs = ["strvals.aggregate('', (result, item) => result || '+' || item)",
             "strvals.aggregate('', (result, item, i, s) => null)"]
    assert evaluate(engine, exprs, {"strvals": _strs("E1,E2,E3")}) == ["+E1+E2+E3", None]
    assert evaluate(engine, exprs, {"strvals": []}) == ["", ""]


def test_sum_of(engine):
    exprs = ["contained.sumOf(x => p00)", "contained.sumOf((x, i) => p00 + i*10)",
             "contained.sumOf((x, i, s) => p00 + i*10 + s*100)",
             "contained.sumOf((x, i) => case when i = 1 then null else 1 end)"]
    assert evaluate(engine, exprs, {"contained": _items("E1,10", "E2,11")}) == [21, 31, 431, 1]
    assert evaluate(engine, exprs, {"contained": []}) == [None] * 4
    assert evaluate(engine, ["{1L, 2L, null}.sumOf()", "{1d, 2d}.sumOf()"], {}) == [3, 3.0]
    assert evaluate(engine, ["strvals.sumOf(v => extractNum(v))", "strvals.sumOf((v, i, s) => extractNum(v) + i*10 + s*100)"],
                    {"strvals": _strs("E2,E1,E5,E4")}) == [12, 402 + 411 + 425 + 434]


def test_average(engine):
    exprs = ["strvals.average(v => extractNum(v))", "strvals.average((v, i) => extractNum(v) + i*10)",
             "strvals.average((v, i, s) => case when i = 1 then null else 2 end)"]
    assert evaluate(engine, exprs, {"strvals": _strs("E2,E1,E5,E4")}) == \
        [(2 + 1 + 5 + 4) / 4, (2 + 11 + 25 + 34) / 4, 2.0]
    assert evaluate(engine, exprs, {"strvals": []}) == [None] * 3
    assert evaluate(engine, ["{1, null, 3}.average()"], {}) == [2.0]


def test_average_decimal(engine):
    engine.register_function("extractBigDecimal", lambda s: Decimal(s[1:]), "BigDecimal")
    assert evaluate(engine, ["strvals.average(v => extractBigDecimal(v))"],
                    {"strvals": _strs("E2,E1,E5,E4")}) == [Decimal(3)]


def test_min_max(engine):
    exprs = ["contained.min(x => p00)", "contained.max(x => p00)", "contained.min((x, i) => p00 + i*10)",
             "contained.max((x, i) => p00 + i*10)", "contained.min((x, i, s) => p00 + i*10 + s*100)",
             "contained.max((x, i, s) => p00 + i*10 + s*100)"]
    assert evaluate(engine, exprs, {"contained": _items("E1,12", "E2,11", "E2,2")}) == [2, 12, 12, 22, 312, 322]
    assert evaluate(engine, exprs, {"contained": []}) == [None] * 6
    assert evaluate(engine, ["strvals.min()", "strvals.max()", "strvals.min(v => extractNum(v))"],
                    {"strvals": _strs("E2,E1,E5,E4")}) == ["E1", "E5", 1]


def test_min_by_max_by(engine):
    exprs = ["contained.minBy(x => p00)", "contained.maxBy(x => p00)", "contained.minBy(x => p00).id"]
    assert evaluate(engine, exprs, {"contained": _items("E1,12", "E2,11", "E2,2")}) == ["E2", "E1", "E2"]
    assert evaluate(engine, exprs, {"contained": []}) == [None] * 3


def test_most_least_frequent(engine):
    exprs = ["contained.mostFrequent(x => p00)", "contained.leastFrequent(x => p00)",
             "contained.mostFrequent((x, i, s) => p00 + i*2 + s*4)"]
    assert evaluate(engine, exprs, {"contained": _items("E1,12", "E2,11", "E2,2", "E3,12")}) == [12, 11, 28]
    assert evaluate(engine, exprs, {"contained": _items("E1,12", "E2,11", "E2,2", "E3,12", "E1,12", "E2,11", "E3,11")}) == [12, 2, 40]
    assert evaluate(engine, exprs, {"contained": _items("E2,11", "E1,12", "E2,15", "E3,12", "E1,12", "E2,11", "E3,11")}) == [11, 15, 39]
    assert evaluate(engine, ["strvals.mostFrequent()", "strvals.leastFrequent()"],
                    {"strvals": _strs("E2,E1,E2,E1,E3,E3,E4,E3")}) == ["E3", "E4"]


def test_order_by(engine):
    exprs = ["contained.orderBy(x => p00)", "contained.orderBy(x => 10 - p00)", "contained.orderBy(x => 0)",
             "contained.orderByDesc(x => p00)", "contained.orderByDesc(x => 10 - p00)", "contained.orderByDesc(x => 0)"]
    assert evaluate(engine, exprs, {"contained": _items("E3,1", "E2,2", "E4,1", "E1,2")}) == [
        ids("E3,E4,E2,E1"), ids("E2,E1,E3,E4"), ids("E3,E2,E4,E1"),
        ids("E2,E1,E3,E4"), ids("E3,E4,E2,E1"), ids("E3,E2,E4,E1")]
    plus = ["contained.orderBy((x, i) => case when i <= 2 then p00 else i-10 end)",
            "contained.orderByDesc((x, i) => case when i <= 2 then p00 else i-10 end)"]
    assert evaluate(engine, plus, {"contained": _items("E1,1", "E2,2", "E3,3", "E4,4")}) == [
        ids("E4,E1,E2,E3"), ids("E3,E2,E1,E4")]
    scalar = ["strvals.orderBy()", "strvals.orderByDesc()",
              "strvals.orderBy((v, i) => case when i <= 2 then extractNum(v) else i-10 end)"]
    assert evaluate(engine, scalar, {"strvals": _strs("E2,E1,E5,E4")}) == [
        ids("E1,E2,E4,E5"), ids("E5,E4,E2,E1"), ids("E4,E1,E2,E5")]


def test_take_and_take_last(engine):
    exprs = ["contained.take(2)", "contained.take(1)", "contained.take(0)", "contained.take(-1)",
             "contained.takeLast(2)", "contained.takeLast(1)"]
    assert evaluate(engine, exprs, {"contained": _items("E1,1", "E2,2", "E3,3")}) == [
        ids("E1,E2"), ids("E1"), [], [], ids("E2,E3"), ids("E3")]
    assert evaluate(engine, exprs, {}) == [None] * 6


def test_take_while(engine):
    exprs = ["contained.takeWhile(x => x.p00 > 0)", "contained.takeWhileLast(x => x.p00 > 0)",
             "contained.takeWhile((x, i) => x.p00 > 0 and i<2)", "contained.takeWhileLast((x, i) => x.p00 > 0 and i<2)",
             "contained.takeWhile((x, i, s) => x.p00 > 0 and i<s-2)", "contained.takeWhileLast((x, i, s) => x.p00 > 0 and i<s-2)"]
    assert evaluate(engine, exprs, {"contained": _items("E1,1", "E2,2", "E3,3")}) == [
        ids("E1,E2,E3"), ids("E1,E2,E3"), ids("E1,E2"), ids("E2,E3"), ids("E1"), ids("E3")]
    assert evaluate(engine, exprs, {"contained": _items("E1,1", "E2,0", "E3,3")}) == [
        ids("E1"), ids("E3"), ids("E1"), ids("E3"), ids("E1"), ids("E3")]
    scalar = ["strvals.takeWhile(x => x != 'E1')", "strvals.takeWhileLast(x => x != 'E1')",
              "strvals.takeWhileLast((x, i) => x != 'E1' and i<2)"]
    assert evaluate(engine, scalar, {"strvals": _strs("E1,E2,E3,E4")}) == [[], ids("E2,E3,E4"), ids("E3,E4")]


def test_distinct_of(engine):
    exprs = ["contained.distinctOf(x => p00)", "contained.distinctOf((x, i) => case when i<2 then p00 else -1*p00 end)",
             "contained.distinctOf((x, i, s) => case when s<=2 then p00 else 0 end)", "contained.distinctOf(x => null)"]
    assert evaluate(engine, exprs, {"contained": _items("E3,1", "E2,2", "E4,1", "E1,2")}) == [
        ids("E3,E2"), ids("E3,E2,E4,E1"), ids("E3"), ids("E3")]
    assert evaluate(engine, ["strvals.distinctOf()", "strvals.distinctOf((v, i) => case when i<2 then extractNum(v) else 0 end)"],
                    {"strvals": _strs("E2,E1,E2,E2")}) == [ids("E2,E1"), ids("E2,E1,E2")]


def test_except_intersect_union(engine):
    exprs = ["contained.except(containedTwo)", "contained.intersect(containedTwo)", "contained.union(containedTwo)"]
    first = _items("E1,1", "E2,10", "E3,1", "E4,10", "E5,11")
    second = _items("E1,1", "E3,1", "E4,10")
    assert evaluate(engine, exprs, {"contained": first, "containedTwo": second}) == [
        ids("E2,E5"), ids("E1,E3,E4"), ids("E1,E2,E3,E4,E5,E1,E3,E4")]
    scalar = ["strvals.except(strvalstwo)", "strvals.intersect(strvalstwo)", "strvals.union(strvalstwo)"]
    assert evaluate(engine, scalar, {"strvals": _strs("E1,E3,E5"), "strvalstwo": _strs("E3,E4")}) == [
        ids("E1,E5"), ids("E3"), ids("E1,E3,E5,E3,E4")]
    assert evaluate(engine, scalar, {"strvals": [], "strvalstwo": _strs("E3,E4")}) == [[], [], ids("E3,E4")]
    assert evaluate(engine, scalar, {"strvalstwo": _strs("E3,E4")}) == [None, None, None]


def test_select_from(engine):
    assert evaluate(engine, ["contained.selectFrom(x => id)", "strvals.selectFrom((v, i) => v || '_' || cast(i, string))",
                             "strvals.selectFrom(v => extractNum(v))"],
                    {"contained": _items("E1,12", "E2,11", "E3,2"), "strvals": _strs("E1,E2,E3")}) == [
        ids("E1,E2,E3"), ["E1_0", "E2_1", "E3_2"], [1, 2, 3]]


def test_where_count_first_last_all_any(engine):
    exprs = ["contained.where(x => p00 = 9)", "contained.where((x, i) => x.p00 = 9 and i >= 1)",
             "contained.countOf(x => p00 = 9)", "contained.firstOf(x => p00 = 9)", "contained.lastOf(x => p00 = 9)",
             "contained.allOf(x => p00 = 9)", "contained.anyOf(x => p00 = 9)", "contained.countOf()",
             "contained.firstOf()", "contained.lastOf()"]
    assert evaluate(engine, exprs, {"contained": _items("E1,1", "E2,9", "E3,9")}) == [
        ids("E2,E3"), ids("E2,E3"), 2, "E2", "E3", False, True, 3, "E1", "E3"]
    assert evaluate(engine, exprs, {"contained": []}) == [[], [], 0, None, None, True, False, 0, None, None]


def test_group_by_to_map_array_of_sequence_equal_reverse(engine):
    exprs = ["contained.groupBy(c => id)", "contained.groupBy(c => id, c => p00)",
             "contained.toMap(c => id, c => p00)", "contained.arrayOf(c => p00)",
             "strvals.sequenceEqual(strvalstwo)", "contained.reverse()"]
    got = evaluate(engine, exprs, {"contained": _items("E1,1", "E2,2", "E1,3"),
                                   "strvals": _strs("E1,E2"), "strvalstwo": _strs("E1,E2")})
    assert {k: [_plain(x) for x in v] for k, v in got[0].items()} == {"E1": ["E1", "E1"], "E2": ["E2"]}
    assert got[1:] == [{"E1": [1, 3], "E2": [2]}, {"E1": 3, "E2": 2}, [1, 2, 3], True, ids("E1,E2,E1")]
    assert evaluate(engine, ["strvals.sequenceEqual(strvalstwo)"],
                    {"strvals": _strs("E1,E2"), "strvalstwo": _strs("E1,E3")}) == [False]
