"""Power meters on application time: readings arrive out of order, CTIs commit them, and
snapshot windows turn them into consumption intervals.

Run it: `python samples/power_meter.py` (from the repository, with the package installed).

- Each reading is a point event; `AlterEventDuration(INFINITY)` followed by
  `Clip('meter')` makes it an interval lasting until the meter's next reading (the
  StreamInsight power-meter interval stream).
- A CTI is generated every 4 readings, 20 seconds behind the latest one: readings up to
  20 s late are put back in order; the one that is later than that violates the CTI and
  is dropped, which the engine reports.
- `#interval()` keeps each reading for its lifetime; summing over it is a snapshot
  window: the total load, valid from one change to the next.
- A second input stretches each reading to three minutes: the snapshot average over it
  is the three-minute sliding average per meter.
"""
from __future__ import annotations

import csv
from datetime import datetime, timezone
from pathlib import Path

from engine import Engine
from engine.apptime import INFINITY, AlterEventDuration, Clip, CtiGeneration, Snapshot

DATA = Path(__file__).with_name("power_meter.csv")


def readings() -> list[dict]:
    with DATA.open() as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return [{"meter": r["meter"], "watts": int(r["watts"]),
                 "time": datetime.fromisoformat(r["time"])} for r in rows]


def clock(ms: int) -> str:
    if ms >= INFINITY:
        return "      ...   "
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%H:%M:%S.%f")[:-3]


def run() -> dict[str, list]:
    engine = Engine(time="simulated")
    engine.epl("create schema Reading(meter string, watts int, time object) starttimestamp time")
    engine.epl("create schema Reading3m(meter string, watts int, time object) starttimestamp time")
    load = Snapshot(engine.epl("select irstream sum(watts) as total from Reading#interval()"))
    per_meter = Snapshot(engine.epl(
        "select irstream meter, watts from Reading#interval()"))
    sliding = Snapshot(engine.epl(
        "select irstream meter, avg(watts) as avg3m from Reading3m#interval() group by meter"))

    late = []
    engine.signals.cti_violation.connect(
        lambda sender, input, event, action: late.append((input.name, event, action)), weak=False)

    every4 = CtiGeneration(every_events=4, delay=20_000, final_cti=True)
    meters = engine.input("Reading", generate=every4,
                          lifetime=[AlterEventDuration(INFINITY), Clip("meter")])
    stretched = engine.input("Reading3m", generate=every4,
                             lifetime=[AlterEventDuration(3 * 60_000)])
    for r in readings():
        meters.enqueue(r)
        stretched.enqueue(dict(r))
    meters.close()
    stretched.close()
    return {"load": load.rows(), "per_meter": per_meter.rows(), "sliding": sliding.rows(key=["meter"]),
            "late": late}


def main() -> None:
    out = run()
    print("Readings as intervals (valid until the meter's next reading):")
    for r in out["per_meter"]:
        print(f"  [{clock(r.start)}, {clock(r.end)})  {r.values['meter']}  {r.values['watts']:>4} W")
    print("\nTotal load (snapshot sum over the interval window):")
    for r in out["load"]:
        print(f"  [{clock(r.start)}, {clock(r.end)})  {r.values['total']:>4} W")
    print("\nThree-minute sliding average per meter (snapshot over altered durations):")
    for r in out["sliding"]:
        print(f"  [{clock(r.start)}, {clock(r.end)})  {r.values['meter']}  {r.values['avg3m']:7.1f} W")
    print("\nCTI violations:")
    for name, event, action in out["late"]:
        print(f"  {name}: reading {event['meter']} at {event['time']:%H:%M:%S} {action}")


if __name__ == "__main__":
    main()
