"""Arrow <-> events: EPL types as Arrow types, record batches to event dicts, output rows
(collected by statement listeners) to typed record batches."""
from __future__ import annotations

import datetime as _dt
import decimal
import json
import math
import warnings
from collections.abc import Mapping
from itertools import accumulate
from operator import add, itemgetter
from typing import Any, Callable, Iterable, Optional, Sequence

import pyarrow as pa
import pyarrow.compute as pc

from engine.contracts.bean import EventBean
from engine.contracts.epl_types import EPLType, PropertyType

# The columns every output row starts with.
BASE_FIELDS: tuple[pa.Field, ...] = (
    pa.field("statement", pa.string(), nullable=False),
    pa.field("stream", pa.string(), nullable=False),     # 'insert' | 'remove'
    pa.field("time", pa.int64(), nullable=False),        # engine time of delivery (ms)
    pa.field("seq", pa.int64(), nullable=False),         # row number within partition / key
)
BASE_NAMES = tuple(f.name for f in BASE_FIELDS)

# BigDecimal results become decimal(38, 18): Spark's widest precision, 20 integral digits.
DECIMAL_TYPE = pa.decimal128(38, 18)
_DECIMAL_QUANTUM = decimal.Decimal(1).scaleb(-18)
_SCALARS: dict[EPLType, pa.DataType] = {
    EPLType.BOOLEAN: pa.bool_(),
    EPLType.STRING: pa.string(),
    EPLType.BYTE: pa.int8(),
    EPLType.SHORT: pa.int16(),
    EPLType.INT: pa.int32(),
    EPLType.LONG: pa.int64(),
    EPLType.FLOAT: pa.float32(),
    EPLType.DOUBLE: pa.float64(),
    EPLType.BIGINT: pa.decimal128(38, 0),
    EPLType.DECIMAL: DECIMAL_TYPE,
}
_MAX_DEPTH = 4   # nested event types deeper than this are written as JSON text


def arrow_type(pt: PropertyType, _depth: int = 0) -> pa.DataType:
    """The Arrow type of an EPL property type. Objects, maps and anything without a fixed
    shape are JSON text; nested events are structs; arrays are lists."""
    scalar = _SCALARS.get(pt.kind)
    if scalar is not None:
        return scalar
    if pt.kind is EPLType.ARRAY and pt.element is not None and _depth < _MAX_DEPTH:
        return pa.list_(arrow_type(pt.element, _depth + 1))
    if pt.kind is EPLType.EVENT and pt.event_type is not None and _depth < _MAX_DEPTH:
        props = pt.event_type.properties
        if props:
            return pa.struct([pa.field(n, arrow_type(t, _depth + 1)) for n, t in props.items()])
    return pa.string()


def _json_default(v: Any) -> Any:
    if isinstance(v, EventBean):
        return v.to_dict()
    if isinstance(v, (decimal.Decimal, _dt.date, _dt.datetime, _dt.time)):
        return str(v)
    if isinstance(v, (set, frozenset, tuple)):
        return list(v)
    if hasattr(v, "__dict__"):
        return {k: x for k, x in vars(v).items() if not k.startswith("_")}
    return str(v)


def _to_json(v: Any) -> Optional[str]:
    if v is None:
        return None
    if isinstance(v, str):
        return v
    if isinstance(v, float) and not math.isfinite(v):
        return json.dumps(v)
    return json.dumps(v, default=_json_default, sort_keys=True)


def converter(t: pa.DataType) -> Optional[Callable[[Any], Any]]:
    """A function making one Python value fit Arrow type t (None: values fit as they are)."""
    if pa.types.is_string(t):
        return lambda v: v if v is None or isinstance(v, str) else _to_json(v)
    if pa.types.is_decimal(t):
        quantum = decimal.Decimal(1).scaleb(-t.scale)
        return lambda v: None if v is None else decimal.Decimal(v).quantize(quantum) \
            if not isinstance(v, float) else decimal.Decimal(repr(v)).quantize(quantum)
    if pa.types.is_integer(t):
        return lambda v: None if v is None else int(v)
    if pa.types.is_floating(t):
        return lambda v: None if v is None else float(v)
    if pa.types.is_boolean(t):
        return lambda v: None if v is None else bool(v)
    if pa.types.is_list(t):
        inner = converter(t.value_type)
        if inner is None:
            return lambda v: None if v is None else list(v)
        return lambda v: None if v is None else [inner(x) for x in v]
    if pa.types.is_struct(t):
        fields = [(f.name, converter(f.type)) for f in t]

        def to_struct(v: Any) -> Any:
            if v is None:
                return None
            d = v.to_dict() if isinstance(v, EventBean) else v if isinstance(v, Mapping) else _json_default(v)
            if not isinstance(d, Mapping):
                return None
            return {n: (c(d.get(n)) if c is not None else d.get(n)) for n, c in fields}
        return to_struct
    return None


