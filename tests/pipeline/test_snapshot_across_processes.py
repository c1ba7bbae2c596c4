"""An engine snapshot restored in a fresh process (as a Spark worker restores keyed state)
goes on exactly as the original: keys handed out by module-level counters (filter slots,
partition orders) do not collide with restored ones."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CHILD = Path(__file__).with_name("_snapshot_child.py")
ROOT = Path(__file__).resolve().parents[2]


def _child(mode: str, path: Path) -> list:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, str(CHILD), mode, str(path)], capture_output=True,
                          text=True, env=env, timeout=120, check=True)
    return json.loads(done.stdout)


def test_restored_in_a_new_process_equals_an_uninterrupted_run(tmp_path):
    path = tmp_path / "snap.bin"
    full = _child("full", path)
    assert _child("first", path) + _child("second", path) == full
