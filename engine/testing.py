"""Testing statements: a Recorder that collects every delivery of chosen statements, and
assertions that print a readable diff of expected versus delivered insert and remove
streams. Used by the pytest plugin (engine.pytest_plugin) and usable without pytest.

>>> from engine import Engine
>>> engine = Engine(time="simulated")
>>> _ = engine.epl("create schema T(k string, v int)")
>>> rec = Recorder(engine.epl("@name('w') select irstream k, v from T#length(1)"))
>>> engine.send({"k": "a", "v": 1}, "T"); engine.send({"k": "b", "v": 2}, "T")
>>> rec.assert_streams(new=[{"k": "a", "v": 1}, {"k": "b", "v": 2}], old=[{"k": "a", "v": 1}])
"""
from __future__ import annotations

import difflib
import math
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional, Sequence, Union

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

if TYPE_CHECKING:
    from .engine import Engine
    from .statement import Statement

Row = dict[str, Any]


@frozen_dataclass
class Delivery:
    """One listener call: engine time, statement name, insert and remove stream as dicts."""

    time: int
    statement: str
    new: tuple[Row, ...]
    old: tuple[Row, ...]


def rows(beans: Optional[Iterable[Any]]) -> list[Row]:
    """Delivered events as plain dicts (an absent stream is an empty list)."""
    return [b.to_dict() if isinstance(b, EventBean) else dict(b) for b in beans or ()]


class Recorder:
    """Attached to statements (objects or names), records each delivery in order."""

    def __init__(self, *statements: Union["Statement", str], engine: Optional["Engine"] = None) -> None:
        self.deliveries: list[Delivery] = []
        self._attached: list[tuple[Any, Any]] = []
        for s in statements:
            self.attach(s, engine)

    def attach(self, statement: Union["Statement", str], engine: Optional["Engine"] = None) -> "Statement":
        """Record `statement` too (a name needs `engine`)."""
        if isinstance(statement, str):
            if engine is None:
                raise ValueError("a statement name needs the engine: Recorder('name', engine=engine)")
            statement = engine.statement(statement)
        stmt = statement
        name = stmt.name

        def listener(new: Any, old: Any) -> None:
            self.deliveries.append(Delivery(stmt.engine.now, name, tuple(rows(new)), tuple(rows(old))))
        stmt.add_listener(listener)
        self._attached.append((stmt, listener))
        return stmt

    def detach(self) -> None:
        for stmt, listener in self._attached:
            stmt.remove_listener(listener)
        self._attached.clear()

    # -- what was delivered -------------------------------------------------------------------
    def of(self, statement: str) -> list[Delivery]:
        return [d for d in self.deliveries if d.statement == statement]

    def new_rows(self, statement: Optional[str] = None) -> list[Row]:
        """The insert stream, every delivery's rows in order."""
        return [r for d in self._select(statement) for r in d.new]

    def old_rows(self, statement: Optional[str] = None) -> list[Row]:
        """The remove stream, every delivery's rows in order."""
        return [r for d in self._select(statement) for r in d.old]

    def pop(self) -> list[Delivery]:
        """The deliveries so far; forgets them (for a test that goes step by step)."""
        out, self.deliveries = self.deliveries, []
        return out

    def clear(self) -> None:
        self.deliveries = []

    def __len__(self) -> int:
        return len(self.deliveries)

    def _select(self, statement: Optional[str]) -> list[Delivery]:
        return self.deliveries if statement is None else self.of(statement)

    def to_dataframe(self) -> Any:
        """One row per delivered event: time, statement, stream ('insert' | 'remove') and the
        columns (pandas, imported here)."""
        import pandas as pd
        records = [{"time": d.time, "statement": d.statement, "stream": stream, **r}
                   for d in self.deliveries
                   for stream, rs in (("insert", d.new), ("remove", d.old)) for r in rs]
        return pd.DataFrame.from_records(records, columns=_frame_columns(records))

    # -- assertions ---------------------------------------------------------------------------
    def assert_streams(self, new: Optional[Sequence[Mapping[str, Any]]] = None,
                       old: Optional[Sequence[Mapping[str, Any]]] = None, *,
                       statement: Optional[str] = None, rel: float = 1e-9) -> None:
        """The insert stream equals `new` and the remove stream `old` (each left unchecked
        when None), rows compared as dicts (floats within `rel`); else AssertionError with a
        diff."""
        problems = []
        if new is not None:
            problems += _compare("insert stream", [dict(r) for r in new], self.new_rows(statement), rel)
        if old is not None:
            problems += _compare("remove stream", [dict(r) for r in old], self.old_rows(statement), rel)
        if problems:
            raise AssertionError("\n".join(problems))

    def assert_deliveries(self, expected: Sequence[Any], *, statement: Optional[str] = None,
                          rel: float = 1e-9) -> None:
        """Delivery by delivery: each expected entry is `(new, old)` or `(time, new, old)`,
        lists of dicts (None or [] for an empty stream); times are compared when given."""
        got = self._select(statement)
        entries = [(e if len(e) == 3 else (None, *e)) for e in expected]
        with_time = any(t is not None for t, _, _ in entries)
        ok = len(got) == len(entries)
        for (t, n, o), g in zip(entries, got):
            ok = ok and (t is None or t == g.time) and _rows_equal([dict(r) for r in n or ()], list(g.new), rel) \
                and _rows_equal([dict(r) for r in o or ()], list(g.old), rel)
        if not ok:
            want = [_delivery_text(t if with_time else None, list(n or ()), list(o or ())) for t, n, o in entries]
            have = [_delivery_text(g.time if with_time else None, list(g.new), list(g.old)) for g in got]
            raise AssertionError(f"deliveries differ (- expected, + delivered): {len(want)} expected, "
                                 f"{len(have)} delivered\n" + _diff(want, have))


