"""`retain-union` (and `@hint('retain-union')`): an event stays while any data window holds
it; the default intersection posts its remove stream in Esper's order."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from engine import Engine


def _engine(epl: str):
    e = Engine(time="simulated")
    e.epl("create schema T(k string, v int)")
    stmt = e.epl(epl)
    calls = []
    stmt.add_listener(lambda new, old: calls.append(([x["v"] for x in new or []], [x["v"] for x in old or []])))
    return e, stmt, calls


def test_union_of_unique_and_time():
    e, stmt, calls = _engine("select irstream v from T#unique(k)#time(10 sec) retain-union")
    e.send({"k": "a", "v": 1}, "T")
    e.advance_time(1000)
    e.send({"k": "a", "v": 2}, "T")      # unique lets 1 go, time still holds it
    e.advance_time(10_000)               # time lets 1 go: the last holder
    e.advance_time(11_000)               # 2 expires from time, unique still holds it
    assert calls == [([1], []), ([2], []), ([], [1])]
    assert [r["v"] for r in stmt] == [2]


def test_union_by_hint():
    e, stmt, calls = _engine("@hint('retain-union') select irstream v from T#length(1)#unique(k)")
    e.send({"k": "a", "v": 1}, "T")
    e.send({"k": "b", "v": 2}, "T")      # length lets 1 go; unique holds it
    e.send({"k": "a", "v": 3}, "T")      # unique lets 1 go: gone; length lets 2 go: unique holds it
    assert calls == [([1], []), ([2], []), ([3], [1])]


def test_intersection_remove_order_is_window_by_window():
    e, stmt, calls = _engine("select irstream v from T#length(2)#unique(k)")
    for k, v in [("a", 1), ("b", 2), ("b", 3)]:
        e.send({"k": k, "v": v}, "T")
    # length pushes 1 out, unique pushes 2 out: posted in chain order
    assert calls[-1] == ([3], [1, 2])
    e, stmt, calls = _engine("select irstream v from T#unique(k)#length(2)")
    for k, v in [("a", 1), ("b", 2), ("b", 3)]:
        e.send({"k": k, "v": v}, "T")
    assert calls[-1] == ([3], [2, 1])


def test_sort_window_in_an_intersection_reports_the_pushed_out_arrival():
    e, stmt, calls = _engine("select irstream v from T#sort(1, v)#time(10 sec)")
    e.send({"k": "a", "v": 5}, "T")
    e.send({"k": "a", "v": 7}, "T")      # sorts after the one kept: in and out at once
    assert calls == [([5], []), ([7], [7])]
    assert [r["v"] for r in stmt] == [5]


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.lists(st.sampled_from("abcd"), max_size=40))
def test_union_of_length_and_unique_matches_a_model(n, keys):
    e, stmt, calls = _engine(f"select irstream v from T#length({n})#unique(k) retain-union")
    length: list[int] = []
    unique: dict[str, int] = {}
    expected = []
    for v, k in enumerate(keys):
        before = set(length) | set(unique.values())
        length = (length + [v])[-n:]
        unique[k] = v
        after = set(length) | set(unique.values())
        expected.append(([v], sorted(before - after)))
        e.send({"k": k, "v": v}, "T")
        assert sorted(r["v"] for r in stmt) == sorted(after)
    assert [(new, sorted(old)) for new, old in calls] == expected


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.lists(st.one_of(st.sampled_from("abcd"), st.integers(1, 6)), max_size=40))
def test_union_and_intersection_of_unique_and_time_match_a_model(n, ops):
    """Each window's contents computed naively; union and intersection of those."""
    eu, su, cu = _engine("select irstream v from T#unique(k)#time(3 sec) retain-union")
    ei, si, ci = _engine("select irstream v from T#unique(k)#time(3 sec)")
    now, v = 0, 0
    sent: list[tuple[int, str, int]] = []       # (arrival, key, v)
    for op in ops:
        if isinstance(op, int):
            now += op * 500
            for eng in (eu, ei):
                eng.advance_time(now)
        else:
            v += 1
            sent.append((now, op, v))
            for eng in (eu, ei):
                eng.send({"k": op, "v": v}, "T")
        in_time = {x[2] for x in sent if x[0] + 3000 > now}
        latest = {}
        for x in sent:
            latest[x[1]] = x[2]
        in_unique = set(latest.values())
        assert sorted(r["v"] for r in su) == sorted(in_time | in_unique)
        assert sorted(r["v"] for r in si) == sorted(in_time & in_unique)
    # every event went in once and, for the union, left once when the last window let it go
    posted_new = [x for new, _ in cu for x in new]
    posted_old = [x for _, old in cu for x in old]
    assert posted_new == list(range(1, v + 1))
    assert len(posted_old) == len(set(posted_old))


