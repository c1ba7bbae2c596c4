"""Spark pipeline for epl-engine: batch replay and streaming of partitionable statements,
one engine per partition or key, with the local single-engine run as the reference.

Needs the `spark` extra (`pip install 'epl-engine[spark]'`): importing the package without
it says so.

Part of the facade: may import everything; nothing in engine, epl, views or filterindex
imports pipeline (or pyspark)."""
from importlib.util import find_spec as _find_spec

EXTRA_HINT = "pip install 'epl-engine[spark]'"

_missing = [_m for _m in ("pyarrow", "pyspark") if _find_spec(_m) is None]
if _missing:
    raise ModuleNotFoundError(
        f"the pipeline package needs the 'spark' extra ({', '.join(_missing)} not installed): "
        f"{EXTRA_HINT}", name=_missing[0])

from .partitioning import Verdict as Verdict, check_partitionable as check_partitionable  # noqa: E402
from .replay import replay as replay, run_local as run_local, run_partitioned as run_partitioned  # noqa: E402
from .parquet_out import replay_to_parquet as replay_to_parquet  # noqa: E402
from .runner import DEFAULT_FLUSH_MS as DEFAULT_FLUSH_MS  # noqa: E402
from .session import spark_session as spark_session  # noqa: E402
from .streaming import stream as stream  # noqa: E402

__all__ = ["replay", "replay_to_parquet", "run_local", "run_partitioned", "check_partitionable", "Verdict", "spark_session", "stream",
           "DEFAULT_FLUSH_MS"]
