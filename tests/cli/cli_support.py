"""Shared by the CLI tests: running `epl` in-process or as a process, and reading its output
as rows comparable with the pipeline's."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def run_epl(*args: str, cwd: Path | None = None, input: str | None = None,
            timeout: int = 120) -> subprocess.CompletedProcess:
    """`python -m engine.cli ARGS` in a new process, this checkout first on the path."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], cwd=str(cwd or ROOT), env=env,
                          capture_output=True, text=True, input=input, timeout=timeout)


def delivery_rows(jsonl: str) -> list[tuple]:
    """`epl run` JSON lines as (time, statement, stream, row) in delivery order, inserts of a
    delivery before its removes (the pipeline's row order)."""
    out = []
    for line in jsonl.splitlines():
        d = json.loads(line)
        for stream, key in (("insert", "new"), ("remove", "old")):
            for row in d[key] or ():
                out.append((d["time"], d["statement"], stream, tuple(sorted(row.items()))))
    return out


def pipeline_rows(rows: list[dict], columns: dict[str, list[str]]) -> list[tuple]:
    """run_local rows in the same shape (each statement's own columns)."""
    return [(r["time"], r["statement"], r["stream"],
             tuple(sorted((c, r[c]) for c in columns[r["statement"]])))
            for r in sorted(rows, key=lambda r: r["seq"])]
