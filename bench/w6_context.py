"""Context-partitioned workload: `create context ByAcc partition by account from Withdrawal`
and `context ByAcc select account, sum(amount) from Withdrawal#length(10)`."""
from __future__ import annotations

from collections import deque

from engine import Engine

from . import data
from .harness import Row, Run, measure, not_supported, stopwatch

NAME = "W6 keyed context"
CONTEXT = "create context ByAcc partition by account from Withdrawal"
EPL = "context ByAcc select account, sum(amount) from Withdrawal#length(10)"
SIZES = {False: 200_000, True: 20_000}
ACCOUNTS = 1000
WINDOW = 10


def _listener(acc: list):
    def listen(new, old):
        for row in new:
            acc[0] += 1
            acc[1] += row.underlying["sum(amount)"]
    return listen


def engine_run(events: list[dict]) -> Run:
    engine = Engine(time="simulated")
    engine.epl(data.WITHDRAWAL_SCHEMA)
    engine.epl(CONTEXT)
    acc = [0, 0]           # rows, total of the sums
    engine.epl(EPL).add_listener(_listener(acc))
    elapsed = stopwatch()
    engine.send_many(events, "Withdrawal")
    return elapsed(), tuple(acc)


def loop_run(events: list[dict]) -> Run:
    acc = [0, 0]
    listen = _listener(acc)
    windows: dict = {}       # account -> [amounts, their sum]
    elapsed = stopwatch()
    for ev in events:
        account = ev["account"]
        w = windows.get(account)
        if w is None:
            w = windows[account] = [deque(), 0]
        amount = ev["amount"]
        w[0].append(amount)
        w[1] += amount
        if len(w[0]) > WINDOW:
            w[1] -= w[0].popleft()
        listen([_Row({"account": account, "sum(amount)": w[1]})], None)
    return elapsed(), tuple(acc)


class _Row:
    """The loop's output row, read like the engine's (`row.underlying`)."""

    __slots__ = ("underlying",)

    def __init__(self, underlying: dict) -> None:
        self.underlying = underlying


def supported() -> str:
    """'' when the engine runs keyed contexts, else why not."""
    try:
        engine_run(data.withdrawals(10, 3))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return ""


def run(quick: bool, repeat: int) -> list[Row]:
    case = "partition by account, #length(10)"
    reason = supported()
    if reason:
        return [not_supported(NAME, case, reason)]
    events = data.withdrawals(SIZES[quick], ACCOUNTS)
    return [measure(NAME, case, len(events), lambda: engine_run(events), lambda: loop_run(events), repeat)]
