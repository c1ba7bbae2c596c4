"""A local Spark session shared by every Spark test (session start costs ~10 s)."""
from __future__ import annotations

import shutil
from importlib.util import find_spec

import pytest

# Without the spark extra the pipeline package refuses to import: skip the folder cleanly.
if find_spec("pyspark") is None or find_spec("pyarrow") is None:
    collect_ignore_glob = ["test_*.py"]


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
