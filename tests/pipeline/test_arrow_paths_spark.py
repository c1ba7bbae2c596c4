"""Replay through the column-wise Arrow paths (events in, rows out) equals the local engine
for every column type, with Spark writing the output and with the workers writing it."""
from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from pipeline import replay, replay_to_parquet, run_local
from pipeline.replay import prepare_replay

from _pipeline_helpers import TYPED_MODULE as MODULE, bag, typed_rows, typed_table

pytestmark = pytest.mark.spark


def test_every_column_type_replays_as_the_local_engine_runs(spark, tmp_path):
    table = typed_table()
    data = str(tmp_path / "typed.parquet")
    pq.write_table(table, data)
    schema = prepare_replay(data, MODULE, event_type="T", time_column="ts", key="k",
                            spark=spark).job.schema
    want = bag(typed_rows(run_local(table, MODULE, event_type="T", time_column="ts"), schema))
    assert len(want) == 36
    got = [r.asDict(recursive=True) for r in
           replay(data, MODULE, event_type="T", time_column="ts", key="k", spark=spark).collect()]
    assert bag(got) == want
    # the same rows written by the workers themselves
    out = tmp_path / "out"
    written = replay_to_parquet(data, MODULE, str(out), event_type="T", time_column="ts",
                                key="k", spark=spark)
    assert (written.events, written.rows) == (12, 36)
    assert written.worker_cpu_seconds > 0
    assert bag(pq.read_table(str(out)).to_pylist()) == want
    with pytest.raises(ValueError, match="not empty"):
        replay_to_parquet(data, MODULE, str(out), event_type="T", time_column="ts", key="k",
                          spark=spark)
    # no rows at all: one empty file with the output schema
    quiet = "@name('none') select k from T(i8 > 100)"
    written = replay_to_parquet(data, quiet, str(out), event_type="T", time_column="ts",
                                key="k", spark=spark, mode="overwrite")
    assert written.rows == 0 and written.files == ("part-00000.parquet",)
    assert pq.read_table(str(out)).schema.names == ["statement", "stream", "time", "seq", "k"]
