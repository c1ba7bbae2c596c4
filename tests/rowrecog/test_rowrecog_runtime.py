"""match_recognize statements in the runtime: stop, start and destroy, isolated services,
keyed contexts, snapshots, and the memory a partition holds."""
from __future__ import annotations

from engine import Engine
from engine.state import restore, snapshot

FALL = ("@name('fall') select * from Tick{win} match_recognize (partition by sym measures "
        "A.sym as sym, A.price as top, last(B.price) as bottom, C.price as up "
        "pattern (A B+ C) define B as B.price < prev(B.price), C as C.price > prev(C.price))")


def _engine() -> Engine:
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema Tick(sym string, price double)")
    return e


def _rows(stmt) -> list:
    got: list = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    return got


def _ticks(target, sym, *prices):
    for p in prices:
        target.send({"sym": sym, "price": float(p)}, "Tick")


def test_stop_start_and_destroy():
    e = _engine()
    s = e.epl(FALL.format(win=""))
    got = _rows(s)
    _ticks(e, "X", 10, 9)
    s.stop()
    _ticks(e, "X", 8, 12)
    assert got == []
    s.start()                      # a fresh start: the partial match before the stop is gone
    _ticks(e, "X", 12, 11, 13)
    assert got == [{"sym": "X", "top": 12.0, "bottom": 11.0, "up": 13.0}]
    s.destroy()
    assert e.filter_count() == 0 and e.schedule_count() == 0


def test_moves_into_an_isolated_service_with_its_partial_matches():
    e = _engine()
    s = e.epl(FALL.format(win="#time(10 sec)"))
    got = _rows(s)
    _ticks(e, "X", 10, 9)
    iso = e.isolated("replay")
    iso.add(s)
    _ticks(e, "X", 8, 12)          # the engine's events no longer reach it
    _ticks(iso, "X", 8, 12)
    assert got == [{"sym": "X", "top": 10.0, "bottom": 8.0, "up": 12.0}]
    iso.remove(s)
    _ticks(e, "Y", 5, 4, 6)
    assert got[-1] == {"sym": "Y", "top": 5.0, "bottom": 4.0, "up": 6.0}


def test_interval_timer_follows_the_statement_into_isolation():
    e = _engine()
    s = e.epl("select * from Tick match_recognize (measures A.sym as a, count(B.sym) as n pattern (A B*) "
              "interval 5 sec define A as A.price > 100, B as B.price > 100)")
    got = _rows(s)
    _ticks(e, "X", 101, 102)
    iso = e.isolated("i")
    iso.add(s)
    e.advance_time(10_000)
    assert got == []
    iso.advance_time(5_000)
    assert got == [{"a": "X", "n": 1}]


def test_in_a_keyed_context():
    e = _engine()
    e.epl("create context BySym partition by sym from Tick")
    s = e.epl("@name('fall') context BySym " + FALL.format(win="").replace("partition by sym ", "")
              .replace("@name('fall') ", ""))
    got = _rows(s)
    _ticks(e, "X", 10, 9)
    _ticks(e, "Y", 7, 6, 8)
    _ticks(e, "X", 12)
    assert got == [{"sym": "Y", "top": 7.0, "bottom": 6.0, "up": 8.0},
                   {"sym": "X", "top": 10.0, "bottom": 9.0, "up": 12.0}]


def test_snapshot_and_restore_keep_partial_matches():
    e = _engine()
    s = e.epl(FALL.format(win=""))
    _ticks(e, "X", 10, 9, 8)
    e2 = restore(snapshot(e))
    s2 = e2.statements[-1]
    got = _rows(s2)
    _ticks(e2, "X", 11)
    assert got == [{"sym": "X", "top": 10.0, "bottom": 8.0, "up": 11.0}]


def test_a_partition_without_partial_matches_holds_nothing():
    e = _engine()
    s = e.epl("@name('m') select * from Tick match_recognize (partition by sym measures A.sym as s "
              "pattern (A B) define A as A.price > 10, B as B.price > A.price)")
    for i in range(1000):
        _ticks(e, f"K{i}", 5)          # no row starts a match: no partition is kept
    _ticks(e, "Z", 11)
    view = _matcher(e, s)
    assert list(view.partitions) == ["Z"]
    _ticks(e, "Z", 12)                 # the match completes: the partition is released
    assert view.partitions == {}


def _matcher(engine, stmt):
    """The statement's matcher: the last view of its stream's chain."""
    [instance] = stmt._instances
    return instance.views[0][-1]


def test_public_names():
    import engine.rowrecog as rr
    assert sorted(rr.__all__) == ["MatchRecognizeFactory", "MatchRecognizeView", "PrevHolder", "RowNFA",
                                  "RowRecogPlan"]