def widen(a: pa.DataType, b: pa.DataType) -> pa.DataType:
    """One column type for two statements that select the same name: the same type, the
    wider integer, a float for mixed numbers, else text."""
    if a.equals(b):
        return a
    if pa.types.is_integer(a) and pa.types.is_integer(b):
        return a if a.bit_width >= b.bit_width else b
    num = (pa.types.is_integer, pa.types.is_floating, pa.types.is_decimal)
    if any(f(a) for f in num) and any(f(b) for f in num):
        return pa.float64()
    return pa.string()


def output_schema(columns: Iterable[tuple[str, pa.DataType]]) -> pa.Schema:
    """Base columns, then the selected columns (each name once, types widened)."""
    merged: dict[str, pa.DataType] = {}
    for name, t in columns:
        if name in BASE_NAMES:
            raise ValueError(f"Selected column '{name}' collides with the output column of the "
                             f"same name ({', '.join(BASE_NAMES)}): rename it with 'as'")
        merged[name] = widen(merged[name], t) if name in merged else t
    return pa.schema([*BASE_FIELDS, *(pa.field(n, t) for n, t in merged.items())])


def column_array(values: list, t: pa.DataType,
                 conv: Optional[Callable[[Any], Any]] = None) -> pa.Array:
    """One output column: values mostly fit type t as they are (one C loop); convert them one
    by one (`conv`, see converter) only when they do not."""
    try:
        return pa.array(values, type=t)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError):
        if conv is None:
            raise
        return pa.array([conv(v) for v in values], type=t)


class StatementRows:
    """One statement's rows since the last cut, column by column as they are delivered (one
    list per selected column, one entry per delivery in the time, seq, inserts and removes
    lists: no object made per row); the buffer makes the Arrow columns when it cuts a batch."""

    __slots__ = ("name", "columns", "values", "times", "seqs", "inserts", "removes", "_adds")

    def __init__(self, name: str, columns: Sequence[str]) -> None:
        self.name = name
        self.columns = tuple(columns)
        self.values: list[list] = [[] for _ in self.columns]
        self.times: list[int] = []      # per delivery: engine time, seq of its first row,
        self.seqs: list[int] = []       # its insert rows and its remove rows (in this order)
        self.inserts: list[int] = []
        self.removes: list[int] = []
        self._adds = tuple(zip(self.columns, [v.append for v in self.values]))

    def __getstate__(self) -> tuple:
        return self.name, self.columns, self.values, self.times, self.seqs, self.inserts, self.removes

    def __setstate__(self, s: tuple) -> None:
        self.__init__(s[0], s[1])
        self.values[:] = s[2]
        self.times, self.seqs, self.inserts, self.removes = s[3:]
        self._adds = tuple(zip(self.columns, [v.append for v in self.values]))

    def deliver(self, time: int, seq: int, new: Optional[Sequence[Any]],
                old: Optional[Sequence[Any]]) -> int:
        """One delivery at engine time `time`, its first row numbered `seq`: the rows'
        values (result rows are dicts) to the column lists. Returns the number of rows."""
        ni = len(new) if new else 0
        no = len(old) if old else 0
        if not (ni or no):
            return 0
        adds = self._adds
        for beans in (new, old):
            if beans:
                for b in beans:
                    u = b.underlying
                    if type(u) is not dict:
                        u = b.to_dict()
                    for c, append in adds:
                        append(u.get(c))
        self.times.append(time)
        self.seqs.append(seq)
        self.inserts.append(ni)
        self.removes.append(no)
        return ni + no

    def __len__(self) -> int:
        return sum(self.inserts) + sum(self.removes)

    def clear(self) -> None:
        for v in self.values:
            v.clear()
        self.times = []
        self.seqs = []
        self.inserts = []
        self.removes = []


def _arange(n: int) -> pa.Array:
    """0, 1, ..., n-1 (pa.array(range(n)) iterates in Python)."""
    return pc.subtract(pc.cumulative_sum(pa.repeat(pa.scalar(1, pa.int64()), n)), 1)


_INSERT = pa.scalar("insert", pa.string())
_REMOVE = pa.scalar("remove", pa.string())


