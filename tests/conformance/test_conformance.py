"""Every conformance case (real-Esper outputs, copied from ../shared/conformance) replayed
through the engine. Cases that need a feature still being built are expected to fail, with
the issue that covers it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conformance.pending import pending_cases

from engine.replay import diff_calls, replay_case

HERE = Path(__file__).parent
CASES = sorted((HERE / "cases").glob("*.json"))

# case name -> issue that will make it pass (strict xfail: a case that starts passing must
# leave the list)
PENDING: dict[str, str] = pending_cases()


def _params():
    for path in CASES:
        name = path.stem
        marks = []
        if name in PENDING:
            marks.append(pytest.mark.xfail(reason=PENDING[name], strict=True))
        yield pytest.param(path, id=name, marks=marks)


@pytest.mark.parametrize("path", list(_params()))
def test_case(path: Path) -> None:
    case = json.loads(path.read_text())
    calls = replay_case(case)
    diffs = diff_calls(calls, case["expected"])
    assert not diffs, f"{case['name']}:\n" + "\n".join(diffs)
