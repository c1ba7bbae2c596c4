"""Spark pipeline for epl-engine: batch replay and streaming of partitionable statements,
one engine per partition or key, with the local single-engine run as the reference."""
from .partitioning import Verdict as Verdict, check_partitionable as check_partitionable
from .replay import replay as replay, run_local as run_local, run_partitioned as run_partitioned
from .runner import DEFAULT_FLUSH_MS as DEFAULT_FLUSH_MS
from .session import spark_session as spark_session
from .streaming import stream as stream

__all__ = ["replay", "run_local", "run_partitioned", "check_partitionable", "Verdict", "spark_session", "stream",
           "DEFAULT_FLUSH_MS"]
