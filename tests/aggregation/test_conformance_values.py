"""The aggregation values of Esper's conformance cases, replayed on the aggregators alone:
a length window feeds enter/leave, and the insert (and remove) rows must match."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable

import pytest

from engine.aggregation import make_factory
from engine.epl_types import DOUBLE, INT, STRING

CASES = Path(__file__).resolve().parent.parent / "conformance" / "cases"

Column = tuple[Any, Callable[[dict], Any], Callable[[Any], Any]]


def _price(e: dict) -> Any:
    return e["price"]


def _sym(bean: Any) -> Any:
    return None if bean is None else bean["sym"]


def _same(got: Any, want: Any) -> bool:
    if want is None or got is None:
        return got is None and want is None
    if isinstance(want, float) or isinstance(got, float):
        return math.isclose(got, want, rel_tol=1e-9, abs_tol=0.0)
    return got == want


SCENARIOS: dict[str, tuple[int, dict[str, Column]]] = {
    "agg-stats": (5, {
        "med": (make_factory("median", [DOUBLE]), _price, lambda v: v),
        "sd": (make_factory("stddev", [DOUBLE]), _price, lambda v: v),
        "ad": (make_factory("avedev", [DOUBLE]), _price, lambda v: v),
        "ds": (make_factory("count", [STRING], distinct=True), lambda e: e["sym"], lambda v: v),
    }),
    "agg-nulls": (3, {
        "s": (make_factory("sum", [INT]), lambda e: e["v"], lambda v: v),
        "a": (make_factory("avg", [INT]), lambda e: e["v"], lambda v: v),
        "cv": (make_factory("count", [INT]), lambda e: e["v"], lambda v: v),
        "c": (make_factory("count", [], star=True), lambda e: None, lambda v: v),
        "mn": (make_factory("min", [INT]), lambda e: e["v"], lambda v: v),
    }),
    "agg-maxby-minby": (4, {
        "maxsym": (make_factory("maxby", [DOUBLE]), lambda e: (e["price"], e), _sym),
        "minsym": (make_factory("minby", [DOUBLE]), lambda e: (e["price"], e), _sym),
    }),
    "fully-aggregated-ungrouped": (3, {
        "s": (make_factory("sum", [INT]), lambda e: e["amount"], lambda v: v),
        "c": (make_factory("count", [], star=True), lambda e: None, lambda v: v),
    }),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_case(name: str) -> None:
    path = CASES / f"{name}.json"
    if not path.exists():
        pytest.skip(f"conformance case {name} not available")
    case = json.loads(path.read_text())
    size, columns = SCENARIOS[name]
    aggs = {col: (f.make(), arg, out) for col, (f, arg, out) in columns.items()}
    expected = {e["step"]: e for e in case["expected"]}
    window: list[dict] = []
    for step, action in enumerate(case["steps"]):
        if "send" not in action:
            continue
        before = {col: out(a.value()) for col, (a, _, out) in aggs.items()}
        event = action["event"]
        window.append(event)
        for a, arg, _ in aggs.values():
            a.enter(arg(event))
        if len(window) > size:
            gone = window.pop(0)
            for a, arg, _ in aggs.values():
                a.leave(arg(gone))
        after = {col: out(a.value()) for col, (a, _, out) in aggs.items()}
        want = expected[step]
        for col, v in want["new"][0].items():
            assert _same(after[col], v), (name, step, col, after[col], v)
        for col, v in ((want.get("old") or [{}])[0]).items():
            assert _same(before[col], v), (name, step, col, before[col], v)
