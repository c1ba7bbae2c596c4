"""Several data windows on one stream keep their intersection, as Esper does."""
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


def test_unique_and_time_window():
    e, stmt, calls = _engine("select irstream v from T#unique(k)#time(10 sec)")
    e.send({"k": "a", "v": 1}, "T")
    e.advance_time(3000)
    e.send({"k": "a", "v": 2}, "T")          # replaces v=1 in both windows
    e.advance_time(10500)                    # v=1 would have expired here: nothing to say
    e.advance_time(13000)                    # v=2 expires
    assert calls == [([1], []), ([2], [1]), ([], [2])]
    assert list(stmt) == []


def test_refused_event_leaves_the_other_windows():
    e, stmt, calls = _engine("select irstream v from T#length(2)#firstunique(k)")
    for k, v in [("x", 1), ("x", 2), ("y", 3), ("z", 4)]:
        e.send({"k": k, "v": v}, "T")
    # v=2 is refused by firstunique, so it takes no place in the length window
    assert calls == [([1], []), ([3], []), ([4], [1])]
    assert [r["v"] for r in stmt] == [3, 4]


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 4), st.lists(st.sampled_from("abcde"), max_size=40))
def test_length_and_unique_match_a_model(n, keys):
    e, stmt, calls = _engine(f"select irstream v from T#length({n})#unique(k)")
    # each window takes the event on its own; whatever either lets go leaves both
    length: list[tuple[str, int]] = []
    unique: dict[str, tuple[str, int]] = {}
    expected = []
    for v, k in enumerate(keys):
        gone = []
        length.append((k, v))
        if len(length) > n:
            gone.append(length.pop(0))
        if k in unique:
            gone.append(unique[k])
        unique[k] = (k, v)
        for g in gone:
            if g in length:
                length.remove(g)
            if unique.get(g[0]) == g:
                del unique[g[0]]
        expected.append(([v], sorted({g[1] for g in gone})))
        e.send({"k": k, "v": v}, "T")
    assert [(new, sorted(old)) for new, old in calls] == expected
    assert [r["v"] for r in stmt] == [w[1] for w in length]


def _bean(epl: str):
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema SB(theString string, intPrimitive int)")
    stmt = e.epl(epl)
    calls = []
    stmt.add_listener(lambda new, old: calls.append(([x["theString"] for x in new or []],
                                                      [x["theString"] for x in old or []])))
    return e, stmt, calls


UB = [("E1", 1), ("E2", 2), ("E3", 3), ("E4", 4), ("E5", 4), ("E6", 4), ("E7", 5), ("E8", 6),
      ("E8", 7), ("E9", 9), ("E9", 9), ("E10", 11)]


def test_batch_window_with_unique_as_esper():
    """The batch window posts; the unique window takes replaced events out of the batch."""
    for views in ("#length_batch(3)#unique(intPrimitive)", "#unique(intPrimitive)#length_batch(3)"):
        e, stmt, calls = _bean(f"select irstream theString from SB{views} order by theString asc")
        contents = []
        for s, i in UB:
            e.send({"theString": s, "intPrimitive": i}, "SB")
            contents.append(sorted(r["theString"] for r in stmt))
        assert calls == [(["E1", "E2", "E3"], []), (["E6", "E7", "E8"], ["E1", "E2", "E3"]),
                         (["E10", "E8", "E9"], ["E6", "E7", "E8"])]
        assert contents[3:7] == [["E4"], ["E5"], ["E6"], ["E6", "E7"]]


def test_batch_window_with_firstunique_and_time_batch_with_unique():
    e, _, calls = _bean("select irstream * from SB#firstunique(theString)#length_batch(3)")
    for s, i in [("E1", 1), ("E2", 2), ("E1", 3), ("E3", 4), ("E1", 5), ("E4", 7), ("E1", 6), ("E5", 9)]:
        e.send({"theString": s, "intPrimitive": i}, "SB")
    assert calls == [(["E1", "E2", "E3"], []), (["E1", "E4", "E5"], ["E1", "E2", "E3"])]
    e, _, calls = _bean("select * from SB#time_batch(1)#unique(theString)")
    for s, i in [("E1", 1), ("E2", 2), ("E1", 3)]:
        e.send({"theString": s, "intPrimitive": i}, "SB")
    e.advance_time(1000)
    assert calls == [(["E2", "E1"], [])]


def test_two_batch_windows_cannot_be_combined():
    import pytest
    from epl.errors import EPLValidationError
    with pytest.raises(EPLValidationError, match="Cannot combined multiple batch data windows into an intersection"):
        _bean("select * from SB#time_batch(1)#length_batch(10)")
