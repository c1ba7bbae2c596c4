"""Sliding and keyed windows: behaviour on the cases the models do not reach (ties,
several criteria, removals from upstream, stop, time units)."""
from __future__ import annotations

from viewtest_support import Recorder, chain, const, ev, expr, period, prop

from views import SimulatedViewContext, create_factories, make_chain


def contents(view) -> list:
    return [e.get("id") for e in view]


def test_length_window_multi_event_update() -> None:
    ctx, first, views, rec = chain([("length", [const(2)])])
    first.update([ev(1), ev(2), ev(3)], None)
    assert rec.calls == [(None, [1, 2, 3], [1])]
    assert contents(views[-1]) == [2, 3]


def test_time_window_jump_expires_all_due_in_one_update() -> None:
    ctx, first, views, rec = chain([("time", [period(1000)])])
    for i, t in enumerate((0, 100, 200, 900), 1):
        ctx.advance_to(t)
        first.update([ev(i)], None)
    rec.tag = "jump"
    ctx.advance_to(1200)
    assert rec.calls[-1] == ("jump", None, [1, 2, 3])
    assert contents(views[-1]) == [4]
    rec.tag = "span"
    ctx.advance_span(5000)
    assert rec.calls[-1] == ("span", None, [4])
    assert ctx.scheduler.pending_count() == 0


def test_time_window_expires_at_exactly_t_plus_period() -> None:
    ctx, first, views, rec = chain([("time", [period(1000)])])
    first.update([ev(1)], None)
    ctx.advance_to(999)
    assert contents(views[-1]) == [1]
    ctx.advance_to(1000)
    assert contents(views[-1]) == []


def test_time_window_in_microseconds() -> None:
    ctx = SimulatedViewContext(0, msec_per_unit=1000.0)
    rec = Recorder()
    first, views = make_chain(create_factories([("time", [period(1.5)])]), ctx, rec)
    first.update([ev(1)], None)
    ctx.advance_to(1499)
    assert rec.calls == [(None, [1], None)]
    ctx.advance_to(1500)
    assert rec.calls[-1] == (None, None, [1])


def test_number_of_seconds_means_seconds() -> None:
    ctx, first, views, rec = chain([("time", [const(2)])])
    first.update([ev(1)], None)
    ctx.advance_to(1999)
    assert contents(views[-1]) == [1]
    ctx.advance_to(2000)
    assert contents(views[-1]) == []


def test_ext_timed_late_event_waits_for_earlier_ones() -> None:
    ctx, first, views, rec = chain([("ext_timed", [prop("ts"), period(1000)])])
    first.update([ev(1, ts=5000)], None)
    first.update([ev(2, ts=1000)], None)      # late: stays behind event 1
    first.update([ev(3, ts=5500)], None)
    assert contents(views[-1]) == [1, 2, 3]
    first.update([ev(4, ts=6000)], None)      # 1 expires, and then 2 behind it
    assert rec.calls[-1] == (None, [4], [1, 2])


def test_unique_several_keys() -> None:
    ctx, first, views, rec = chain([("unique", [prop("k"), prop("v")])])
    first.update([ev(1, k=1, v=1)], None)
    first.update([ev(2, k=1, v=2)], None)
    first.update([ev(3, k=1, v=1)], None)
    assert rec.calls == [(None, [1], None), (None, [2], None), (None, [3], [1])]
    assert contents(views[-1]) == [2, 3]


def test_sort_descending_and_ties() -> None:
    ctx, first, views, rec = chain([("sort", [const(2), prop("v", descending=True)])])
    first.update([ev(1, v=5)], None)
    first.update([ev(2, v=5)], None)
    assert contents(views[-1]) == [2, 1]           # among equals the newest first
    first.update([ev(3, v=5)], None)
    assert rec.calls[-1] == (None, [3], [1])        # the oldest of equals leaves
    first.update([ev(4, v=9)], None)
    assert rec.calls[-1] == (None, [4], [2])
    assert contents(views[-1]) == [4, 3]


