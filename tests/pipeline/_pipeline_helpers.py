"""Shared by the pipeline tests: random keyed events and comparing output rows."""
from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Iterable

from hypothesis import strategies as st

SCHEMA = "create schema T(k string, v int, ts long, n long)"

GROUPWIN = ("@name('gw') select irstream k, sum(v) as total, count(*) as c "
            "from T#groupwin(k)#length(3) group by k")
TIME_BATCH = "@name('tb') select irstream k, sum(v) as total from T#time_batch(1 sec) group by k"
PATTERN = ("@name('pat') select a.k as k, a.v as av, b.v as bv from pattern "
           "[every a=T(v > 50) -> b=T(k = a.k and v < 30) where timer:within(500 msec)]")
MODULE = ";\n".join([SCHEMA, GROUPWIN, TIME_BATCH, PATTERN])

# time steps: ties, close events, gaps longer than a batch
_STEPS = st.sampled_from([0, 1, 7, 50, 120, 333, 900, 1500, 2600])


@st.composite
def keyed_events(draw: Any, max_size: int = 60, keys: int = 6) -> list[dict]:
    """Events of type T in time order: k among `keys` keys, n the input position."""
    steps = draw(st.lists(_STEPS, min_size=1, max_size=max_size))
    out, t = [], 1_000_000
    for i, step in enumerate(steps):
        t += step
        out.append({"k": f"k{draw(st.integers(0, keys - 1))}", "v": draw(st.integers(0, 99)),
                    "ts": t, "n": i})
    return out


def _norm(v: Any) -> Any:
    if isinstance(v, float):
        return round(v, 9) if math.isfinite(v) else repr(v)
    return v


def bag(rows: Iterable[dict]) -> list[str]:
    """Rows without seq, as a sorted list (a multiset)."""
    return sorted(repr(sorted((k, _norm(v)) for k, v in r.items() if k != "seq")) for r in rows)


def per_key(rows: Iterable[dict], key: str = "k") -> dict:
    """Each (statement, key)'s rows in delivery order (time, then seq)."""
    out: dict = defaultdict(list)
    for r in sorted(rows, key=lambda r: (r["time"], r["seq"])):
        out[(r["statement"], r.get(key))].append(
            tuple((k, _norm(v)) for k, v in sorted(r.items()) if k != "seq"))
    return dict(out)


def assert_same_output(got: list[dict], want: list[dict], key: str = "k") -> None:
    assert bag(got) == bag(want)
    assert per_key(got, key) == per_key(want, key)
