"""A local SparkSession set up for the pipeline: loopback only, no UI, no console progress,
no partition coalescing, RocksDB state store, workers on this very Python."""
from __future__ import annotations

import os
import sys
from typing import Any, Mapping, Optional

# Settings every pipeline session gets (a caller's `conf` overrides them).
SPARK_CONF: dict[str, str] = {
    "spark.driver.host": "127.0.0.1",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    # one engine per partition: merged partitions would leave a core idle
    "spark.sql.adaptive.coalescePartitions.enabled": "false",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    # transformWithStateInPandas needs RocksDB (the default store is refused for it)
    "spark.sql.streaming.stateStore.providerClass":
        "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider",
    "spark.sql.session.timeZone": "UTC",
}


def _environment() -> None:
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    # workers must run the interpreter that has the engine installed
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable


def spark_session(master: str = "local[*]", app_name: str = "epl-engine",
                  conf: Optional[Mapping[str, Any]] = None, log_level: str = "ERROR") -> Any:
    """Get or create the SparkSession. `conf` entries override SPARK_CONF; with an existing
    session (getOrCreate), static settings such as the master keep their first values."""
    _environment()
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(master).appName(app_name)
    for k, v in {**SPARK_CONF, **(conf or {})}.items():
        builder = builder.config(k, str(v))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel(log_level)
    return spark


def active_session() -> Any:
    """The active SparkSession, or a new local one."""
    from pyspark.sql import SparkSession

    spark = SparkSession.getActiveSession()
    return spark if spark is not None else spark_session()
