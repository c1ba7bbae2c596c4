"""How `epl run` writes deliveries: JSON lines (one delivery per line, the default), CSV (one
row per delivered event) or a readable table (one row per delivered event, printed at the end
with aligned columns)."""
from __future__ import annotations

import csv
import json
from typing import Any, Optional, Sequence, TextIO

from engine.contracts.bean import EventBean
from .replay import _row

FORMATS = ("jsonl", "csv", "table")


class Writer:
    """Receives each delivery; `close` writes what is still held."""

    def delivery(self, time: int, statement: str, new: Optional[Sequence[EventBean]],
                 old: Optional[Sequence[EventBean]]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class JsonLines(Writer):
    """`{"time", "statement", "new", "old"}` per delivery; an empty stream is null."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def delivery(self, time: int, statement: str, new: Any, old: Any) -> None:
        self.out.write(json.dumps({"time": time, "statement": statement,
                                   "new": [_row(b) for b in new] if new else None,
                                   "old": [_row(b) for b in old] if old else None},
                                  default=str) + "\n")


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, (dict, list)):
        return json.dumps(v, default=str)
    return str(v)


class _Rows(Writer):
    """One row per delivered event: time, statement, stream, then every column of every
    statement (empty where another statement's)."""

    def __init__(self, columns: Sequence[str]) -> None:
        self.columns = list(dict.fromkeys(columns))
        self.header = ["time", "statement", "stream", *self.columns]

    def rows(self, time: int, statement: str, new: Any, old: Any) -> list[list[str]]:
        out = []
        for stream, beans in (("insert", new), ("remove", old)):
            for b in beans or ():
                d = _row(b)
                out.append([str(time), statement, stream, *(_cell(d.get(c)) for c in self.columns)])
        return out


class Csv(_Rows):
    def __init__(self, out: TextIO, columns: Sequence[str]) -> None:
        super().__init__(columns)
        self.writer = csv.writer(out, lineterminator="\n")
        self.writer.writerow(self.header)

    def delivery(self, time: int, statement: str, new: Any, old: Any) -> None:
        self.writer.writerows(self.rows(time, statement, new, old))


class Table(_Rows):
    """Held until the end: column widths depend on every row."""

    def __init__(self, out: TextIO, columns: Sequence[str]) -> None:
        super().__init__(columns)
        self.out = out
        self.held: list[list[str]] = []

    def delivery(self, time: int, statement: str, new: Any, old: Any) -> None:
        self.held.extend(self.rows(time, statement, new, old))

    def close(self) -> None:
        write_table(self.out, self.header, self.held)


def write_table(out: TextIO, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Aligned columns under a header and a rule; None is an empty cell."""
    cells = [list(header), *([_cell(v) if not isinstance(v, str) else v for v in r] for r in rows)]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    for i, r in enumerate(cells):
        out.write("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() + "\n")
        if i == 0:
            out.write("  ".join("-" * w for w in widths) + "\n")


def make_writer(fmt: str, out: TextIO, columns: Sequence[str]) -> Writer:
    if fmt == "csv":
        return Csv(out, columns)
    if fmt == "table":
        return Table(out, columns)
    return JsonLines(out)
