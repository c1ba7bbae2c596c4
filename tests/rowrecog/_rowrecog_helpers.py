"""Shared by the match_recognize tests: an engine with Esper's SupportRecogBean shape, and a
runner that sends rows and advances time, recording each delivery's insert stream."""
from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

from engine import Engine

RECOG = "create schema SupportRecogBean(theString string, value int, cat string)"


class Run:
    """One statement on simulated time. `steps`: an int advances time, a string or a
    (theString, value[, cat]) tuple sends a SupportRecogBean, a dict with `_type` sends that
    type. `deliveries` holds (step label, rows projected on `fields`, old events)."""

    def __init__(self, epl: str, fields: Optional[Sequence[str]] = None,
                 setup: Iterable[Any] = (), engine: Optional[Engine] = None) -> None:
        self.engine = engine or Engine(time="simulated")
        self.engine.advance_time(0)
        self.engine.epl(RECOG)
        for pre in setup:
            if isinstance(pre, dict):
                pre = dict(pre)
                self.engine.send(pre, pre.pop("_type"))
            else:
                self.engine.epl(pre)
        self.stmt = self.engine.epl(epl)
        self.fields = fields
        self.deliveries: list = []
        self._label: Any = None
        self.stmt.add_listener(self._on)

    def _on(self, new, old) -> None:
        rows = [b.to_dict() for b in new or ()]
        if self.fields is not None:
            rows = [tuple(r.get(f) for f in self.fields) for r in rows]
        self.deliveries.append((self._label, rows, old))

    def send(self, *steps: Any) -> "Run":
        for st in steps:
            if isinstance(st, int):
                self._label = f"t={st}"
                self.engine.advance_time(st)
            elif isinstance(st, dict):
                st = dict(st)
                self._label = st.get("theString")
                self.engine.send(st, st.pop("_type", "SupportRecogBean"))
            else:
                name, value, cat = (st, 0, None) if isinstance(st, str) else (tuple(st) + (None,))[:3]
                self._label = name
                self.engine.send({"theString": name, "value": value, "cat": cat}, "SupportRecogBean")
        return self

    def pop(self) -> list:
        out, self.deliveries = self.deliveries, []
        return [(label, rows) for label, rows, _ in out]
