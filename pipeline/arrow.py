"""Arrow <-> events: EPL types as Arrow types, record batches to event dicts, output rows
(collected by statement listeners) to typed record batches."""
from __future__ import annotations

import datetime as _dt
import decimal
import json
import math
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Optional, Sequence

import pyarrow as pa

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


class RowBuffer:
    """Output rows, column by column, until they are cut into a record batch."""

    __slots__ = ("schema", "columns", "_converters", "_index")

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self.columns: list[list] = [[] for _ in schema]
        self._converters = [converter(f.type) for f in schema]
        self._index = {f.name: i for i, f in enumerate(schema)}

    def index_of(self, names: Sequence[str]) -> list[int]:
        return [self._index[n] for n in names]

    def __len__(self) -> int:
        return len(self.columns[0])

    def take(self) -> pa.RecordBatch:
        """The buffered rows as a record batch; the buffer is emptied (the column lists stay
        the same objects: recorders hold them)."""
        arrays = []
        for values, conv, field in zip(self.columns, self._converters, self.schema):
            try:   # values mostly fit as they are; convert one by one only when not
                arr = pa.array(values, type=field.type)
            except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError):
                if conv is None:
                    raise
                arr = pa.array([conv(v) for v in values], type=field.type)
            arrays.append(arr)
        for values in self.columns:
            values.clear()
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    def __reduce__(self) -> Any:  # converters are closures: rebuild them, do not pickle them
        return _restore_buffer, (self.schema, self.columns)

    def take_rows(self) -> list[dict]:
        """The buffered rows as dicts (local runs); the buffer is emptied."""
        names = self.schema.names
        rows = [dict(zip(names, r)) for r in zip(*self.columns)]
        for values in self.columns:
            values.clear()
        return rows


def _restore_buffer(schema: pa.Schema, columns: list[list]) -> RowBuffer:
    buf = RowBuffer(schema)
    buf.columns = columns
    return buf


def batch_events(batch: pa.RecordBatch, columns: Sequence[str]) -> list[dict]:
    """The event dicts of a record batch (only `columns`; maps become dicts)."""
    sub = batch.select(list(columns)) if list(columns) != batch.schema.names else batch
    rows = sub.to_pylist()
    maps = [f.name for f in sub.schema if pa.types.is_map(f.type)]
    if maps:
        for r in rows:
            for m in maps:
                if r[m] is not None:
                    r[m] = dict(r[m])
    return rows


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
