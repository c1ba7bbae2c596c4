"""Batch windows: time_batch (reference point, FORCE_UPDATE, START_EAGER, jumps and spans),
length_batch, time_length_batch, ext_timed_batch, expr_batch, time_accum."""
from __future__ import annotations

from viewtest_support import chain, const, ev, expr, period, prop


def test_time_batch_sum_case_at_view_level() -> None:
    # conformance case time-batch-sum: the view posts at 1400 (batch ended 1200), 2300, 5000
    ctx, first, _, rec = chain([("time_batch", [period(1000)])])
    sends = {200: 1, 500: 2, 800: 3, 1100: 4, 1400: 5, 1700: 6, 2000: 7, 2300: 8}
    for t in (200, 500, 800, 1100, 1400, 1700, 2000, 2300, 5000):
        rec.tag = t
        ctx.advance_to(t)
        if t in sends:
            first.update([ev(sends[t])], None)
    assert rec.calls == [(1400, [1, 2, 3, 4], None), (2300, [5, 6, 7], [1, 2, 3, 4]),
                         (5000, [8], [5, 6, 7])]
    # the jump fired once; the empty interval after [8] posts at the next boundary, 5200
    rec.tag = 5200
    ctx.advance_to(5200)
    assert rec.calls[-1] == (5200, None, [8])
    ctx.advance_to(9000)
    assert len(rec.calls) == 4            # both batches empty: nothing more, nothing scheduled
    assert ctx.scheduler.pending_count() == 0


def test_time_batch_force_update_start_eager_case() -> None:
    # conformance case view-time-batch-force-update at view level: (None, None) posts too
    ctx, first, _, rec = chain([("time_batch", [period(1000), const("FORCE_UPDATE, START_EAGER")])])
    rec.tag = 1
    ctx.advance_to(1200)
    first.update([ev(1)], None)
    rec.tag = 3
    ctx.advance_to(2000)
    first.update([ev(2)], None)
    rec.tag = 5
    ctx.advance_to(2800)
    first.update([ev(3)], None)
    rec.tag = 7
    ctx.advance_to(6000)
    assert rec.calls == [(1, None, None), (3, [1], None), (7, [2, 3], [1])]


def test_time_batch_span_fires_every_interval() -> None:
    ctx, first, _, rec = chain([("time_batch", [period(1000), const("FORCE_UPDATE")])])
    ctx.advance_to(300)
    first.update([ev(1)], None)
    ctx.advance_span(4300)
    # intervals end at 1300, 2300, 3300, 4300: batch, then old, then forced empties
    assert rec.calls == [(None, [1], None), (None, None, [1]), (None, None, None),
                         (None, None, None)]


def test_time_batch_reference_point() -> None:
    ctx, first, _, rec = chain([("time_batch", [period(1000), const(250)])])
    ctx.advance_to(1800)
    first.update([ev(1)], None)
    ctx.advance_to(2249)
    assert rec.calls == []
    ctx.advance_to(2250)
    assert rec.calls == [(None, [1], None)]


def test_time_batch_reference_in_the_future() -> None:
    ctx, first, _, rec = chain([("time_batch", [period(500), const(4200)])])
    ctx.advance_to(2300)
    first.update([ev(1)], None)
    ctx.advance_to(2699)
    assert rec.calls == []
    ctx.advance_to(2700)
    assert rec.calls == [(None, [1], None)]


def test_time_batch_start_eager_without_events_posts_nothing() -> None:
    ctx, first, _, rec = chain([("time_batch", [period(1000), const("START_EAGER")])])
    ctx.advance_span(5000)
    assert rec.calls == [] and ctx.scheduler.pending_count() == 0
    first.update([ev(1)], None)          # the grid stays anchored at creation time (0)
    ctx.advance_to(5999)
    assert rec.calls == []
    ctx.advance_to(6000)
    assert rec.calls == [(None, [1], None)]


def test_time_batch_grid_stays_after_idle_gap() -> None:
    ctx, first, _, rec = chain([("time_batch", [period(1000)])])
    ctx.advance_to(200)
    first.update([ev(1)], None)
    ctx.advance_span(3000)
    assert rec.calls == [(None, [1], None), (None, None, [1])]
    ctx.advance_to(5500)
    first.update([ev(2)], None)
    ctx.advance_to(6199)
    assert len(rec.calls) == 2
    ctx.advance_to(6200)
    assert rec.calls[-1] == (None, [2], None)


