"""Replaying conformance cases: run a case's statements and steps on simulated time and
record every listener call, in the cases' `expected` format; compare with a tolerance.

The cases were recorded with one listener on every statement named by `@name`. Statements
without `@name` are named `s<i>` after their position in the case's `epl` list, as the
recording harness named them; a listener is attached to every statement whose name is one of
the `@name` names (so an unnamed statement that falls on such a name is heard too)."""
from __future__ import annotations

import json
import math
import re
from typing import Any, Iterable, Optional

from engine.contracts.bean import EventBean
from .engine import Engine

_NAME = re.compile(r"@name\s*\(\s*(?:value\s*=\s*)?['\"]([^'\"]*)['\"]\s*\)", re.IGNORECASE)


def _row(bean: EventBean) -> dict:
    return {k: _value(v) for k, v in bean.to_dict().items()}


def _value(v: Any) -> Any:
    if isinstance(v, EventBean):
        return _row(v)
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    if isinstance(v, dict):
        return {k: _value(x) for k, x in v.items()}
    if hasattr(v, "__dataclass_fields__") or (hasattr(v, "__dict__") and not isinstance(v, type)):
        return {k: _value(x) for k, x in vars(v).items() if not k.startswith("_")}
    if v is not None and not isinstance(v, (str, int, float, bool)):
        return str(v)
    return v


def replay_case(case: dict) -> list[dict]:
    """Run one case; return the listener calls as `{"step", "statement", "new", "old"}`."""
    engine = Engine(time="simulated")
    calls: list[dict] = []
    current = {"step": -1}
    explicit = set()
    for text in case["epl"]:
        m = _NAME.search(text)
        if m:
            explicit.add(m.group(1))
    for i, text in enumerate(case["epl"]):
        heard_as = None if _NAME.search(text) else f"s{i}"
        # statement names are unique per engine: an unnamed statement whose recorded name an
        # @name takes runs under a name of its own, and is still heard as s<i>
        stmt = engine.epl(text, name=None if heard_as is None or heard_as in explicit else heard_as)
        heard_as = heard_as or stmt.name
        if heard_as in explicit:
            def listener(new, old, _name=heard_as):
                calls.append({"step": current["step"], "statement": _name,
                              "new": [_row(b) for b in new] if new else None,
                              "old": [_row(b) for b in old] if old else None})
            stmt.add_listener(listener)
    for i, step in enumerate(case["steps"]):
        current["step"] = i
        if "time" in step:
            engine.advance_time(step["time"])
        elif "span" in step:
            engine.advance_time_span(step["span"])
        elif "send" in step:
            engine.send(dict(step["event"]), step["send"])
        else:
            raise ValueError(f"Step {i} has no time, span or send: {step}")
    engine.close()
    return calls


def _num_equal(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, (int, float)) and not isinstance(b, bool):
        a, b = b, a
    if isinstance(b, str) and isinstance(a, float) and b in ("NaN", "Infinity", "-Infinity"):
        return _value(a) == b
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if a == b:
            return True
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_num_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_num_equal(x, y) for x, y in zip(a, b))
    return a == b


def _rows_equal(a: Optional[list], b: Optional[list]) -> bool:
    return _num_equal(a or [], b or [])


def calls_equal(got: dict, want: dict) -> bool:
    return (got["step"] == want["step"] and got["statement"] == want["statement"]
            and _rows_equal(got.get("new"), want.get("new")) and _rows_equal(got.get("old"), want.get("old")))


def diff_calls(got: list[dict], want: list[dict]) -> list[str]:
    """Readable differences; empty when the replay matches the case."""
    out = []
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else None
        w = want[i] if i < len(want) else None
        if g is not None and w is not None and calls_equal(g, w):
            continue
        out.append(f"call #{i}:")
        out.append(f"  expected: {json.dumps(w) if w is not None else '(none)'}")
        out.append(f"  got:      {json.dumps(g) if g is not None else '(none)'}")
    return out


def format_calls(calls: Iterable[dict]) -> str:
    return "\n".join(json.dumps(c) for c in calls)
