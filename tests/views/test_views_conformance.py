"""Replays the conformance cases whose statement is a plain `select irstream` over one view
chain (no aggregation) against the views alone, and compares with Esper's output."""
from __future__ import annotations

import json
import operator
import re
from pathlib import Path
from typing import Any, Callable, Optional

import pytest
from conformance.pending import pending_cases

from engine.bean import EventBean
from engine.errors import EventTypeError
from engine.event_types import EventTypeRegistry
from views import SimulatedViewContext, ViewArg, create_factories, make_chain

CASES = Path(__file__).parents[1] / "conformance" / "cases"

STATEMENT = re.compile(
    r"^@name\('(?P<name>\w+)'\)\s+select\s+irstream\s+(?P<select>.+?)\s+from\s+(?P<type>\w+)"
    r"(?:\((?P<filter>[^)]*)\))?(?P<views>(?:#\w+\((?:[^()']|'[^']*')*\))+)$")
VIEW = re.compile(r"#(\w+)\(((?:[^()']|'[^']*')*)\)")
SCHEMA = re.compile(r"^create schema (\w+)\((.*)\)$")
UNITS = {"msec": 1, "millisecond": 1, "milliseconds": 1, "sec": 1000, "second": 1000,
         "seconds": 1000, "min": 60_000, "minute": 60_000, "minutes": 60_000}
OPS: dict[str, Callable[[Any, Any], bool]] = {
    "<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt,
    "=": operator.eq, "!=": operator.ne}
COMPARISON = re.compile(r"^([A-Za-z_]\w*)\s*(<=|>=|!=|<|>|=)\s*(-?\d+(?:\.\d+)?)$")

# Every case that the driver must be able to run (so a parse failure cannot skip one).
REQUIRED = {
    "length-window-irstream", "length-batch", "time-window", "time-batch", "view-time-span",
    "view-time-length-batch", "view-firsttime", "view-firstunique", "view-sort-asc",
    "view-expr-length", "view-ext-timed-batch", "ext-timed", "unique-view",
    "filter-before-window", "appendix-simple-none",
}


def _split_args(text: str) -> list[str]:
    out, depth, quote, cur = [], 0, False, []
    for ch in text:
        if ch == "'":
            quote = not quote
        elif not quote and ch == "(":
            depth += 1
        elif not quote and ch == ")":
            depth -= 1
        if ch == "," and depth == 0 and not quote:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def _number(text: str) -> Any:
    return float(text) if "." in text else int(text)


def _view_arg(text: str) -> ViewArg:
    if m := re.fullmatch(r"'(.*)'", text):
        return ViewArg(text, value=m.group(1))
    if m := re.fullmatch(r"(\d+(?:\.\d+)?)\s*([a-z]+)", text):
        return ViewArg(text, value=float(m.group(1)) * UNITS[m.group(2)], is_time_period=True)
    if re.fullmatch(r"-?\d+(?:\.\d+)?", text):
        return ViewArg(text, value=_number(text))
    if m := re.fullmatch(r"([A-Za-z_]\w*)(?:\s+(asc|desc))?", text):
        name = m.group(1)
        return ViewArg(text, evaluate=lambda b, n=name: b.get(n), descending=m.group(2) == "desc")
    if m := COMPARISON.fullmatch(text):
        name, op, num = m.group(1), OPS[m.group(2)], _number(m.group(3))

        def compile_with(names, name=name, op=op, num=num):
            if name in names:
                return lambda bean, values: op(values[name], num)
            return lambda bean, values: op(bean.get(name), num)
        return ViewArg(text, compile_with=compile_with)
    raise ValueError(f"test driver cannot parse view argument {text!r}")


class Case:
    """One runnable case: its event types, view chain, projection and filter."""

    def __init__(self, data: dict) -> None:
        self.data = data
        registry = EventTypeRegistry()
        self.stmt: Optional[re.Match] = None
        for epl in data["epl"]:
            if m := SCHEMA.match(epl):
                props = dict(p.strip().split() for p in m.group(2).split(","))
                registry.register_map(m.group(1), props)
            elif m := STATEMENT.match(epl):
                if self.stmt is not None:
                    raise ValueError("one statement per case")
                self.stmt = m
        if self.stmt is None:
            raise ValueError("no plain irstream statement")
        select = self.stmt.group("select")
        if select == "*":
            self.columns = None
        elif re.fullmatch(r"\w+(\s*,\s*\w+)*", select):
            self.columns = [c.strip() for c in select.split(",")]
        else:
            raise ValueError("aggregation or expressions in the select clause")
        self.type = registry.get(self.stmt.group("type"))
        self.filter = self._filter(self.stmt.group("filter"))
        self.specs = [(name, [_view_arg(a) for a in _split_args(args)])
                      for name, args in VIEW.findall(self.stmt.group("views"))]

    @staticmethod
    def _filter(text: Optional[str]) -> Callable[[EventBean], bool]:
        if not text:
            return lambda bean: True
        m = COMPARISON.fullmatch(text.strip())
        if m is None:
            raise ValueError(f"filter {text!r}")
        name, op, num = m.group(1), OPS[m.group(2)], _number(m.group(3))
        return lambda bean: op(bean.get(name), num)

    def row(self, bean: EventBean) -> dict:
        return bean.to_dict() if self.columns is None else {c: bean.get(c) for c in self.columns}

    def rows(self, events: Optional[list]) -> Optional[list]:
        return [self.row(e) for e in events] if events else None

    def replay(self) -> list[dict]:
        ctx = SimulatedViewContext(0)
        got: list[dict] = []
        step = 0
        name = self.stmt.group("name")

        class Sink:
            def update(_, new, old):
                got.append({"step": step, "statement": name, "new": self.rows(new),
                            "old": self.rows(old)})

        first, _views = make_chain(create_factories(self.specs), ctx, Sink())
        for step, s in enumerate(self.data["steps"]):
            if "time" in s:
                ctx.advance_to(s["time"])
            elif "span" in s:
                ctx.advance_span(s["span"])
            elif "send" in s:
                assert s["send"] == self.type.name
                bean = EventBean(self.type, dict(s["event"]))
                if self.filter(bean):
                    first.update([bean], None)
        return got


def _load() -> dict[str, Case]:
    out = {}
    for path in sorted(CASES.glob("*.json")):
        data = json.loads(path.read_text())
        try:
            out[data["name"]] = Case(data)
        except (ValueError, KeyError, EventTypeError):
            continue
    return out


RUNNABLE = _load() if CASES.exists() else {}


def test_driver_runs_every_required_case() -> None:
    assert REQUIRED <= set(RUNNABLE), sorted(REQUIRED - set(RUNNABLE))


PENDING: dict[str, str] = pending_cases()


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=[pytest.mark.xfail(reason=PENDING[n], strict=True)] if n in PENDING else [])
    for n in sorted(RUNNABLE)])
def test_case(name: str) -> None:
    case = RUNNABLE[name]
    assert case.replay() == case.data["expected"]
