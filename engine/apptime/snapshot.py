"""Snapshot rows: a statement's insert/remove stream turned into result rows valid over
[start, end) (StreamInsight's snapshot window output).

Rules:
- Aggregating over the interval window (`select irstream sum(v) from E#interval()`) makes
  Esper post the new aggregate as an insert and the previous one as a remove at every
  change; a row is valid from the engine time of its insert until the engine time of its
  remove. The same holds for un-aggregated rows of the window itself.
- A remove closes the oldest open row with equal values (or, with `key`, equal key
  columns). Removes that match no open row (the null aggregate before the first event)
  are ignored.
- Rows of zero length (opened and closed at the same instant) are not rows of any
  snapshot and are left out; rows whose values are all null (an empty window) are left
  out unless `keep_null` (with `key`, the key columns do not count); `coalesce` merges a row into the previous one of its key when it
  starts where that one ends with the same values.
- Rows still open end at INFINITY.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

from engine.contracts.frozen import frozen_dataclass
from engine.contracts.timed import INFINITY

Update = tuple[int, Optional[Sequence[Any]], Optional[Sequence[Any]]]


@frozen_dataclass
class SnapshotRow:
    start: int
    end: int
    values: dict

    @property
    def is_open(self) -> bool:
        return self.end >= INFINITY


def _as_dict(row: Any) -> dict:
    if isinstance(row, dict):
        return dict(row)
    to_dict = getattr(row, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    raise TypeError(f"A snapshot row must be a dict or an EventBean, got {type(row).__name__}")


def snapshot_rows(updates: Iterable[Update], *, key: Optional[Sequence[str]] = None,
                  coalesce: bool = False, keep_null: bool = False,
                  include_open: bool = True) -> list[SnapshotRow]:
    """Rows with [start, end) from `(time, new_rows, old_rows)` updates in time order.

    >>> snapshot_rows([(1, [{"n": 1}], [{"n": None}]), (3, [{"n": 2}], [{"n": 1}]),
    ...                (5, [{"n": 1}], [{"n": 2}])])
    [SnapshotRow(start=1, end=3, values={'n': 1}), SnapshotRow(start=3, end=5, values={'n': 2}), SnapshotRow(start=5, end=9223372036854775807, values={'n': 1})]
    """
    match_key = (lambda d: d) if key is None else (lambda d: tuple(d.get(k) for k in key))
    key_cols = frozenset(key or ())
    open_rows: list[list] = []          # [start, values, seq], oldest first
    closed: list[tuple[int, int, int, dict]] = []
    seq = 0
    for time, new, old in updates:
        for row in old or ():
            d = _as_dict(row)
            mk = match_key(d)
            for i, r in enumerate(open_rows):
                if match_key(r[1]) == mk:
                    del open_rows[i]
                    closed.append((r[0], time, r[2], r[1]))
                    break
        for row in new or ():
            open_rows.append([time, _as_dict(row), seq])
            seq += 1
    rows = list(closed)
    if include_open:
        rows.extend((r[0], INFINITY, r[2], r[1]) for r in open_rows)
    rows.sort(key=lambda r: (r[0], r[2]))
    out: list[SnapshotRow] = []
    last_of_key: dict[Any, int] = {}
    for start, end, _, values in rows:
        if end <= start:
            continue
        if not keep_null and values and all(v is None for c, v in values.items() if c not in key_cols):
            continue
        if coalesce:
            k = repr(match_key(values) if key is not None else None)
            j = last_of_key.get(k)
            if j is not None and out[j].end == start and out[j].values == values:
                out[j] = SnapshotRow(out[j].start, end, values)
                continue
            last_of_key[k] = len(out)
        out.append(SnapshotRow(start, end, values))
    return out


class Snapshot:
    """Records a statement's updates with the engine time of each; `rows()` gives the
    snapshot rows so far (see `snapshot_rows` for the options).

    >>> from engine import Engine
    >>> engine = Engine(time="simulated")
    >>> _ = engine.epl("create schema E(v int, s long, e long) starttimestamp s endtimestamp e")
    >>> snap = Snapshot(engine.epl("select irstream sum(v) as total from E#interval()"))
    >>> inp = engine.input("E")
    >>> inp.enqueue({"v": 1, "s": 0, "e": 10}); inp.enqueue({"v": 2, "s": 5, "e": 20})
    True
    True
    >>> inp.enqueue_cti(30)
    >>> [(r.start, r.end, r.values["total"]) for r in snap.rows()]
    [(0, 5, 1), (5, 10, 3), (10, 20, 2)]
    """

    def __init__(self, statement: Any) -> None:
        self.statement = statement
        self._engine = statement.engine
        self.updates: list[Update] = []
        statement.add_listener(self._record)

    def _record(self, new: Any, old: Any) -> None:
        self.updates.append((self._engine.now,
                             [_as_dict(r) for r in new] if new else None,
                             [_as_dict(r) for r in old] if old else None))

    def rows(self, **options: Any) -> list[SnapshotRow]:
        return snapshot_rows(self.updates, **options)
