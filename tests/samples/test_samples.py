"""Smoke tests: the README example and every sample run as a user would run them."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def test_readme_example_runs(capsys):
    code = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "in: [{'account': 'a1', 'amount': 400}] out: [{'account': 'a1', 'amount': 300}]" in out


@pytest.mark.parametrize("script", sorted(SAMPLES.glob("*.py")), ids=lambda p: p.name)
def test_python_samples_run(script):
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


@pytest.mark.parametrize("epl", sorted(SAMPLES.glob("*.epl")), ids=lambda p: p.name)
def test_epl_samples_run(epl):
    events = epl.with_suffix(".jsonl")
    done = subprocess.run([sys.executable, "-m", "engine.cli", "run", str(epl), str(events),
                           "--time-field", "ts", "--no-progress"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert '"statement": "large"' in done.stdout
