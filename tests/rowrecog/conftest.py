"""A local Spark session for the Spark test of match_recognize (session start costs ~10 s)."""
from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="session")
def spark():
    pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.skip("no java on PATH (make java)")
    from pipeline import spark_session
    session = spark_session("local[2]", app_name="epl-engine tests", conf={
        "spark.sql.shuffle.partitions": "2",
        "spark.default.parallelism": "2",
    })
    yield session
    session.stop()
