"""EPL types as Arrow types, and output rows cut into typed record batches."""
from __future__ import annotations

import decimal

import pyarrow as pa
import pytest

from engine import Engine
from engine.epl_types import EPLType, PropertyType, array_of
from pipeline.arrow import (RowBuffer, arrow_type, batch_events, declared_properties,
                            output_schema, widen)


@pytest.mark.parametrize("kind, want", [
    (EPLType.BOOLEAN, pa.bool_()), (EPLType.STRING, pa.string()), (EPLType.BYTE, pa.int8()),
    (EPLType.SHORT, pa.int16()), (EPLType.INT, pa.int32()), (EPLType.LONG, pa.int64()),
    (EPLType.FLOAT, pa.float32()), (EPLType.DOUBLE, pa.float64()),
    (EPLType.BIGINT, pa.decimal128(38, 0)), (EPLType.DECIMAL, pa.decimal128(38, 18)),
    (EPLType.OBJECT, pa.string()), (EPLType.MAP, pa.string()),
])
def test_scalar_types(kind, want):
    assert arrow_type(PropertyType(kind)) == want


def test_arrays_and_nested_events():
    assert arrow_type(array_of(PropertyType(EPLType.INT))) == pa.list_(pa.int32())
    e = Engine(time="simulated")
    t = e.register_type("P", {"x": "int", "s": "string"})
    assert arrow_type(PropertyType(EPLType.EVENT, event_type=t)) == \
        pa.struct([pa.field("x", pa.int32()), pa.field("s", pa.string())])


def test_output_schema_merges_columns_and_refuses_collisions():
    s = output_schema([("a", pa.int32()), ("b", pa.string()), ("a", pa.int64()), ("c", pa.int32()),
                       ("c", pa.float64()), ("b", pa.int32())])
    assert s.names == ["statement", "stream", "time", "seq", "a", "b", "c"]
    assert [s.field(n).type for n in "abc"] == [pa.int64(), pa.string(), pa.float64()]
    with pytest.raises(ValueError, match="collides"):
        output_schema([("time", pa.int64())])
    assert widen(pa.decimal128(38, 18), pa.int32()) == pa.float64()


def test_row_buffer_converts_values_to_the_column_types():
    schema = output_schema([("i", pa.int32()), ("s", pa.string()), ("d", pa.decimal128(38, 18)),
                            ("f", pa.float64()), ("o", pa.string()),
                            ("st", pa.struct([pa.field("x", pa.int32())]))])
    buf = RowBuffer(schema)
    buf.columns[0:4] = [["s1", "s1"], ["insert", "remove"], [1, 2], [0, 1]]
    buf.columns[4:] = [[1, None], [3, "x"], [decimal.Decimal("1.5"), 2], [1, None],
                       [{"a": [1, 2]}, None], [{"x": 4}, None]]
    batch = buf.take()
    assert len(buf) == 0
    assert batch.to_pylist() == [
        {"statement": "s1", "stream": "insert", "time": 1, "seq": 0, "i": 1, "s": "3",
         "d": decimal.Decimal("1.5").quantize(decimal.Decimal(1).scaleb(-18)), "f": 1.0,
         "o": '{"a": [1, 2]}', "st": {"x": 4}},
        {"statement": "s1", "stream": "remove", "time": 2, "seq": 1, "i": None, "s": "x",
         "d": decimal.Decimal(2).quantize(decimal.Decimal(1).scaleb(-18)), "f": None,
         "o": None, "st": None}]


def test_input_batches_become_event_dicts():
    batch = pa.RecordBatch.from_pydict({
        "k": ["a"], "m": pa.array([[("x", 1)]], pa.map_(pa.string(), pa.int64())),
        "__epl_t": [5]})
    assert batch_events(batch, ["k", "m"]) == [{"k": "a", "m": {"x": 1}}]
    assert declared_properties(batch.schema) == {"k": "string", "m": "map", "__epl_t": "long"}
