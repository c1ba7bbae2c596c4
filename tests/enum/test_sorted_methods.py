"""The `sorted(...)` aggregation's methods against a brute-force navigable map (Esper's
TreeMap of key -> events in arrival order), and Esper's documented sample."""
from __future__ import annotations

import bisect

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine


def test_doc_sample_lower_key_and_event():
    e = Engine(time="simulated")
    e.epl("create schema OrderEvent(orderId string, price double)")
    out: list = []
    e.epl("select sorted(price).lowerKey(price) as lowerPrice, sorted(price).lowerEvent(price).orderId as "
          "lowerPriceOrderId from OrderEvent#time(10 minutes)").add_listener(
        lambda new, old: out.extend(b.to_dict() for b in new))
    e.send({"orderId": "A", "price": 10.0}, "OrderEvent")
    e.send({"orderId": "B", "price": 20.0}, "OrderEvent")
    assert out == [{"lowerPrice": None, "lowerPriceOrderId": None},
                   {"lowerPrice": 10.0, "lowerPriceOrderId": "A"}]


COLUMNS = ("sorted(v).ceilingKey(q) as ck, sorted(v).floorKey(q) as fk, sorted(v).higherKey(q) as hk, "
           "sorted(v).lowerKey(q) as lk, sorted(v).floorEvent(q).id as fe, sorted(v).ceilingEvents(q).lastOf().id as ces, "
           "sorted(v).firstKey() as first, sorted(v).lastEvent().id as last, sorted(v).countEvents() as ce, "
           "sorted(v).countKeys() as cntk, sorted(v).containsKey(q) as has, sorted(v).getEvents(q).countOf() as ge, "
           "sorted(v).eventsBetween(2, true, q, false).countOf() as eb")


def _model(items: list[tuple[int, int]], q: int) -> dict:
    groups: dict[int, list[int]] = {}
    for ident, v in items:
        groups.setdefault(v, []).append(ident)
    keys = sorted(groups)

    def at(i):
        return keys[i] if 0 <= i < len(keys) else None
    ck = at(bisect.bisect_left(keys, q))
    fk = at(bisect.bisect_right(keys, q) - 1)
    return {
        "ck": ck, "fk": fk, "hk": at(bisect.bisect_right(keys, q)), "lk": at(bisect.bisect_left(keys, q) - 1),
        "fe": None if fk is None else groups[fk][0], "ces": None if ck is None else groups[ck][-1],
        "first": keys[0], "last": groups[keys[-1]][0], "ce": len(items), "cntk": len(keys),
        "has": q in groups, "ge": len(groups[q]) if q in groups else None,
        "eb": sum(len(groups[k]) for k in keys if 2 <= k < q) if q >= 2 else 0,
    }


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.integers(0, 9), min_size=1, max_size=8), q=st.integers(-1, 10))
def test_sorted_methods_match_a_navigable_map(values, q):
    e = Engine(time="simulated")
    e.epl("create schema X(id int, v int, q int)")
    out: list = []
    e.epl(f"select {COLUMNS} from X#keepall").add_listener(lambda new, old: out.extend(b.to_dict() for b in new))
    items = []
    for i, v in enumerate(values):
        items.append((i, v))
        e.send({"id": i, "v": v, "q": q}, "X")
    got = out[-1]
    want = _model(items, q)
    if q < 2:
        got["eb"] = got["eb"] or 0
    assert got == want


def test_window_aggregation_methods():
    e = Engine(time="simulated")
    e.epl("create schema SB(theString string, intPrimitive int)")
    e.epl("create schema S0(id int)")
    out: list = []
    e.epl("select window(*).first().theString as f, window(*).last().theString as l, window(*).first(intPrimitive) as fi, "
          "window(*).last(intPrimitive * 2) as li, window(*).countEvents() as n from SB#length(2)").add_listener(
        lambda new, old: out.extend(b.to_dict() for b in new))
    for s, i in (("E1", 1), ("E2", 2), ("E3", 3)):
        e.send({"theString": s, "intPrimitive": i}, "SB")
    assert out == [{"f": "E1", "l": "E1", "fi": 1, "li": 2, "n": 1}, {"f": "E1", "l": "E2", "fi": 1, "li": 4, "n": 2},
                   {"f": "E2", "l": "E3", "fi": 2, "li": 6, "n": 2}]
    e.epl("create table MyTable(windowcol window(*) @type('SB'))")
    e.epl("into table MyTable select window(*) as windowcol from SB#length(2)")
    got: list = []
    e.epl("select MyTable.windowcol.first() as c0, MyTable.windowcol.last().intPrimitive as c1, "
          "MyTable.windowcol.listReference().countOf() as c2 from S0").add_listener(
        lambda new, old: got.extend(b.to_dict() for b in new))
    e.send({"id": 1}, "S0")
    e.send({"theString": "E9", "intPrimitive": 9}, "SB")
    e.send({"id": 2}, "S0")
    assert got[0] == {"c0": None, "c1": None, "c2": 0}
    assert got[1]["c1"] == 9 and got[1]["c2"] == 1


def test_sorted_table_columns_keyed_and_unkeyed():
    e = Engine(time="simulated")
    e.deploy("""create schema SB(theString string, intPrimitive int);
create schema S0(id int, p00 string);
create table MyTable(sortcol sorted(intPrimitive) @type('SB'));
into table MyTable select sorted(*) as sortcol from SB;
create table Grouped(k0 string primary key, sortcol sorted(intPrimitive) @type('SB'));
into table Grouped select sorted(*) as sortcol from SB group by theString;
""")
    out: list = []
    e.epl("select MyTable.sortcol.floorEvent(id).theString as fe, MyTable.sortcol.lastKey() as lk, "
          "Grouped[p00].sortcol.firstKey() as gfk, Grouped[p00].sortcol.lastKey() as glk from S0").add_listener(
        lambda new, old: out.extend(b.to_dict() for b in new))
    for s, i in (("A", 10), ("A", 20), ("B", 100), ("A", 5)):
        e.send({"theString": s, "intPrimitive": i}, "SB")
    e.send({"id": 15, "p00": "A"}, "S0")
    e.send({"id": 1, "p00": "B"}, "S0")
    e.send({"id": 1, "p00": "C"}, "S0")
    assert out == [{"fe": "A", "lk": 100, "gfk": 5, "glk": 20}, {"fe": None, "lk": 100, "gfk": 100, "glk": 100},
                   {"fe": None, "lk": 100, "gfk": None, "glk": None}]
