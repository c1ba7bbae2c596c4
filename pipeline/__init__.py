"""Spark pipeline for epl-engine: batch replay and streaming of partitionable statements,
one engine per partition or key, with the local single-engine run as the reference.

Needs the `spark` extra (`pip install 'epl-engine[spark]'`): importing the package without
it says so. The names below load on first use, so `epl run` never pays for pyarrow."""
from __future__ import annotations

import importlib
from importlib.util import find_spec as _find_spec
from typing import TYPE_CHECKING, Any

EXTRA_HINT = "pip install 'epl-engine[spark]'"

_missing = [m for m in ("pyarrow", "pyspark") if _find_spec(m) is None]
if _missing:
    raise ModuleNotFoundError(
        f"the pipeline package needs the 'spark' extra ({', '.join(_missing)} not installed): "
        f"{EXTRA_HINT}", name=_missing[0])

if TYPE_CHECKING:
    from .partitioning import Verdict as Verdict, check_partitionable as check_partitionable
    from .replay import replay as replay, run_local as run_local, run_partitioned as run_partitioned
    from .runner import DEFAULT_FLUSH_MS as DEFAULT_FLUSH_MS
    from .session import spark_session as spark_session
    from .streaming import stream as stream

_WHERE = {
    "Verdict": "partitioning", "check_partitionable": "partitioning", "replay": "replay",
    "run_local": "replay", "run_partitioned": "replay", "DEFAULT_FLUSH_MS": "runner",
    "spark_session": "session", "stream": "streaming",
}
__all__ = ["replay", "run_local", "run_partitioned", "check_partitionable", "Verdict", "spark_session", "stream",
           "DEFAULT_FLUSH_MS"]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
