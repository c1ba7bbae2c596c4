"""Smoke tests: every sample runs as a user runs it (one command, from the repository root)
and says what it promises; the trading sample draws its PNG when matplotlib is there."""
from __future__ import annotations

import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

EXPECTED = {
    "fraud_rules.py": ["large", "burst", "card-test", "alerts:"],
    "trading_signals.py": ["buy", "sell", "signals over 240 ticks"],
    "iot_monitoring.py": ["silent", "'sensor': 'pump'", "hot", "1 reading(s) too late, dropped"],
    "log_sessions.py": ["duration", "abandoned  {'session': 's3', 'user': 'dan'}", "errors"],
    "power_meter.py": ["Total load", "CTI violations"],
}


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    path = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


def test_every_sample_is_smoke_tested_and_listed():
    listed = (SAMPLES / "README.md").read_text()
    for script in SAMPLES.glob("*.py"):
        assert script.name in EXPECTED, f"add {script.name} to EXPECTED"
        assert script.name in listed, f"list {script.name} in samples/README.md"
        assert script.read_text().startswith('"""'), f"{script.name} should explain itself first"


@pytest.mark.parametrize("script", sorted(EXPECTED), ids=str)
def test_python_samples_run(script):
    done = _run(str(SAMPLES / script))
    assert done.returncode == 0, done.stderr
    for text in EXPECTED[script]:
        assert text in done.stdout, f"{script}: {text!r} not in its output"


def test_trading_sample_draws_a_png(tmp_path):
    png = tmp_path / "signals.png"
    done = _run(str(SAMPLES / "trading_signals.py"), "--plot", str(png))
    assert done.returncode == 0, done.stderr
    if find_spec("matplotlib") is None:
        assert "matplotlib is not installed" in done.stderr and not png.exists()
        pytest.skip("matplotlib not installed: the plot is optional")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("epl", sorted(SAMPLES.glob("*.epl")), ids=lambda p: p.name)
def test_epl_samples_run(epl):
    events = epl.with_suffix(".jsonl")
    done = _run("-m", "engine.cli", "run", str(epl), str(events), "--time-field", "ts", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert '"statement": "large"' in done.stdout
