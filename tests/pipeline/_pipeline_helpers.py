"""Shared by the pipeline tests: random keyed events and comparing output rows."""
from __future__ import annotations

import datetime as dt
import decimal
import math
from collections import defaultdict
from typing import Any, Iterable

import pyarrow as pa
from hypothesis import strategies as st

from pipeline.arrow import column_array, converter

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


# statements over typed_table's columns: every column, aggregates, property expressions
TYPED_MODULE = [
    "@name('all') select * from T",
    "@name('agg') select k, count(*) as c, sum(i64) as si, max(f64) as mf, min(i8) as mi, "
    "sum(d) as sd from T#groupwin(k)#length(2) group by k",
    "@name('get') select k, m('a') as ma, f32 * 2 as f2, b and true as bb, s || 'x' as sx from T",
]


def typed_table(n: int = 12) -> pa.Table:
    """Every column type the conversion handles, each with a null in row 5."""
    base = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)

    def col(values, t):
        return pa.array([None if i == 5 else v for i, v in enumerate(values)], t)
    return pa.table({
        "k": [f"k{i % 3}" for i in range(n)],
        "ts": pa.array([1_000 + 300 * i for i in range(n)], pa.int64()),
        "i8": col([i - 6 for i in range(n)], pa.int8()),
        "i16": col([300 * i for i in range(n)], pa.int16()),
        "i32": col([70_000 * i for i in range(n)], pa.int32()),
        "i64": col([2**40 + i for i in range(n)], pa.int64()),
        "f32": col([i / 4 for i in range(n)], pa.float32()),
        "f64": col([i / 3 for i in range(n)], pa.float64()),
        "s": col([f"s{i}" for i in range(n)], pa.string()),
        "b": col([i % 2 == 0 for i in range(n)], pa.bool_()),
        "at": col([base + dt.timedelta(milliseconds=250 * i) for i in range(n)],
                  pa.timestamp("us", tz="UTC")),
        "d": col([decimal.Decimal(i) / 4 for i in range(n)], pa.decimal128(10, 2)),
        # nested values: maps become dicts, structs dicts, lists lists (output as JSON text)
        "m": col([[("a", i), ("b", -i)] for i in range(n)], pa.map_(pa.string(), pa.int64())),
        "st": col([{"x": i, "y": f"y{i}"} for i in range(n)],
                  pa.struct([("x", pa.int32()), ("y", pa.string())])),
        "l": col([[i, i + 1] for i in range(n)], pa.list_(pa.int64())),
    })


def typed_rows(rows: list[dict], schema: pa.Schema) -> list[dict]:
    """Local rows with each value made to fit its output column, as the workers' batches do."""
    arrays = [column_array([r[f.name] for r in rows], f.type, converter(f.type)) for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema).to_pylist()