def assert_streams(recorder: Recorder, new: Optional[Sequence[Mapping[str, Any]]] = None,
                   old: Optional[Sequence[Mapping[str, Any]]] = None, **kw: Any) -> None:
    """Function form of Recorder.assert_streams."""
    recorder.assert_streams(new, old, **kw)


def assert_deliveries(recorder: Recorder, expected: Sequence[Any], **kw: Any) -> None:
    """Function form of Recorder.assert_deliveries."""
    recorder.assert_deliveries(expected, **kw)


# -- comparing and showing rows -----------------------------------------------------------------
def _values_equal(a: Any, b: Any, rel: float) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) \
                and not isinstance(b, bool):
            if math.isnan(a) and math.isnan(b):
                return True
            return math.isclose(a, b, rel_tol=rel, abs_tol=rel)
        return False
    return a == b


def _rows_equal(want: list, got: list, rel: float) -> bool:
    if len(want) != len(got):
        return False
    for w, g in zip(want, got):
        if set(w) != set(g) or not all(_values_equal(w[k], g[k], rel) for k in w):
            return False
    return True


def _compare(label: str, want: list[Row], got: list[Row], rel: float) -> list[str]:
    if _rows_equal(want, got, rel):
        return []
    return [f"{label} differs (- expected, + delivered): {len(want)} expected, {len(got)} delivered",
            _diff([_row_text(r) for r in want], [_row_text(r) for r in got])]


def _row_text(row: Mapping[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {v!r}" for k, v in row.items()) + "}"


def _delivery_text(time: Optional[int], new: list, old: list) -> str:
    at = f"t={time} " if time is not None else ""
    return f"{at}new=[{', '.join(map(_row_text, new))}] old=[{', '.join(map(_row_text, old))}]"


def _diff(want: list[str], got: list[str]) -> str:
    return "\n".join(line for line in difflib.ndiff(want, got) if not line.startswith("?"))


def _frame_columns(records: list[dict]) -> list[str]:
    cols = ["time", "statement", "stream"]
    for r in records:
        for k in r:
            if k not in cols:
                cols.append(k)
    return cols


__all__ = ["Delivery", "Recorder", "assert_deliveries", "assert_streams", "rows"]