def test_sort_desc_from_text_and_several_criteria() -> None:
    from views import ViewArg
    desc_v = ViewArg("v desc", evaluate=lambda b: b.get("v"))
    ctx, first, views, rec = chain([("sort", [const(3), prop("k"), desc_v])])
    for i, (k, v) in enumerate(((1, 1), (0, 1), (1, 7), (0, 3)), 1):
        first.update([ev(i, k=k, v=v)], None)
    assert contents(views[-1]) == [4, 2, 3]
    assert rec.calls[-1] == (None, [4], [1])


def test_sort_nulls_first_ascending() -> None:
    from engine.bean import EventBean
    from viewtest_support import EV
    ctx, first, views, rec = chain([("sort", [const(2), prop("v")])])
    first.update([ev(1, v=3)], None)
    first.update([EventBean(EV, {"id": 2, "v": None})], None)
    first.update([ev(3, v=1)], None)
    assert contents(views[-1]) == [2, 3]
    assert rec.calls[-1] == (None, [3], [1])


def test_rank_keeps_last_per_unique_key_ranked() -> None:
    ctx, first, views, rec = chain([("rank", [prop("k"), const(2), prop("v")])])
    first.update([ev(1, k=1, v=10)], None)
    first.update([ev(2, k=2, v=20)], None)
    first.update([ev(3, k=3, v=30)], None)          # ranks below the last: out at once
    assert rec.calls[-1] == (None, [3], [3])
    first.update([ev(4, k=2, v=5)], None)           # replaces key 2, now ranks first
    assert rec.calls[-1] == (None, [4], [2])
    assert contents(views[-1]) == [4, 1]
    first.update([ev(5, k=1, v=10)], None)          # same key, same sort value: in place
    assert rec.calls[-1] == (None, [5], [1])
    assert contents(views[-1]) == [4, 5]
    first.update([ev(6, k=9, v=10)], None)          # ties the last: the oldest tie leaves
    assert rec.calls[-1] == (None, [6], [5])
    assert contents(views[-1]) == [4, 6]


def test_groupwin_length_merges_groups() -> None:
    ctx, first, views, rec = chain([("groupwin", [prop("k")]), ("length", [const(1)])])
    assert len(views) == 1
    first.update([ev(1, k=1)], None)
    first.update([ev(2, k=2)], None)
    first.update([ev(3, k=1)], None)
    assert rec.calls == [(None, [1], None), (None, [2], None), (None, [3], [1])]
    assert contents(views[-1]) == [3, 2]
    first.update([ev(4, k=2), ev(5, k=3)], None)    # several events: one update per group
    assert rec.calls[-2:] == [(None, [4], [2]), (None, [5], None)]


def test_groupwin_time_windows_per_group() -> None:
    ctx, first, views, rec = chain([("groupwin", [prop("k")]), ("time_batch", [period(1000)])])
    first.update([ev(1, k=1)], None)
    ctx.advance_to(500)
    first.update([ev(2, k=2)], None)
    ctx.advance_to(1000)
    assert rec.calls == [(None, [1], None)]
    ctx.advance_to(1500)
    assert rec.calls[-1] == (None, [2], None)
    views[0].stop()
    assert ctx.scheduler.pending_count() == 0


def test_nested_groupwin() -> None:
    ctx, first, views, rec = chain([("groupwin", [prop("k")]), ("groupwin", [prop("v")]),
                                    ("lastevent", [])])
    first.update([ev(1, k=1, v=1)], None)
    first.update([ev(2, k=1, v=2)], None)
    first.update([ev(3, k=1, v=1)], None)
    assert rec.calls[-1] == (None, [3], [1])
    assert sorted(contents(views[-1])) == [2, 3]


def test_expr_window_oldest_timestamp() -> None:
    ctx, first, views, rec = chain([("expr", [expr(
        "oldest_timestamp > newest_timestamp - 2000",
        lambda b, v: v["oldest_timestamp"] > v["newest_timestamp"] - 2000)])])
    for i, t in enumerate((0, 1000, 1999, 2000, 5000), 1):
        ctx.advance_to(t)
        first.update([ev(i)], None)
    assert rec.calls == [(None, [1], None), (None, [2], None), (None, [3], None),
                         (None, [4], [1]), (None, [5], [2, 3, 4])]
    ctx.advance_to(100_000)                           # time alone does not expire
    assert contents(views[-1]) == [5]


