"""docs/supported.md is generated from docs/supported.toml and up to date; every supported
row's example deploys, every "not supported" example is still refused."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from engine import Engine
from epl.errors import EPLError

DOCS = Path(__file__).parents[2] / "docs"
_spec = importlib.util.spec_from_file_location("make_supported", DOCS / "make_supported.py")
make_supported = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_supported)
DATA = make_supported.load()
ROWS = [r for r in DATA["rows"] if r.get("example")]


def test_page_is_generated_from_the_data():
    assert (DOCS / "supported.md").read_text() == make_supported.render(DATA), \
        "docs/supported.md is stale: run python docs/make_supported.py"


def test_every_row_has_a_known_status():
    assert {r["status"] for r in DATA["rows"]} <= set(make_supported._MARK)
    assert len(DATA["rows"]) >= 90


def _params(statuses):
    out = []
    for r in ROWS:
        if r["status"] not in statuses:
            continue
        marks = [pytest.mark.skip(reason=f"lands with {r['pending']}")] if r.get("pending") else []
        out.append(pytest.param(r, id=r["feature"][:60], marks=marks))
    return out


def _deploy(example: str) -> None:
    engine = Engine(time="simulated")
    engine.deploy(DATA["preamble"])
    engine.deploy(example)
    engine.send({"sym": "A", "price": 1.0, "vol": 1, "ts": 0}, "Tick")
    engine.advance_time(1000)


@pytest.mark.parametrize("row", _params({"supported", "accepted"}))
def test_supported_example_runs(row):
    _deploy(row["example"])


@pytest.mark.parametrize("row", _params({"not supported"}))
def test_not_supported_example_is_refused(row):
    with pytest.raises(EPLError):
        _deploy(row["example"])
