"""The public names of engine.apptime, the Engine method, the window's EPL name, and the
power-meter sample as a smoke test."""
from __future__ import annotations

import runpy
from pathlib import Path

import engine.apptime as apptime
from engine import Engine
from views.registry import VIEW_FACTORIES


def test_public_api_is_pinned() -> None:
    assert set(apptime.__all__) == {
        "AlterEventDuration", "ApplicationClock", "ApplicationInput", "Clip", "CtiGeneration",
        "INFINITY", "RELATIONS", "ShiftEventTime", "Shape", "Snapshot", "SnapshotRow", "TICK",
        "TimedBean", "ViolationCounts", "ViolationPolicy", "clock", "event_interval", "install",
        "intersection", "lifetime_of", "open_input", "relate", "row_lifetime", "snapshot_rows",
        "to_ms"}
    assert all(hasattr(apptime, n) for n in apptime.__all__)
    assert set(apptime.RELATIONS) == {
        "before", "after", "coincides", "during", "finishes", "finishedby", "includes", "meets",
        "metby", "overlaps", "overlappedby", "starts", "startedby"}


def test_engine_opens_inputs_and_the_window_is_registered() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema P(t long) starttimestamp t")
    assert isinstance(engine.input("P"), apptime.ApplicationInput)
    assert VIEW_FACTORIES["interval"].is_data_window


def test_power_meter_sample_runs() -> None:
    sample = Path(__file__).parents[2] / "samples" / "power_meter.py"
    out = runpy.run_path(str(sample))["run"]()
    assert out["late"] == [("Reading", {"meter": "m1", "watts": 999,
                                        "time": out["late"][0][1]["time"]}, "dropped"),
                           ("Reading3m", out["late"][1][1], "dropped")]
    load = [(r.values["total"]) for r in out["load"]]
    assert load[:4] == [100, 450, 400, 500]
    assert out["per_meter"][-1].is_open
