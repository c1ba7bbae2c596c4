"""Each pattern operator on the real engine (simulated time), with Esper's semantics."""
from __future__ import annotations

from engine.fastpath_switch import set_fast_paths
from engine.patterns import pattern_limit


def send(engine, type_name, id, v=0):
    engine.send({"id": id, "v": v}, type_name)


# -- every and followed-by -----------------------------------------------------------------

def test_followed_by_without_every_matches_once(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern [a=A -> b=B]")
    send(engine, "A", 1)
    send(engine, "A", 2)
    send(engine, "B", 3)
    send(engine, "B", 4)
    assert rows.rows == [{"a": 1, "b": 3}]
    assert engine.filter_count() == 0          # the pattern ended: nothing stays registered


def test_every_over_followed_by_restarts_after_each_match(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern [every (a=A -> b=B)]")
    send(engine, "A", 1)
    send(engine, "A", 2)       # the instance waits for B: this A starts nothing
    send(engine, "B", 3)
    send(engine, "B", 4)
    send(engine, "A", 5)
    send(engine, "B", 6)
    assert rows.rows == [{"a": 1, "b": 3}, {"a": 5, "b": 6}]


def test_every_on_both_sides_pairs_every_a_with_every_b(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern [every a=A -> every b=B]")
    send(engine, "A", 1)
    send(engine, "A", 2)
    send(engine, "B", 3)
    send(engine, "B", 4)
    assert rows.rows == [{"a": 1, "b": 3}, {"a": 2, "b": 3}, {"a": 1, "b": 4}, {"a": 2, "b": 4}]


def test_filter_added_by_an_event_does_not_see_that_event(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern [every a=A -> b=A]")
    send(engine, "A", 1)
    assert rows.rows == []
    send(engine, "A", 2)
    send(engine, "A", 3)
    assert rows.rows == [{"a": 1, "b": 2}, {"a": 2, "b": 3}]


def test_filter_refers_to_earlier_tag_and_is_indexed_per_instance(engine, listen):
    rows = listen("select a.id as a, b.v as bv from pattern [every a=A -> b=B(id = a.id and v > a.v)]")
    for i in range(50):
        send(engine, "A", i, 10)
    assert engine.filter_count() == 51
    send(engine, "B", 7, 5)        # id matches, v does not
    send(engine, "B", 7, 11)
    send(engine, "B", 99, 50)
    assert rows.rows == [{"a": 7, "bv": 11}]
    assert engine.filter_count() == 50


def test_three_step_followed_by(engine, listen):
    rows = listen("select a.id as a, b.id as b, c.id as c from pattern "
                  "[every a=A -> b=B(id = a.id) -> c=C(id = b.id)]")
    send(engine, "A", 1)
    send(engine, "A", 2)
    send(engine, "B", 2)
    send(engine, "C", 1)
    send(engine, "C", 2)
    assert rows.rows == [{"a": 2, "b": 2, "c": 2}]


def test_followed_by_max_instances(engine, listen):
    rows = listen("select a.id as a from pattern [every a=A -[2]> b=B(id = a.id)]")
    for i in (1, 2, 3):
        send(engine, "A", i)           # the third B-instance is not started
    send(engine, "B", 3)
    send(engine, "B", 1)
    send(engine, "A", 4)
    send(engine, "B", 4)
    assert rows.rows == [{"a": 1}, {"a": 4}]


# -- and, or, not --------------------------------------------------------------------------

def test_and_waits_for_both_in_any_order(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern [every (a=A and b=B)]")
    send(engine, "B", 1)
    send(engine, "A", 2)
    send(engine, "A", 3)       # the restarted `and` took this A: the next one is ignored
    send(engine, "A", 4)
    send(engine, "B", 5)
    assert rows.rows == [{"a": 2, "b": 1}, {"a": 3, "b": 5}]


def test_and_with_every_child_combines_each_match(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern [(every a=A) and b=B]")
    send(engine, "A", 1)
    send(engine, "A", 2)
    send(engine, "B", 3)
    send(engine, "A", 4)
    assert rows.rows == [{"a": 1, "b": 3}, {"a": 2, "b": 3}, {"a": 4, "b": 3}]


def test_or_takes_the_first_and_ends(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern [a=A or b=B]")
    send(engine, "B", 1)
    send(engine, "A", 2)
    assert rows.rows == [{"a": None, "b": 1}]
    assert engine.filter_count() == 0


def test_every_or(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern [every (a=A or b=B)]")
    send(engine, "B", 1)
    send(engine, "A", 2)
    assert rows.rows == [{"a": None, "b": 1}, {"a": 2, "b": None}]


def test_not_ends_the_instance(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern "
                  "[every a=A -> (b=B(id = a.id) and not C(id = a.id))]")
    base = engine.filter_count()     # `every a=A` (the keyed fast path: A, B and C)
    send(engine, "A", 1)
    send(engine, "A", 2)
    send(engine, "C", 1)
    send(engine, "B", 1)
    send(engine, "B", 2)
    assert rows.rows == [{"a": 2, "b": 2}]
    assert engine.filter_count() == base       # no instance left behind


def test_interval_and_not(engine, listen):
    rows = listen("select a.id as a from pattern [every a=A -> (timer:interval(2 sec) and not B(id=a.id))]")
    send(engine, "A", 1)
    engine.advance_time(500)
    send(engine, "A", 2)
    engine.advance_time(1000)
    send(engine, "B", 1)
    engine.advance_time(3000)
    assert rows.rows == [{"a": 2}]
    assert engine.filter_count() == 1 and engine.schedule_count() == 0


# -- repeat and until ------------------------------------------------------------------------

def test_repeat_exact_count_collects_arrays(engine, listen):
    rows = listen("select a[0].id as a0, a[2].id as a2, a as arr from pattern [[3] a=A]")
    for i in (1, 2, 3, 4):
        send(engine, "A", i)
    assert [(r["a0"], r["a2"], [x["id"] for x in r["arr"]]) for r in rows.rows] == [(1, 3, [1, 2, 3])]
    assert engine.filter_count() == 0


def test_every_repeat(engine, listen):
    rows = listen("select a[0].id as x, a[1].id as y from pattern [every [2] a=A]")
    for i in (1, 2, 3, 4, 5):
        send(engine, "A", i)
    assert rows.rows == [{"x": 1, "y": 2}, {"x": 3, "y": 4}]


def test_range_until(engine, listen):
    rows = listen("select a[0].id as a0, a[1].id as a1, b.id as bid from pattern [[2:3] a=A until b=B]")
    for i in (1, 2, 3, 4):
        send(engine, "A", i)
    send(engine, "B", 7)
    assert rows.rows == [{"a0": 1, "a1": 2, "bid": 7}]


def test_until_below_lower_bound_is_false(engine, listen):
    rows = listen("select * from pattern [[2:] a=A until b=B]")
    send(engine, "A", 1)
    send(engine, "B", 2)
    send(engine, "A", 3)
    assert rows.rows == []
    assert engine.filter_count() == 0


def test_event_satisfying_matcher_and_until_ends_without_counting(engine, listen):
    rows = listen("select a as arr, b.id as b from pattern [a=A until b=A]")
    send(engine, "A", 1)
    assert rows.rows == [{"arr": None, "b": 1}]


def test_unbounded_until_and_event_satisfying_both(engine, listen):
    rows = listen("select a as arr, b.v as bv from pattern [a=A until b=A(v > 5)]")
    send(engine, "A", 1, 1)
    send(engine, "A", 2, 2)
    send(engine, "A", 3, 9)    # ends the repetition without counting as a match
    assert [([x["id"] for x in r["arr"]], r["bv"]) for r in rows.rows] == [([1, 2], 9)]


def test_repeated_tag_in_a_later_filter(engine, listen):
    rows = listen("select b.id as b from pattern [[2] a=A -> b=B(id = a[1].id)]")
    send(engine, "A", 1)
    send(engine, "A", 2)
    send(engine, "B", 1)
    send(engine, "B", 2)
    assert rows.rows == [{"b": 2}]


# -- guards ------------------------------------------------------------------------------------

def test_within_releases_filter_and_schedule(engine, listen):
    set_fast_paths(engine, False)   # the state machines' filters and schedules
    rows = listen("select a.id as a, b.id as b from pattern [every a=A -> b=B(id = a.id) where timer:within(1 sec)]")
    send(engine, "A", 1)
    assert (engine.filter_count(), engine.schedule_count()) == (2, 1)
    send(engine, "B", 1)
    assert (engine.filter_count(), engine.schedule_count()) == (1, 0)
    send(engine, "A", 2)
    engine.advance_time(1000)
    send(engine, "B", 2)
    assert rows.rows == [{"a": 1, "b": 1}]
    assert (engine.filter_count(), engine.schedule_count()) == (1, 0)


def test_every_guarded_filter_restarts(engine, listen):
    rows = listen("select a.id as a from pattern [every a=A where timer:within(2 sec)]")
    send(engine, "A", 1)
    engine.advance_time(1500)
    send(engine, "A", 2)
    engine.advance_time(2500)
    send(engine, "A", 3)
    assert rows.rows == [{"a": 1}, {"a": 2}, {"a": 3}]


def test_withinmax_stops_after_max_matches(engine, listen):
    rows = listen("select b.id as b from pattern [(every b=B) where timer:withinmax(10 sec, 2)]")
    for i in (1, 2, 3, 4):
        send(engine, "B", i)
    assert rows.rows == [{"b": 1}, {"b": 2}]
    assert (engine.filter_count(), engine.schedule_count()) == (0, 0)


def test_withinmax_expires_by_time(engine, listen):
    rows = listen("select b.id as b from pattern [(every b=B) where timer:withinmax(1 sec, 5)]")
    send(engine, "B", 1)
    engine.advance_time(1000)
    send(engine, "B", 2)
    assert rows.rows == [{"b": 1}]


def test_while_guard_ends_when_false(engine, listen):
    rows = listen("select a.id as a from pattern [(every a=A) while (a.v < 10)]")
    send(engine, "A", 1, 1)
    send(engine, "A", 2, 5)
    send(engine, "A", 3, 20)
    send(engine, "A", 4, 2)
    assert rows.rows == [{"a": 1}, {"a": 2}]
    assert engine.filter_count() == 0


# -- observers -----------------------------------------------------------------------------------

def test_interval_repeats_under_every(engine):
    stmt = engine.epl("select * from pattern [every timer:interval(1 sec)]")
    times = []
    stmt.add_listener(lambda new, old: times.append(engine.now))
    engine.advance_time_span(3500)
    assert times == [1000, 2000, 3000]
    assert engine.schedule_count() == 1


def test_interval_on_time_jump_fires_once(engine):
    stmt = engine.epl("select * from pattern [every timer:interval(1 sec)]")
    times = []
    stmt.add_listener(lambda new, old: times.append(engine.now))
    engine.advance_time(3500)      # the restarted interval is scheduled from 3500
    engine.advance_time(4400)
    engine.advance_time(4500)
    assert times == [3500, 4500]


def test_interval_from_tag_value(engine, listen):
    rows = listen("select a.id as a from pattern [every a=A -> timer:interval(a.v)]")
    send(engine, "A", 1, 2)        # seconds
    engine.advance_time(1999)
    assert rows.rows == []
    engine.advance_time(2000)
    assert rows.rows == [{"a": 1}]


def test_timer_at_crontab(engine):
    stmt = engine.epl("select * from pattern [every timer:at(*/15, *, *, *, *)]")
    times = []
    stmt.add_listener(lambda new, old: times.append(engine.now))
    engine.advance_time_span(3_600_000)
    assert times == [900_000, 1_800_000, 2_700_000, 3_600_000]


def test_a_followed_by_at(engine, listen):
    rows = listen("select a.id as a from pattern [every a=A -> timer:at(*, *, *, *, *, 30)]")
    engine.advance_time(10_000)
    send(engine, "A", 1)
    engine.advance_time(29_999)
    assert rows.rows == []
    engine.advance_time(30_000)
    assert rows.rows == [{"a": 1}]


# -- every-distinct ----------------------------------------------------------------------------

def test_every_distinct(engine, listen):
    rows = listen("select a.id as a, a.v as v from pattern [every-distinct(a.id) a=A]")
    for i, v in ((1, 1), (1, 2), (2, 3), (1, 4), (2, 5), (3, 6)):
        send(engine, "A", i, v)
    assert rows.rows == [{"a": 1, "v": 1}, {"a": 2, "v": 3}, {"a": 3, "v": 6}]


def test_every_distinct_with_expiry(engine, listen):
    rows = listen("select a.v as v from pattern [every-distinct(a.id, 1 sec) a=A]")
    send(engine, "A", 1, 1)
    engine.advance_time(500)
    send(engine, "A", 1, 2)
    engine.advance_time(1000)
    send(engine, "A", 1, 3)
    send(engine, "A", 1, 4)
    assert rows.rows == [{"v": 1}, {"v": 3}]


def test_every_distinct_over_followed_by(engine, listen):
    rows = listen("select a.id as a, b.id as b from pattern [every-distinct(a.id) (a=A -> b=B)]")
    send(engine, "A", 1)
    send(engine, "B", 10)
    send(engine, "A", 1)
    send(engine, "B", 11)
    send(engine, "A", 2)
    send(engine, "B", 12)
    assert rows.rows == [{"a": 1, "b": 10}, {"a": 2, "b": 12}]


# -- the pattern stream --------------------------------------------------------------------------

def test_select_star_gives_tags(engine, listen):
    rows = listen("select * from pattern [a=A -> b=B]")
    send(engine, "A", 1, 2)
    send(engine, "B", 3, 4)
    assert rows.rows == [{"a": {"id": 1, "v": 2}, "b": {"id": 3, "v": 4}}]


def test_tag_events_in_select_list(engine):
    stmt = engine.epl("select a, b.v as bv from pattern [a=A -> b=B]")
    got = []
    stmt.add_listener(lambda new, old: got.extend(new))
    send(engine, "A", 1, 2)
    send(engine, "B", 3, 4)
    assert got[0]["a"].get("id") == 1 and got[0]["bv"] == 4


def test_views_and_alias_on_pattern_stream(engine, listen):
    rows = listen("select irstream p.a.id as x from pattern [every a=A]#length(2) as p")
    for i in (1, 2, 3):
        send(engine, "A", i)
    assert rows.rows == [{"x": 1}, {"x": 2}, {"x": 3}]
    stmt = engine.epl("select irstream p.a.id as x from pattern [every a=A]#length(1) as p")
    got = []
    stmt.add_listener(lambda new, old: got.append(([e["x"] for e in new or []], [e["x"] for e in old or []])))
    for i in (4, 5):
        send(engine, "A", i)
    assert got == [([4], []), ([5], [4])]


def test_stop_and_start_release_and_restore(engine, listen):
    set_fast_paths(engine, False)   # the state machines' filters and schedules
    stmt = engine.epl("select * from pattern [every a=A -> b=B(id = a.id) where timer:within(5 sec)]")
    base = engine.filter_count()
    send(engine, "A", 1)
    send(engine, "A", 2)
    assert engine.filter_count() == base + 2 and engine.schedule_count() == 2
    stmt.stop()
    assert engine.filter_count() == 0 and engine.schedule_count() == 0
    stmt.start()
    assert engine.filter_count() == base and engine.schedule_count() == 0
    stmt.destroy()
    assert engine.filter_count() == 0


def test_keyed_fast_path_stop_and_start_release_and_restore(engine, listen):
    stmt = engine.epl("select * from pattern [every a=A -> b=B(id = a.id) where timer:within(5 sec)]")
    base = engine.filter_count()
    send(engine, "A", 1)
    send(engine, "A", 2)
    assert engine.filter_count() == base and engine.schedule_count() == 0     # lazy expiry
    assert pattern_limit(engine).count == 2
    stmt.stop()
    assert engine.filter_count() == 0 and engine.schedule_count() == 0
    assert pattern_limit(engine).count == 0
    stmt.start()
    assert engine.filter_count() == base and engine.schedule_count() == 0
    stmt.destroy()
    assert engine.filter_count() == 0
