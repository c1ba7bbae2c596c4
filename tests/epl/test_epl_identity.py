"""Every line of identity.epl prints back to itself; every conformance statement parses
and round-trips to an equal tree."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conformance.pending import pending_cases

from epl import parse, parse_module, to_epl

HERE = Path(__file__).parent
IDENTITY = [line for line in (HERE / "identity.epl").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
CASES = HERE.parent / "conformance" / "cases"
PENDING: dict[str, str] = pending_cases()
# statements of cases still pending may not parse yet
CONFORMANCE = sorted({
    (s, f.stem in PENDING) for f in sorted(CASES.glob("*.json"))
    for s in json.loads(f.read_text())["epl"]})


def test_identity_file_is_large_enough():
    assert len(IDENTITY) >= 80


@pytest.mark.parametrize("text", IDENTITY)
def test_identity(text):
    tree = parse(text)
    assert to_epl(tree) == text
    assert parse(to_epl(tree)) == tree


@pytest.mark.parametrize("text", [
    pytest.param(text, marks=[pytest.mark.xfail(reason="case pending")] if pending else [])
    for text, pending in CONFORMANCE])
def test_conformance_statement_round_trips(text):
    tree = parse(text)
    assert parse(to_epl(tree)) == tree


def test_identity_as_one_module():
    module = parse_module(";\n".join(IDENTITY) + ";")
    assert [to_epl(s) for s in module.statements] == IDENTITY
    assert list(module.texts) == IDENTITY
    assert parse_module(to_epl(module)) == module


def _nodes(node):
    import dataclasses
    if isinstance(node, tuple):
        for x in node:
            yield from _nodes(x)
    elif dataclasses.is_dataclass(node):
        yield node
        for f in dataclasses.fields(node):
            if f.name != "span":
                yield from _nodes(getattr(node, f.name))


@pytest.mark.parametrize("text", IDENTITY[::7])
def test_every_node_has_a_consistent_span(text):
    from epl.ast import PropSeg
    from epl.lexer import position
    for node in _nodes(parse(text)):
        if isinstance(node, PropSeg):
            continue
        sp = node.span
        assert 0 <= sp.start < sp.end <= len(text), (type(node).__name__, sp)
        assert position(text, sp.start) == (sp.line, sp.column)
