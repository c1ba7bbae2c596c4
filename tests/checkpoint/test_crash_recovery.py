"""Crash and recover: a child process running the mixed workload is killed with SIGKILL at a
random point; a new process restores its last checkpoint, truncates the output back to the
checkpoint's position and replays the events after it. The combined output must equal an
uninterrupted run's, row for row."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
CHILD = HERE / "run_child.py"
N, SEED, EVERY = 1000, 7, 97


def _run(outdir: Path, *extra: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, str(CHILD), str(outdir), str(N), str(SEED), str(EVERY),
                           *extra], env=env, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    d = tmp_path_factory.mktemp("reference")
    r = _run(d)
    assert r.returncode == 0, r.stderr.decode()
    data = (d / "out.jsonl").read_bytes()
    assert data.count(b"\n") > 5000
    return data


def _resume_and_compare(d: Path, reference: bytes) -> None:
    r = _run(d, "--resume")
    assert r.returncode == 0, r.stderr.decode()
    got = (d / "out.jsonl").read_bytes()
    ref_lines, got_lines = reference.splitlines(), got.splitlines()
    for i, (a, b) in enumerate(zip(ref_lines, got_lines)):
        assert a == b, f"line {i + 1} differs:\nexpected {a!r}\ngot      {b!r}"
    assert len(got_lines) == len(ref_lines)


@pytest.mark.parametrize("kill_seed", [1, 2])
def test_killed_inside_a_delivery_then_recovered(tmp_path: Path, reference: bytes,
                                                 kill_seed: int) -> None:
    """The child SIGKILLs itself right after writing a random delivery (mid-event: the rest
    of that event's deliveries are never written)."""
    total = reference.count(b"\n")
    kill_at = random.Random(kill_seed).randrange(total // 10, total - 10)
    r = _run(tmp_path, "--kill-at", str(kill_at))
    assert r.returncode == -signal.SIGKILL
    assert (tmp_path / "out.jsonl").read_bytes().count(b"\n") == kill_at
    _resume_and_compare(tmp_path, reference)


def test_killed_from_outside_at_a_random_time(tmp_path: Path, reference: bytes) -> None:
    """The parent SIGKILLs the child once its output passes a random size."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    target = random.Random(11).randrange(len(reference) // 5, len(reference) * 4 // 5)
    out = tmp_path / "out.jsonl"
    p = subprocess.Popen([sys.executable, str(CHILD), str(tmp_path), str(N), str(SEED), str(EVERY)],
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while p.poll() is None and time.monotonic() < deadline:
            if out.exists() and out.stat().st_size >= target:
                break
            time.sleep(0.005)
        p.send_signal(signal.SIGKILL)
    finally:
        p.wait()
    _resume_and_compare(tmp_path, reference)


def test_killed_before_the_first_checkpoint(tmp_path: Path, reference: bytes) -> None:
    r = _run(tmp_path, "--kill-at", "20")
    assert r.returncode == -signal.SIGKILL
    assert not (tmp_path / "ckpt.bin").exists()
    _resume_and_compare(tmp_path, reference)
