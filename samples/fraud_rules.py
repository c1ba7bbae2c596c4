"""Fraud rules over account withdrawals: three EPL rules, one module, replayed from a file.

Run it: `python samples/fraud_rules.py` (prints each alert with the time it fired).

- `large`: any single withdrawal of 500 or more.
- `burst`: an account withdrawing three or more times within 10 seconds.
- `card-test`: a small "test" withdrawal (under 50) followed, on the same account and within
  a minute, by a large one: the classic stolen-card probe.

Events come from samples/withdrawals.jsonl and replay on simulated time, each scheduled
instant firing at its own time, exactly as `epl run` and the Spark pipeline replay them.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from engine import Engine

EVENTS = Path(__file__).with_name("withdrawals.jsonl")

RULES = """
create schema Withdrawal(account string, amount int, ts long);

@name('large') select account, amount from Withdrawal(amount >= 500);

@name('burst') select account, count(*) as n, sum(amount) as total
  from Withdrawal#time(10 sec) group by account having count(*) >= 3;

@name('card-test') select probe.account as account, probe.amount as probe, big.amount as amount
  from pattern [every probe=Withdrawal(amount < 50)
                -> big=Withdrawal(account = probe.account and amount >= 500) where timer:within(1 min)]
"""


def events() -> list[dict]:
    rows = [json.loads(line) for line in EVENTS.read_text().splitlines() if line.strip()]
    for r in rows:
        r.pop("type", None)
    # a probe ahead of a large withdrawal, so every rule has something to say
    first = rows[0]["ts"]
    rows += [{"account": "a9", "amount": 1, "ts": first + 2_000},
             {"account": "a9", "amount": 900, "ts": first + 30_000}]
    return sorted(rows, key=lambda r: r["ts"])


def run() -> list[tuple[int, str, dict]]:
    data = events()
    engine = Engine(time="simulated", start_time=data[0]["ts"])
    alerts: list[tuple[int, str, dict]] = []
    for stmt in engine.deploy(RULES):
        if stmt.kind == "select":
            stmt.add_listener(lambda new, old, name=stmt.name:
                              alerts.extend((engine.now, name, e.to_dict()) for e in new))
    for event in data:
        engine.advance_time_span(event["ts"])
        engine.send(event, "Withdrawal")
    engine.advance_time_span(data[-1]["ts"] + 60_000)
    return alerts


def main() -> None:
    alerts = run()
    for t, rule, row in alerts:
        when = datetime.fromtimestamp(t / 1000, tz=timezone.utc).strftime("%H:%M:%S.%f")[:-3]
        print(f"{when}  {rule:<9}  {row}")
    counts = {rule: sum(1 for _, r, _ in alerts if r == rule) for rule in ("large", "burst", "card-test")}
    print(f"\n{len(alerts)} alerts: {counts}")


if __name__ == "__main__":
    main()
