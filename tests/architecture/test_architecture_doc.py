"""docs/architecture.md stays true: every file and folder it names exists, and every
function it names in the way of an event is defined where it says."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "architecture.md").read_text()


def test_named_paths_exist():
    paths = set(re.findall(r"`?((?:engine|epl|views|filterindex|pipeline|tests)/[\w/.*<>-]*)", PAGE))
    missing = []
    for p in paths:
        p = p.rstrip(".")
        if "*" in p or "<" in p:
            continue
        if not (ROOT / p).exists():
            missing.append(p)
    assert not missing, missing


def test_feature_table_modules_exist():
    """The compiler column names modules of epl/compiler/."""
    table = PAGE.split("## Where each feature lives")[1].split("## How to add")[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and ".py" in line]
    missing = []
    for row in rows:
        cells = row.split("|")
        if len(cells) < 3:
            continue
        for name in re.findall(r"`([\w/]+\.py|[\w]+/)`", cells[2]):
            if "/" in name.rstrip("/") or name.startswith(("engine", "epl", "views", "filterindex")):
                continue
            if not (ROOT / "epl" / "compiler" / name).exists():
                missing.append(name)
    assert not missing, missing


def test_event_path_names_are_defined():
    block = PAGE.split("## The way of an event")[1].split("```")[1]
    for cls, fn in re.findall(r"\b([A-Z]\w+)\.(_?\w+)\(", block):
        src = "\n".join(p.read_text() for d in ("engine", "views", "filterindex")
                        for p in (ROOT / d).rglob("*.py"))
        assert re.search(rf"class {cls}\b", src), cls
        assert re.search(rf"def {fn}\b", src), f"{cls}.{fn}"