def _bean_engine(epl: str, pre=()):
    e = Engine(time="simulated")
    e.epl("create schema SupportBean(theString string, intPrimitive int, intBoxed int, doublePrimitive double)")
    e.epl("create schema SupportBean_S0(id int, p00 string)")
    for p in pre:
        e.epl(p)
    stmt = e.epl(epl)
    calls = []
    stmt.add_listener(lambda n, o: calls.append(([x.get("theString") for x in n or []],
                                                  [x.get("theString") for x in o or []])))
    return e, stmt, calls


def _sb(e, s, i, b=None, d=None):
    e.send({"theString": s, "intPrimitive": i, "intBoxed": b, "doublePrimitive": d}, "SupportBean")


GROUPED = [("E1", 1, 10), ("E2", 2, 10), ("E3", 1, 20), ("E4", 1, 30), ("E5", 2, 10), ("E6", 1, 20),
           ("E7", 1, 10), ("E8", 2, 10)]


def test_union_and_intersection_per_group_as_esper():
    e, _, calls = _bean_engine("select irstream theString from SupportBean#groupwin(intPrimitive)"
                               "#length(2)#unique(intBoxed) retain-union")
    for row in GROUPED:
        _sb(e, *row)
    assert [o for _, o in calls] == [[], [], [], [], [], ["E3"], ["E1"], ["E2"]]
    e, _, calls = _bean_engine("select irstream theString from SupportBean#groupwin(intPrimitive)"
                               "#length(2)#unique(intBoxed) retain-intersection")
    for row in GROUPED:
        _sb(e, *row)
    assert [o for _, o in calls] == [[], [], [], ["E1"], ["E2"], ["E3"], ["E4"], ["E5"]]


def test_union_and_intersection_before_a_derived_view():
    for retain, total in (("retain-union", 170.0), ("", 20.0)):
        e, stmt, _ = _bean_engine(f"select * from SupportBean#unique(intPrimitive)#unique(intBoxed)"
                                  f"#uni(doublePrimitive) {retain}")
        for s, i, b, d in [("E1", 1, 10, 100.0), ("E2", 2, 20, 50.0), ("E3", 1, 20, 20.0)]:
            _sb(e, s, i, b, d)
        assert [r["total"] for r in stmt] == [total]


def test_union_with_a_batch_window():
    e, stmt, calls = _bean_engine("select irstream theString from SupportBean#length_batch(3)"
                                  "#unique(intPrimitive) retain-union")
    for i, k in enumerate([1, 2, 3, 4, 4, 4, 5, 6, 7], start=1):
        _sb(e, f"E{i}", k)
    assert calls[-1] == (["E9"], ["E4", "E5"])
    assert sorted(r["theString"] for r in stmt) == ["E1", "E2", "E3", "E6", "E7", "E8", "E9"]


def test_named_window_declared_retain_union():
    e, stmt, calls = _bean_engine("select irstream * from W", [
        "create window W#firstunique(theString)#firstlength(3) retain-union as SupportBean",
        "insert into W select * from SupportBean",
        "on SupportBean_S0 delete from W where theString = p00"])
    _sb(e, "E1", 1)
    _sb(e, "E1", 99)
    _sb(e, "E2", 2)
    e.send({"id": 1, "p00": "E1"}, "SupportBean_S0")
    _sb(e, "E1", 3)
    assert calls == [(["E1"], []), (["E1"], []), (["E2"], []), ([], ["E1", "E1"]), (["E1"], [])]
    assert sorted((r["theString"], r["intPrimitive"]) for r in stmt) == [("E1", 3), ("E2", 2)]


