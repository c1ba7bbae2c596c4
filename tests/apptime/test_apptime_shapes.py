"""Timestamps and shapes: int ms or aware datetimes converted once; point, interval and
edge lifetimes; the validation of lifetime modifications and CTI settings."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from engine import Engine
from engine.apptime import (INFINITY, AlterEventDuration, Clip, CtiGeneration, ShiftEventTime, Shape,
                            TimedBean, lifetime_of, to_ms)
from engine.bean import EventBean


def test_timestamps_are_ms_or_aware_datetimes() -> None:
    assert to_ms(1_247_649_213_317) == 1_247_649_213_317
    cest = timezone(timedelta(hours=2))
    assert to_ms(datetime(2009, 7, 15, 11, 13, 33, 317000, tzinfo=cest)) == 1_247_649_213_317
    with pytest.raises(ValueError, match="naive"):
        to_ms(datetime(2009, 7, 15))
    with pytest.raises(TypeError):
        to_ms("2009-07-15")
    with pytest.raises(TypeError):
        to_ms(True)


def test_datetimes_are_converted_once_when_enqueued() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema Iv(id int, s object, e object) starttimestamp s endtimestamp e")
    beans = []
    engine.epl("select * from Iv").add_listener(lambda new, old: beans.extend(new))
    inp = engine.input("Iv")
    t = datetime(2009, 7, 15, tzinfo=timezone.utc)
    inp.enqueue({"id": 1, "s": t, "e": t + timedelta(seconds=1)})
    inp.enqueue_cti(t + timedelta(seconds=2))
    (bean,) = beans
    assert isinstance(bean, TimedBean)
    assert (bean.start, bean.end, bean.shape) == (to_ms(t), to_ms(t) + 1000, Shape.INTERVAL)
    assert bean["s"] is t                                   # the event itself is unchanged


def test_lifetimes_as_windows_see_them() -> None:
    engine = Engine(time="simulated")
    iv = engine.register_type("Iv", {"s": "long", "e": "long"}, start_timestamp="s", end_timestamp="e")
    pt = engine.register_type("Pt", {"s": "long"}, start_timestamp="s")
    raw = engine.register_type("Raw", {"x": "int"})
    assert lifetime_of(EventBean(iv, {"s": 1, "e": 5})) == (1, 5)
    assert lifetime_of(EventBean(iv, {"s": 1, "e": None})) == (1, INFINITY)
    assert lifetime_of(EventBean(pt, {"s": 7})) == (7, 8)
    assert lifetime_of(EventBean(raw, {"x": 1})) is None
    assert lifetime_of(TimedBean(raw, {"x": 1}, 3, 9, Shape.INTERVAL)) == (3, 9)


def test_interval_events_need_an_end_after_the_start() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema Iv(s long, e long) starttimestamp s endtimestamp e")
    engine.epl("create schema Raw(x int)")
    inp = engine.input("Iv")
    with pytest.raises(ValueError, match="end > start"):
        inp.enqueue({"s": 5, "e": 5})
    with pytest.raises(ValueError, match="start time"):
        engine.input("Raw").enqueue({"x": 1})
    raw = engine.input("Raw", shape="interval")
    assert raw.enqueue({"x": 1}, start=1, end=2)
    with pytest.raises(ValueError, match="no end"):
        engine.input("Raw").enqueue({"x": 1}, start=1, end=2)


def test_settings_are_validated() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema Raw(x int)")
    with pytest.raises(ValueError, match="last"):
        engine.input("Raw", lifetime=[Clip(), AlterEventDuration(5)])
    with pytest.raises(ValueError, match="Edge events"):
        engine.input("Raw", shape="edge", lifetime=[AlterEventDuration(5)])
    engine.input("Raw", shape="edge", lifetime=[ShiftEventTime(timedelta(seconds=1))])
    with pytest.raises(ValueError):
        CtiGeneration(every_events=2, every_span=10)
    with pytest.raises(ValueError):
        CtiGeneration(every_events=0)
    with pytest.raises(ValueError):
        AlterEventDuration(-1)
    assert CtiGeneration(every_events=1, delay=timedelta(seconds=-1)).delay_ms == -1000
