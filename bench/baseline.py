"""Saved baselines: `--save FILE` writes each row's figures, `--compare FILE` prints each
row's engine/loop ratio against the saved one and flags a row that got more than 10% slower
(or, for memory rows, bigger)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from .harness import Row

SLOWER = 0.10       # a ratio more than 10% below the baseline's is flagged


def save(rows: list[Row], path: str) -> None:
    data = {r.key: {"ratio": r.ratio, "engine": r.engine_eps, "loop": r.loop_eps, "unit": r.unit}
            for r in rows if r.ratio is not None}
    Path(path).write_text(json.dumps({"version": 1, "rows": data}, indent=1, sort_keys=True) + "\n")


def load(path: str) -> dict[str, Any]:
    data = json.loads(Path(path).read_text())
    return data.get("rows", {}) if isinstance(data, dict) else {}


def change(row: Row, base: Optional[dict]) -> Optional[float]:
    """The row's ratio relative to the baseline's (1.0 = unchanged, 0.8 = 20% slower)."""
    if base is None or row.ratio is None or not base.get("ratio"):
        return None
    return row.ratio / base["ratio"]


def compare(rows: list[Row], path: str) -> tuple[str, int]:
    """A table of ratios now and in the baseline, and how many rows got more than 10% worse.
    Ratios, not absolute figures: both runs measured engine and loop side by side."""
    base = load(path)
    head = ("workload", "case", "baseline", "now", "now/baseline", "")
    lines = [head]
    worse = 0
    for r in rows:
        b = base.get(r.key)
        c = change(r, b)
        flag = ""
        if c is None:
            flag = "new row" if b is None and r.ratio is not None else ""
        elif c < 1.0 - SLOWER:
            flag = f"SLOWER by {(1.0 - c) * 100:.0f}%"
            worse += 1
        lines.append((r.workload, r.case, "" if b is None or b.get("ratio") is None else f"{b['ratio']:.3f}",
                      "" if r.ratio is None else f"{r.ratio:.3f}", "" if c is None else f"{c:.2f}", flag))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(head) - 1)]
    out = ["  ".join([str(c).rjust(w) if i >= 2 else str(c).ljust(w)
                      for i, (c, w) in enumerate(zip(line, widths))] + [line[-1]]).rstrip() for line in lines]
    return "\n".join(out), worse