def test_time_length_batch_count_or_time() -> None:
    ctx, first, views, rec = chain([("time_length_batch", [period(2000), const(3)])])
    for i, t in enumerate((100, 550, 1000), 1):
        ctx.advance_to(t)
        first.update([ev(i)], None)
    assert rec.calls == [(None, [1, 2, 3], None)]
    ctx.advance_to(1450)
    first.update([ev(4)], None)
    assert [e.get("id") for e in views[-1]] == [4]
    ctx.advance_to(2999)
    assert len(rec.calls) == 1
    ctx.advance_to(3000)                  # the timer restarted at 1000 when the batch filled
    assert rec.calls[-1] == (None, [4], [1, 2, 3])


def test_time_length_batch_force_update_and_start_eager() -> None:
    ctx, first, _, rec = chain([("time_length_batch",
                                 [period(1000), const(2), const("force_update,start_eager")])])
    ctx.advance_span(2000)
    assert rec.calls == [(None, None, None), (None, None, None)]


def test_length_batch_posts_previous_batch_as_old() -> None:
    ctx, first, views, rec = chain([("length_batch", [const(2)])])
    for i in range(1, 6):
        first.update([ev(i)], None)
    assert rec.calls == [(None, [1, 2], None), (None, [3, 4], [1, 2])]
    assert [e.get("id") for e in views[-1]] == [5]


def test_ext_timed_batch_reference_point() -> None:
    ctx, first, _, rec = chain([("ext_timed_batch", [prop("ts"), period(1000), const(0)])])
    first.update([ev(1, ts=100)], None)
    first.update([ev(2, ts=999)], None)
    assert rec.calls == []
    first.update([ev(3, ts=1000)], None)
    assert rec.calls == [(None, [1, 2], None)]
    first.update([ev(4, ts=2500)], None)
    assert rec.calls[-1] == (None, [3], [1, 2])


def test_ext_timed_batch_ignores_engine_time() -> None:
    ctx, first, _, rec = chain([("ext_timed_batch", [prop("ts"), period(1000)])])
    first.update([ev(1, ts=100)], None)
    ctx.advance_span(100_000)
    assert rec.calls == []


def test_expr_batch_current_count() -> None:
    ctx, first, views, rec = chain([("expr_batch", [
        expr("current_count >= 3", lambda b, v: v["current_count"] >= 3)])])
    for i in range(1, 8):
        first.update([ev(i)], None)
    assert rec.calls == [(None, [1, 2, 3], None), (None, [4, 5, 6], [1, 2, 3])]
    assert [e.get("id") for e in views[-1]] == [7]


def test_expr_batch_excluding_the_triggering_event() -> None:
    # batch events with the same k; a change of k releases the batch without the new event
    def changed(bean, values):
        return bean is not None and values["oldest_event"].get("k") != bean.get("k")
    ctx, first, views, rec = chain([("expr_batch", [expr("changed", changed), const(False)])])
    for i, k in enumerate((1, 1, 2, 2, 2, 3), 1):
        first.update([ev(i, k=k)], None)
    assert rec.calls == [(None, [1, 2], None), (None, [3, 4, 5], [1, 2])]
    assert [e.get("id") for e in views[-1]] == [6]


def test_expr_batch_builtin_timestamps() -> None:
    seen = []

    def fn(bean, values):
        seen.append((values["oldest_timestamp"], values["newest_timestamp"],
                     values["expired_count"], values["view_reference"] is not None))
        return values["newest_timestamp"] - values["oldest_timestamp"] >= 1000
    ctx, first, _, rec = chain([("expr_batch", [expr("span", fn)])])
    for i, t in enumerate((0, 400, 1000, 1200), 1):
        ctx.advance_to(t)
        first.update([ev(i)], None)
    assert rec.calls == [(None, [1, 2, 3], None)]
    assert seen[:3] == [(0, 0, 0, True), (0, 400, 0, True), (0, 1000, 0, True)]
    assert seen[3][:2] == (1200, 1200)


def test_time_accum_releases_after_quiet_period() -> None:
    ctx, first, views, rec = chain([("time_accum", [period(1000)])])
    for i, t in enumerate((0, 500, 1400), 1):
        ctx.advance_to(t)
        first.update([ev(i)], None)
    assert rec.calls == [(None, [1], None), (None, [2], None), (None, [3], None)]
    ctx.advance_to(2399)
    assert len(rec.calls) == 3 and [e.get("id") for e in views[-1]] == [1, 2, 3]
    ctx.advance_to(2400)
    assert rec.calls[-1] == (None, None, [1, 2, 3])
    assert list(views[-1]) == [] and ctx.scheduler.pending_count() == 0
