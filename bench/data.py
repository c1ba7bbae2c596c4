"""Seeded, generated benchmark data: the engine and the hand-written loop get the same events."""
from __future__ import annotations

import random

SYMBOL_COUNT = 100
SYMBOLS: tuple[str, ...] = tuple(f"S{i}" for i in range(SYMBOL_COUNT))   # shared string objects


def ticks(n: int, seed: int = 4) -> list[dict]:
    """`Tick {symbol, price, volume}` over 100 symbols, prices in [0, 100)."""
    rng = random.Random(seed)
    pick = rng.randrange
    rand = rng.random
    syms = SYMBOLS
    return [{"symbol": syms[pick(SYMBOL_COUNT)], "price": round(rand() * 100.0, 2),
             "volume": pick(1, 1000)} for _ in range(n)]


def pattern_events(n: int, ids: int = 1000, seed: int = 5) -> list[tuple[str, dict]]:
    """`(type name, event)` pairs, A or B with equal odds, `id` among `ids` values; `seq` is
    the event's position (to check which events were paired)."""
    rng = random.Random(seed)
    pick = rng.randrange
    return [("A" if pick(2) else "B", {"id": pick(ids), "seq": i}) for i in range(n)]


def withdrawals(n: int, accounts: int = 1000, seed: int = 6) -> list[dict]:
    """`Withdrawal {account, amount}` over `accounts` accounts."""
    rng = random.Random(seed)
    pick = rng.randrange
    names = [f"A{i}" for i in range(accounts)]
    return [{"account": names[pick(accounts)], "amount": pick(1, 500)} for _ in range(n)]


TICK_SCHEMA = "create schema Tick(symbol string, price double, volume long)"
PATTERN_SCHEMAS = ("create schema A(id int, seq int)", "create schema B(id int, seq int)")
WITHDRAWAL_SCHEMA = "create schema Withdrawal(account string, amount int)"
