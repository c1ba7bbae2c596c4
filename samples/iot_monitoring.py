"""IoT monitoring on application time: sensor readings arrive late and out of order.

Run it: `python samples/iot_monitoring.py`.

- Readings carry the time they were taken (`t`); the network delivers them up to 5 s late
  and shuffled. An application-time input puts them back in order: a CTI every 6 readings,
  5 s behind the newest, commits what came before it. A reading later than that violates
  the CTI and is dropped (and counted).
- `hot`: a sensor's average over the last 30 s of its own time goes above 75 °C.
- `silent`: a sensor sends nothing for 20 s of application time (a pattern timer, which
  fires on the readings' clock, not the wall clock).
"""
from __future__ import annotations

import random

from engine import Engine
from engine.apptime import CtiGeneration

MODULE = """
create schema Reading(sensor string, celsius double, t long) starttimestamp t;

@name('hot') select sensor, avg(celsius) as avg30s from Reading#time(30 sec)
  group by sensor having avg(celsius) > 75;

@name('silent') select r.sensor as sensor, r.t as last_seen
  from pattern [every r=Reading -> (timer:interval(20 sec) and not Reading(sensor = r.sensor))]
"""


def readings(seed: int = 3) -> list[dict]:
    """What arrives, in arrival order: taken every 2 s, delivered up to 5 s late."""
    rnd = random.Random(seed)
    taken = []
    for i in range(60):
        t = i * 2_000
        taken.append({"sensor": "boiler", "celsius": round(60 + i * 0.5 + rnd.uniform(-2, 2), 1), "t": t})
        if t < 50_000:                        # the pump's sensor goes quiet after 50 s
            taken.append({"sensor": "pump", "celsius": round(40 + rnd.uniform(-1, 1), 1), "t": t})
    arrival = sorted(taken, key=lambda r: r["t"] + rnd.uniform(0, 5_000))
    arrival.insert(40, {"sensor": "pump", "celsius": 99.9, "t": 1_000})   # far too late: dropped
    return arrival


def run() -> tuple[list[tuple[int, str, dict]], int]:
    engine = Engine(time="simulated", start_time=0)
    alerts: list[tuple[int, str, dict]] = []
    for stmt in engine.deploy(MODULE):
        if stmt.kind == "select":
            stmt.add_listener(lambda new, old, name=stmt.name:
                              alerts.extend((engine.now, name, e.to_dict()) for e in new))
    sensors = engine.input("Reading", policy="drop",
                           generate=CtiGeneration(every_events=6, delay=5_000, final_cti=False))
    for r in readings():
        sensors.enqueue(r)
    sensors.enqueue_cti(130_000)              # the end of the recording
    return alerts, sensors.violations.dropped


def main() -> None:
    alerts, dropped = run()
    shown = set()
    for t, rule, row in alerts:
        key = (rule, row["sensor"])
        if rule == "hot" and key in shown:    # print the first hot reading of each sensor
            continue
        shown.add(key)
        print(f"t={t / 1000:6.1f} s  {rule:<6}  {row}")
    hot = sum(1 for _, r, _ in alerts if r == "hot")
    print(f"\n{hot} hot updates; {dropped} reading(s) too late, dropped")


if __name__ == "__main__":
    main()
