"""Trading signals: a price crossing its moving average, per symbol, with a picture.

Run it: `python samples/trading_signals.py` prints the signals;
`python samples/trading_signals.py --plot signals.png` also draws each symbol's prices,
moving average and signals (needs matplotlib: `pip install 'epl-engine[plot]'`).

- `MA`: every tick with its symbol's average over the last 8 ticks (`insert into` a stream).
- `signals`: a pattern over consecutive MA events of one symbol; a buy when the price moves
  from at or below its average to above it, a sell the other way round.

The ticks are a seeded random walk, so every run prints the same signals.
"""
from __future__ import annotations

import argparse
import random
import sys

from engine import Engine

MODULE = """
create schema Tick(symbol string, price double, ts long);

@name('ma') insert into MA
  select symbol, price, ts, avg(price) as ma from Tick#groupwin(symbol)#length(8) group by symbol;

@name('signals') select b.symbol as symbol, b.ts as ts, b.price as price, b.ma as ma,
    case when b.price > b.ma then 'buy' else 'sell' end as side
  from pattern [every a=MA -> b=MA(symbol = a.symbol)]
  where (a.price <= a.ma and b.price > b.ma) or (a.price >= a.ma and b.price < b.ma)
"""


def ticks(n: int = 120, seed: int = 42) -> list[dict]:
    rnd = random.Random(seed)
    prices = {"ACME": 100.0, "INITECH": 40.0}
    out = []
    for i in range(n):
        for symbol in prices:
            prices[symbol] = round(prices[symbol] * (1 + rnd.gauss(0.0005, 0.012)), 2)
            out.append({"symbol": symbol, "price": prices[symbol], "ts": i * 60_000})
    return out


def run() -> tuple[list[dict], list[dict], list[dict]]:
    """(ticks, moving averages, signals) as plain dicts."""
    engine = Engine(time="simulated")
    dep = engine.deploy(MODULE)
    averages: list[dict] = []
    signals: list[dict] = []
    dep.statement("ma").add_listener(lambda new, old: averages.extend(e.to_dict() for e in new))
    dep.statement("signals").add_listener(lambda new, old: signals.extend(e.to_dict() for e in new))
    data = ticks()
    for t in data:
        engine.advance_time_span(t["ts"])
        engine.send(t, "Tick")
    return data, averages, signals


def plot(path: str, averages: list[dict], signals: list[dict]) -> bool:
    """Draw prices, averages and signals into a PNG; False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    symbols = sorted({a["symbol"] for a in averages})
    fig, axes = plt.subplots(len(symbols), 1, figsize=(10, 3.2 * len(symbols)), sharex=True)
    for ax, symbol in zip(axes if len(symbols) > 1 else [axes], symbols):
        rows = [a for a in averages if a["symbol"] == symbol]
        minutes = [a["ts"] / 60_000 for a in rows]
        ax.plot(minutes, [a["price"] for a in rows], label="price", linewidth=1.2)
        ax.plot(minutes, [a["ma"] for a in rows], label="moving average (8)", linewidth=1, alpha=0.8)
        for side, marker, color in (("buy", "^", "tab:green"), ("sell", "v", "tab:red")):
            pts = [s for s in signals if s["symbol"] == symbol and s["side"] == side]
            ax.scatter([s["ts"] / 60_000 for s in pts], [s["price"] for s in pts], marker=marker,
                       color=color, s=60, zorder=3, label=side)
        ax.set_title(symbol)
        ax.set_ylabel("price")
        ax.legend(loc="upper left", fontsize=8)
    (axes[-1] if len(symbols) > 1 else axes).set_xlabel("minute")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--plot", metavar="FILE.png", help="draw prices, averages and signals into a PNG")
    args = p.parse_args(argv)
    _, averages, signals = run()
    for s in signals:
        print(f"minute {s['ts'] // 60_000:>3}  {s['symbol']:<8} {s['side']:<4}  price {s['price']:8.2f}  "
              f"average {s['ma']:8.2f}")
    print(f"\n{len(signals)} signals over {len(averages)} ticks")
    if args.plot:
        if plot(args.plot, averages, signals):
            print(f"plot written to {args.plot}")
        else:
            print("no plot: matplotlib is not installed (pip install 'epl-engine[plot]')", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