class RowBuffer:
    """Output rows of the statements of one engine, kept per statement as delivered until
    they are cut into a record batch (column by column: no per-row dict or list work)."""

    __slots__ = ("schema", "statements", "_converters", "_index")

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self.statements: list[StatementRows] = []
        self._converters = [converter(f.type) for f in schema]
        self._index = {f.name: i for i, f in enumerate(schema)}

    def statement(self, name: str, columns: Sequence[str]) -> StatementRows:
        """The rows of one more statement (its columns must be in the schema)."""
        for c in columns:
            if c not in self._index:
                raise ValueError(f"Column '{c}' of statement '{name}' is not in the output schema")
        rows = StatementRows(name, columns)
        self.statements.append(rows)
        return rows

    def __len__(self) -> int:
        return sum(len(s) for s in self.statements)

    def _statement_batch(self, s: StatementRows) -> pa.RecordBatch:
        times, seqs, inserts, removes = s.times, s.seqs, s.inserts, s.removes
        n = sum(inserts) + sum(removes)
        if n == len(times):      # one row per delivery: the rows are the deliveries
            time_col = pa.array(times, pa.int64())
            seq_col = pa.array(seqs, pa.int64())
            stream_col = pc.if_else(pa.array(inserts, pa.int8()).cast(pa.bool_()), _INSERT, _REMOVE)
        else:
            # row r of delivery d: d from the offsets, its place within d from them too
            offsets = [0, *accumulate(map(add, inserts, removes))]
            parent = pc.list_parent_indices(pa.ListArray.from_arrays(
                pa.array(offsets, pa.int32()), pa.nulls(n, pa.int8())))
            within = pc.subtract(_arange(n),
                                 pa.array(offsets[:-1], pa.int64()).take(parent))
            time_col = pa.array(times, pa.int64()).take(parent)
            seq_col = pc.add(pa.array(seqs, pa.int64()).take(parent), within)
            stream_col = pc.if_else(pc.less(within, pa.array(inserts, pa.int64()).take(parent)),
                                    _INSERT, _REMOVE)
        arrays: list[Optional[pa.Array]] = [None] * len(self.schema)
        arrays[:4] = [pa.repeat(pa.scalar(s.name, pa.string()), n), stream_col, time_col, seq_col]
        for c, values in zip(s.columns, s.values):
            i = self._index[c]
            arrays[i] = column_array(values, self.schema.field(i).type, self._converters[i])
        for i in range(4, len(arrays)):
            if arrays[i] is None:
                arrays[i] = pa.nulls(n, self.schema.field(i).type)
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    def take(self) -> pa.RecordBatch:
        """The buffered rows as a record batch in delivery (seq) order; the buffer is emptied."""
        parts = [self._statement_batch(s) for s in self.statements if s.times]
        for s in self.statements:
            s.clear()
        if not parts:
            return pa.RecordBatch.from_arrays([pa.array([], f.type) for f in self.schema],
                                              schema=self.schema)
        if len(parts) == 1:
            return parts[0]
        batch = pa.Table.from_batches(parts, self.schema).combine_chunks().to_batches()[0]
        return batch.take(pc.sort_indices(batch.column(3)))

    def take_rows(self) -> list[dict]:
        """The buffered rows as dicts of the delivered values, in delivery order (local
        runs); the buffer is emptied."""
        names = self.schema.names[4:]
        out: list[tuple[int, dict]] = []
        for s in self.statements:
            if not s.times:
                continue
            rows = iter(zip(*s.values)) if s.columns else None
            for t, seq, ni, nr in zip(s.times, s.seqs, s.inserts, s.removes):
                for j in range(ni + nr):
                    d = dict(zip(s.columns, next(rows))) if rows is not None else {}
                    row = {"statement": s.name, "stream": "insert" if j < ni else "remove",
                           "time": t, "seq": seq + j}
                    for c in names:
                        row[c] = d.get(c)
                    out.append((seq + j, row))
            s.clear()
        out.sort(key=itemgetter(0))
        return [r for _, r in out]

    def __reduce__(self) -> Any:  # converters are closures: rebuild them, do not pickle them
        return _restore_buffer, (self.schema, self.statements)


def _restore_buffer(schema: pa.Schema, statements: list[StatementRows]) -> RowBuffer:
    buf = RowBuffer(schema)
    buf.statements = statements
    return buf


def batch_events(batch: pa.RecordBatch, columns: Sequence[str]) -> list[dict]:
    """The event dicts of a record batch (only `columns`; maps, nested ones too, become
    dicts), built column by column by Arrow (one Python list per column, then a dict per row)."""
    columns = list(columns)
    sub = batch.select(columns) if columns != batch.schema.names else batch
    try:
        return sub.to_pylist(maps_as_pydicts="strict")
    except KeyError:
        pass
    with warnings.catch_warnings():   # a map with a repeated key: the last value wins, as in dict()
        warnings.simplefilter("ignore")
        return sub.to_pylist(maps_as_pydicts="lossy")


def epl_type_name(t: pa.DataType) -> str:
    """The EPL type name an input column of Arrow type t is declared with, when the
    statements do not declare the event type themselves."""
    if pa.types.is_boolean(t):
        return "boolean"
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "string"
    if pa.types.is_int8(t):
        return "byte"
    if pa.types.is_int16(t):
        return "short"
    if pa.types.is_int32(t):
        return "int"
    if pa.types.is_integer(t):
        return "long"
    if pa.types.is_float32(t):
        return "float"
    if pa.types.is_floating(t):
        return "double"
    if pa.types.is_decimal(t):
        return "BigDecimal"
    if pa.types.is_map(t) or pa.types.is_struct(t):
        return "map"
    return "object"


def declared_properties(schema: pa.Schema) -> dict[str, str]:
    """`{column: EPL type name}` for an event type made from an input schema."""
    return {f.name: epl_type_name(f.type) for f in schema}
