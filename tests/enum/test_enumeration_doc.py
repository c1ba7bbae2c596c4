"""Runs every example of docs/reference/enumeration.md: each ```example block's statement,
event and expected value of column `r`."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine import Engine
from engine.bean import EventBean

DOC = Path(__file__).resolve().parents[2] / "docs" / "reference" / "enumeration.md"
_BLOCK = re.compile(r"```example\n(.*?)```", re.S)


def _examples() -> list:
    out = []
    for block in _BLOCK.findall(DOC.read_text()):
        fields = dict(line.split(": ", 1) for line in block.strip().splitlines())
        out.append(pytest.param(fields["epl"], json.loads(fields["send"]), json.loads(fields["expect"]),
                                id=fields["epl"][:60]))
    return out


def _plain(v):
    if isinstance(v, EventBean):
        return _plain(v.to_dict())
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def test_every_method_has_an_example():
    text = DOC.read_text()
    from epl.compiler.enummethods import METHODS
    headings = {h.lower() for h in re.findall(r"^### (\w+)$", text, re.M)}
    assert set(METHODS) <= headings
    assert len(_examples()) >= len(METHODS)


@pytest.mark.parametrize("epl,event,expected", _examples())
def test_doc_example(epl, event, expected):
    e = Engine(time="simulated")
    e.epl("create schema Item(id string, p00 int)")
    e.epl("create schema Box(contained Item[], strvals string[], intvals int[], other int[])")
    got: list = []
    e.epl(epl).add_listener(lambda new, old: got.extend(new))
    e.send(event, "Box")
    assert _plain(got[0].get("r")) == expected
