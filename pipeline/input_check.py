"""Checks an input file against the declared event type before a Spark job starts, so that a
wrongly typed row is named (file, line or row, column, value) instead of failing a task
with a Java stack trace. JSON lines and CSV are read line by line; Parquet row by row
(pyarrow). Directories are checked file by file (Spark's part files)."""
from __future__ import annotations

import csv
import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator, Optional

from engine.contracts.epl_types import EPLType
from engine.contracts.errors import EventTypeError

_EXTENSIONS = {".csv": "csv", ".json": "json", ".jsonl": "json", ".ndjson": "json", ".parquet": "parquet"}


class BadInput(ValueError):
    """The first row that does not fit: its message starts with FILE:LINE or FILE:row N."""


def input_format(path: str, format: Optional[str] = None) -> str:
    return format or _EXTENSIONS.get(Path(path).suffix.lower(), "parquet")


def _files(path: str, fmt: str) -> list[str]:
    p = Path(path)
    if not p.is_dir():
        return [str(p)]
    # Spark's output directories: part files, no _SUCCESS or .crc files
    return sorted(str(f) for f in p.iterdir()
                  if f.is_file() and not f.name.startswith((".", "_"))
                  and (f.name.startswith("part-") or input_format(str(f)) == fmt))


def _csv_value(kind: EPLType, text: str) -> Any:
    """A CSV cell as Spark's inferred type would give it (empty is null)."""
    if text == "":
        return None
    if kind in (EPLType.INT, EPLType.LONG, EPLType.SHORT, EPLType.BYTE, EPLType.BIGINT):
        return int(text)
    if kind in (EPLType.DOUBLE, EPLType.FLOAT, EPLType.DECIMAL):
        return float(text)
    if kind is EPLType.BOOLEAN:
        low = text.lower()
        if low in ("true", "false"):
            return low == "true"
        raise ValueError(text)
    return text


def _csv_time(text: str) -> Any:
    """A CSV time cell as Spark's schema inference reads it: a number or a timestamp."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text


def _rows(path: str, fmt: str, props: dict, time_column: str) -> Iterator[tuple[str, dict]]:
    """(where, row) pairs: where is `FILE:LINE` or `FILE: row N`."""
    if fmt == "json":
        with open(path, "rb") as f:
            for n, raw in enumerate(f, 1):
                if not raw.strip():
                    continue
                try:
                    row = json.loads(raw)
                except (json.JSONDecodeError, UnicodeDecodeError) as e:
                    col = f":{e.colno}" if isinstance(e, json.JSONDecodeError) else ""
                    raise BadInput(f"{path}:{n}{col}: invalid JSON: {getattr(e, 'msg', e)}") from e
                if not isinstance(row, dict):
                    raise BadInput(f"{path}:{n}: expected a JSON object")
                yield f"{path}:{n}", row
    elif fmt == "csv":
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            for row in reader:
                where = f"{path}:{reader.line_num}"
                out: dict = {}
                for k, v in row.items():
                    pt = props.get(k)
                    if pt is None or v is None:
                        out[k] = _csv_time(v) if k == time_column and v else v
                        continue
                    try:
                        out[k] = _csv_value(pt.kind, v)
                    except ValueError:
                        raise BadInput(f"{where}: column '{k}': value {v!r} does not fit the "
                                       f"declared type {pt}") from None
                yield where, out
    else:
        import pyarrow.parquet as pq
        index = 0
        for batch in pq.ParquetFile(path).iter_batches(batch_size=8192):
            for row in batch.to_pylist():
                yield f"{path}: row {index}", row
                index += 1


def check_input(path: str, event_type: Any, time_column: str, key: str,
                format: Optional[str] = None) -> int:
    """Raise BadInput naming the first row whose values do not fit `event_type`, that lacks the
    time or key column, or whose time is not a number or timestamp; return the rows checked."""
    if not os.path.exists(path):
        raise BadInput(f"{path}: no such file or directory")
    fmt = input_format(path, format)
    props = dict(event_type.properties) if event_type is not None else {}
    check = event_type.check if event_type is not None and event_type.is_map else None
    n = 0
    for file in _files(path, fmt):
        for where, row in _rows(file, fmt, props, time_column):
            n += 1
            for col in (time_column, key):
                if col not in row:
                    raise BadInput(f"{where}: no column '{col}' (columns: {', '.join(map(str, row))})")
            t = row[time_column]
            if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) and not hasattr(t, "year")):
                raise BadInput(f"{where}: column '{time_column}': value {t!r} is not a time "
                               f"(milliseconds, a timestamp or a date)")
            if check is not None:
                try:
                    check(row)
                except EventTypeError as e:
                    raise BadInput(f"{where}: {_column_message(e, row)}") from None
    return n


def _column_message(e: EventTypeError, row: dict) -> str:
    # "Event of type 'T': property 'v' expects an integer, got str 'x'" -> name the column first
    text = str(e)
    marker = "property '"
    i = text.find(marker)
    if i < 0:
        return text
    name = text[i + len(marker):text.index("'", i + len(marker))]
    return f"column '{name}': value {row.get(name)!r}: {text}"