def test_subquery_over_a_union():
    e, _, _ = _bean_engine("select * from SupportBean")
    s = e.epl("select * from SupportBean_S0 where p00 in "
              "(select theString from SupportBean#length(2)#unique(intPrimitive) retain-union)")
    hits = []
    s.add_listener(lambda n, o: hits.append(n[0]["p00"]))
    for x, i in [("E1", 1), ("E2", 2), ("E3", 3), ("E4", 2), ("E5", 1)]:
        _sb(e, x, i)
    for p in ["E1", "E2", "E3", "E4", "E5"]:
        e.send({"id": 1, "p00": p}, "SupportBean_S0")
    assert hits == ["E3", "E4", "E5"]


def test_intersection_of_two_sort_windows_as_esper():
    e, stmt, calls = _bean_engine("select irstream theString from SupportBean#sort(2, intPrimitive)"
                                  "#sort(2, intBoxed) retain-intersection")
    for s, i, b in [("E1", 1, 10), ("E2", 2, 9), ("E3", 0, 0), ("E4", -1, -1), ("E5", 1, 1), ("E6", 0, 0)]:
        _sb(e, s, i, b)
    assert [(n, sorted(o)) for n, o in calls] == [
        (["E1"], []), (["E2"], []), (["E3"], ["E1", "E2"]), (["E4"], []), (["E5"], ["E5"]), (["E6"], ["E3"])]
    assert sorted(r["theString"] for r in stmt) == ["E4", "E6"]


def test_named_window_intersection_with_on_delete_and_expiry():
    e, stmt, calls = _bean_engine("select irstream * from W", [
        "create window W#time(10 sec)#unique(intPrimitive) retain-intersection as select * from SupportBean",
        "insert into W select * from SupportBean",
        "on SupportBean_S0 delete from W where intBoxed = id"])
    e.advance_time(1000)
    _sb(e, "E1", 1, 10)
    e.advance_time(2000)
    _sb(e, "E2", 2, 20)
    e.send({"id": 20, "p00": ""}, "SupportBean_S0")
    e.advance_time(3000)
    _sb(e, "E3", 3, 30)
    _sb(e, "E4", 3, 40)
    e.advance_time(4000)
    _sb(e, "E5", 4, 50)
    _sb(e, "E6", 4, 50)
    e.send({"id": 20, "p00": ""}, "SupportBean_S0")
    e.send({"id": 50, "p00": ""}, "SupportBean_S0")
    e.advance_time(11000)
    e.advance_time(13000)
    assert calls == [(["E1"], []), (["E2"], []), ([], ["E2"]), (["E3"], []), (["E4"], ["E3"]),
                     (["E5"], []), (["E6"], ["E5"]), ([], ["E6"]), ([], ["E1"]), ([], ["E4"])]


def test_union_of_first_kind_windows_posts_nothing_for_a_refused_event():
    for views in ("#firstlength(3)#firstunique(theString)", "#firstunique(theString)#firstlength(3)"):
        e, stmt, calls = _bean_engine(f"select irstream theString, intPrimitive from SupportBean{views} retain-union")
        for s, i in [("E1", 1), ("E1", 2), ("E2", 1), ("E2", 3), ("E3", 3), ("E3", 4)]:
            _sb(e, s, i)
        assert calls == [(["E1"], []), (["E1"], []), (["E2"], []), (["E3"], [])]
        assert sorted((r["theString"], r["intPrimitive"]) for r in stmt) == [
            ("E1", 1), ("E1", 2), ("E2", 1), ("E3", 3)]


def test_union_of_two_sort_windows():
    e, stmt, calls = _bean_engine("select irstream theString from SupportBean#sort(2, intPrimitive)"
                                  "#sort(2, intBoxed) retain-union")
    for s, i, b in [("E1", 1, 10), ("E2", 2, 9), ("E3", 0, 0), ("E4", -1, -1), ("E5", 1, 1), ("E6", 0, 0)]:
        _sb(e, s, i, b)
    assert [(n, sorted(o)) for n, o in calls] == [
        (["E1"], []), (["E2"], []), (["E3"], []), (["E4"], ["E1", "E2"]), (["E5"], ["E5"]), (["E6"], ["E3"])]
