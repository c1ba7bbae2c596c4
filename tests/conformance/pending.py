"""Conformance cases still expected to fail, by the issue that will make them pass.

`pending/issueN.txt` lists case names one per line (one file per issue, so parallel work on
different issues never edits the same file); lines starting with `#` are comments."""
from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent
CASES_DIR = HERE / "cases"


def pending_cases() -> dict[str, str]:
    """Case name -> the issue expected to make it pass."""
    out: dict[str, str] = {}
    for path in sorted((HERE / "pending").glob("issue*.txt")):
        for line in path.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                out[line] = f"pending: {path.stem}"
    return out
