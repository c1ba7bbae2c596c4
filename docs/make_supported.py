"""Writes docs/supported.md from docs/supported.toml (run: python docs/make_supported.py)."""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).parent
DATA = HERE / "supported.toml"
PAGE = HERE / "supported.md"

_MARK = {"supported": "supported", "accepted": "accepted (no effect)",
         "not supported": "**not supported**", "java-only": "Java only (out of scope)"}

HEADER = """# Supported Esper features

Every clause, statement kind, event representation, view, hint and annotation of Esper's EPL
reference (chapters 2-15), and whether this engine supports it. Java-only parts (bean classes,
scripts in other languages, data flows, Avro, inlined classes) are out of scope.

- **supported**: works as in Esper; the example runs in tests/statements/test_supported_page.py.
- **accepted (no effect)**: parsed and accepted, changes nothing (query-plan hints, visibility
  annotations); results are the same as without it.
- **not supported**: refused with an error; the test checks the example is still refused, so
  this page cannot fall behind the engine.

Generated from docs/supported.toml by `python docs/make_supported.py`; edit the data file.
"""


def render(data: dict) -> str:
    out = [HEADER]
    area = None
    for row in data["rows"]:
        if row["area"] != area:
            area = row["area"]
            out.append(f"\n## {area}\n\n| Feature | Status | Example / note |\n|---|---|---|")
        cell = []
        if row.get("example"):
            cell.append("`" + row["example"].replace("|", "\\|").replace("`", "") + "`")
        if row.get("note"):
            cell.append(row["note"].replace("|", "\\|"))
        if row.get("pending"):
            cell.append(f"(lands with {row['pending']})")
        feature = row["feature"].replace("|", "\\|")
        out.append(f"| {feature} | {_MARK[row['status']]} | {' '.join(cell) or ' '} |")
    return "\n".join(out) + "\n"


def load() -> dict:
    with open(DATA, "rb") as f:
        return tomllib.load(f)


if __name__ == "__main__":
    PAGE.write_text(render(load()))
    sys.exit(0)
