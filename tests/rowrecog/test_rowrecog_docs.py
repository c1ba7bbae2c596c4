"""The worked examples of docs/match_recognize.md: each statement, fed the events listed
after it, delivers exactly the rows the page shows."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine import Engine

DOC = Path(__file__).resolve().parents[2] / "docs" / "match_recognize.md"
_BLOCK = re.compile(r"```(epl|events|output)\n(.*?)```", re.S)


def _examples() -> list:
    blocks = _BLOCK.findall(DOC.read_text())
    out = []
    for i in range(0, len(blocks), 3):
        (k1, epl), (k2, events), (k3, output) = blocks[i:i + 3]
        assert (k1, k2, k3) == ("epl", "events", "output")
        out.append(pytest.param(epl, events, output, id=re.search(r"@name\('(\w+)'\)", epl).group(1)))
    return out


def test_the_page_has_the_examples():
    assert len(_examples()) >= 5


@pytest.mark.parametrize("epl, events, output", _examples())
def test_example(epl, events, output):
    engine = Engine(time="simulated")
    engine.advance_time(0)
    stmt = engine.deploy(epl)[-1]
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    for line in events.strip().splitlines():
        step = json.loads(line)
        if "time" in step:
            engine.advance_time(step["time"])
        else:
            [(type_name, event)] = step.items()
            engine.send(event, type_name)
    assert got == [json.loads(line) for line in output.strip().splitlines()]
