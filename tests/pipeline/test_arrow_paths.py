"""The column-wise Arrow paths without Spark: a partition's record batches through the
worker's function give the local engine's rows for every column type; the fall-backs (maps
with a repeated key, rows that are not dicts) still work; Parquet footers give the times."""
from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline import run_local
from pipeline.arrow import RowBuffer, batch_events, declared_properties, output_schema
from pipeline.partitioning import analyse, statement_texts
from pipeline.replay import SEQ_COL, TIME_COL, PartitionTask, parquet_time_bounds
from pipeline.runner import DEFAULT_FLUSH_MS, plan_job

from _pipeline_helpers import TYPED_MODULE as MODULE, typed_rows, typed_table


def test_partition_batches_give_the_local_rows_for_every_column_type():
    table = typed_table()
    texts = statement_texts(MODULE)
    times = table.column("ts").to_pylist()
    job = plan_job(analyse(texts, "k", start_time=times[0]).texts, "T", times[0],
                   tuple(declared_properties(table.schema).items()), check_events=False)
    assert not job.check_events
    task = PartitionTask(job, table.schema.names, times[-1] + DEFAULT_FLUSH_MS, batch_rows=4)
    fed = table.append_column(TIME_COL, table.column("ts")) \
        .append_column(SEQ_COL, pa.array(range(table.num_rows), pa.int64()))
    out = list(task(iter(fed.to_batches(max_chunksize=5))))
    assert len(out) > 1                                   # cut every few rows
    got = pa.Table.from_batches(out).to_pylist()
    assert [r["seq"] for r in got] == list(range(len(got)))
    want = typed_rows(run_local(table, MODULE, event_type="T", time_column="ts"), job.schema)
    assert got == want          # one partition: the same rows in the same order


def test_maps_become_dicts_and_a_repeated_key_keeps_the_last_value():
    mt = pa.map_(pa.string(), pa.int64())
    batch = pa.RecordBatch.from_pydict({
        "m": pa.array([[("x", 1), ("y", 2)], None], mt),
        "st": pa.array([{"n": [("a", 1)]}, None], pa.struct([("n", mt)]))})
    assert batch_events(batch, ["m", "st"]) == [{"m": {"x": 1, "y": 2}, "st": {"n": {"a": 1}}},
                                                {"m": None, "st": None}]
    dup = pa.RecordBatch.from_pydict({"m": pa.array([[("x", 1), ("x", 2)]], mt)})
    assert batch_events(dup, ["m"]) == [{"m": {"x": 2}}]


class _Obj:
    def __init__(self, **kw):
        self.__dict__.update(kw)


class _ClassBean:
    """A delivered event whose underlying is an object, not a dict."""

    def __init__(self, **kw):
        self.underlying = _Obj(**kw)

    def to_dict(self):
        return dict(vars(self.underlying))


def test_rows_that_are_not_dicts_are_read_through_to_dict():
    buf = RowBuffer(output_schema([("a", pa.int64()), ("b", pa.string())]))
    rows = buf.statement("s", ["a", "b"])
    rows.deliver(3, 0, [_ClassBean(a=1, b="x")], [_ClassBean(a=2)])
    assert [(r["stream"], r["a"], r["b"]) for r in buf.take().to_pylist()] == \
        [("insert", 1, "x"), ("remove", 2, None)]


def test_time_bounds_from_parquet_footers(tmp_path):
    t = pa.table({"ts": pa.array([30, 10, 20], pa.int64()), "k": ["a", "b", "c"]})
    d = tmp_path / "d"
    d.mkdir()
    pq.write_table(t, str(d / "one.parquet"))
    pq.write_table(t.slice(0, 1).set_column(0, "ts", pa.array([5], pa.int64())), str(d / "two.parquet"))
    assert parquet_time_bounds(str(d), "ts") == (5, 30, 4)
    pq.write_table(t, str(tmp_path / "nostats.parquet"), write_statistics=False)
    assert parquet_time_bounds(str(tmp_path / "nostats.parquet"), "ts") is None
    assert parquet_time_bounds(str(tmp_path / "missing.parquet"), "ts") is None
    assert parquet_time_bounds(str(d / "one.parquet"), "nope") is None