def test_expr_window_expired_count_and_reevaluate() -> None:
    limit = {"n": 3}
    calls = []

    def fn(bean, values):
        calls.append(values["expired_count"])
        return values["current_count"] <= limit["n"]
    ctx, first, views, rec = chain([("expr", [expr("current_count <= n", fn)])])
    for i in range(1, 4):
        first.update([ev(i)], None)
    limit["n"] = 1
    views[0].reevaluate()
    assert rec.calls[-1] == (None, None, [1, 2])
    assert calls[-3:] == [0, 1, 2]


def test_lastevent_and_firstevent() -> None:
    ctx, first, views, rec = chain([("lastevent", [])])
    first.update([ev(1)], None)
    first.update([ev(2), ev(3)], None)
    assert rec.calls == [(None, [1], None), (None, [2, 3], [1, 2])]
    assert contents(views[-1]) == [3]
    ctx, first, views, rec = chain([("firstevent", [])])
    first.update([ev(1)], None)
    first.update([ev(2)], None)
    assert rec.calls == [(None, [1], None)] and contents(views[-1]) == [1]


def test_firsttime_period_starts_at_creation() -> None:
    ctx = SimulatedViewContext(500)
    rec = Recorder()
    first, views = make_chain(create_factories([("firsttime", [period(1000)])]), ctx, rec)
    ctx.advance_to(1400)
    first.update([ev(1)], None)
    ctx.advance_to(1500)
    first.update([ev(2)], None)
    assert rec.calls == [(None, [1], None)] and contents(views[-1]) == [1]


def test_removal_from_upstream() -> None:
    # a named window's on-delete reaches the data window as old events
    for spec in ([("keepall", [])], [("length", [const(5)])], [("time", [period(10_000)])],
                 [("unique", [prop("id")])], [("sort", [const(5), prop("v")])],
                 [("firstlength", [const(5)])], [("firstunique", [prop("id")])],
                 [("ext_timed", [prop("ts"), period(1000)])], [("time_accum", [period(1000)])],
                 [("expr", [expr("true", lambda b, v: True)])],
                 [("rank", [prop("id"), const(5), prop("v")])]):
        ctx, first, views, rec = chain(spec)
        a, b, c = ev(1), ev(2), ev(3)
        for e in (a, b, c):
            first.update([e], None)
        first.update(None, [b])
        assert rec.calls[-1] == (None, None, [2]), spec
        assert contents(views[-1]) in ([1, 3], [3, 1]), spec
        first.update(None, [b])                       # not held any more: nothing posted
        assert len(rec.calls) == 4, spec


def test_batch_windows_drop_removed_events_silently() -> None:
    ctx, first, views, rec = chain([("length_batch", [const(3)])])
    a, b, c, d = ev(1), ev(2), ev(3), ev(4)
    first.update([a], None)
    first.update([b], None)
    first.update(None, [a])
    assert rec.calls == []
    first.update([c], None)
    first.update([d], None)
    assert rec.calls == [(None, [2, 3, 4], None)]
    first.update(None, [c])                 # of the posted batch: still leaves with it
    for i in (5, 6, 7):
        first.update([ev(i)], None)
    assert rec.calls[-1] == (None, [5, 6, 7], [2, 3, 4])


def test_stop_cancels_schedules_and_clears() -> None:
    for spec in ([("time", [period(1000)])], [("time_batch", [period(1000), const("START_EAGER")])],
                 [("time_length_batch", [period(1000), const(5)])],
                 [("time_accum", [period(1000)])], [("firsttime", [period(1000)])]):
        ctx, first, views, rec = chain(spec)
        first.update([ev(1)], None)
        for v in views:
            v.stop()
        assert ctx.scheduler.pending_count() == 0, spec
        assert list(views[-1]) == [], spec
