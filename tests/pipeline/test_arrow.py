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


class _Bean:
    """A delivered row: what a statement hands its listeners."""

    def __init__(self, row):
        self.underlying = row

    def to_dict(self):
        return dict(self.underlying)


def test_row_buffer_converts_values_to_the_column_types():
    schema = output_schema([("i", pa.int32()), ("s", pa.string()), ("d", pa.decimal128(38, 18)),
                            ("f", pa.float64()), ("o", pa.string()),
                            ("st", pa.struct([pa.field("x", pa.int32())]))])
    buf = RowBuffer(schema)
    rows = buf.statement("s1", ["i", "s", "d", "f", "o", "st"])
    assert rows.deliver(1, 0, [_Bean({"i": 1, "s": 3, "d": decimal.Decimal("1.5"), "f": 1,
                                      "o": {"a": [1, 2]}, "st": {"x": 4}})], None) == 1
    assert rows.deliver(2, 1, (), [_Bean({"i": None, "s": "x", "d": 2, "f": None, "o": None,
                                          "st": None})]) == 1
    assert len(buf) == 2
    batch = buf.take()
    assert len(buf) == 0
    assert batch.to_pylist() == [
        {"statement": "s1", "stream": "insert", "time": 1, "seq": 0, "i": 1, "s": "3",
         "d": decimal.Decimal("1.5").quantize(decimal.Decimal(1).scaleb(-18)), "f": 1.0,
         "o": '{"a": [1, 2]}', "st": {"x": 4}},
        {"statement": "s1", "stream": "remove", "time": 2, "seq": 1, "i": None, "s": "x",
         "d": decimal.Decimal(2).quantize(decimal.Decimal(1).scaleb(-18)), "f": None,
         "o": None, "st": None}]


def test_row_buffer_orders_rows_of_several_statements_by_seq():
    """Deliveries of several rows and of several statements: one batch in delivery order,
    each statement's columns null in the other's rows, the same rows as take_rows."""
    schema = output_schema([("a", pa.int64()), ("b", pa.string())])

    def fill(buf):
        one, two = buf.statement("one", ["a"]), buf.statement("two", ["b", "a"])
        seq = one.deliver(5, 0, [_Bean({"a": 1}), _Bean({"a": 2})], [_Bean({"a": 0})])
        seq += two.deliver(5, seq, [_Bean({"b": "x", "a": 7})], None)
        seq += one.deliver(6, seq, None, [_Bean({"a": 1})])
        seq += two.deliver(7, seq, None, None)            # nothing delivered: no row
        seq += two.deliver(7, seq, [_Bean({"b": "y"})], [_Bean({"b": "z", "a": 8})])
        return seq
    buf = RowBuffer(schema)
    assert fill(buf) == 7
    want = [("one", "insert", 5, 0, 1, None), ("one", "insert", 5, 1, 2, None),
            ("one", "remove", 5, 2, 0, None), ("two", "insert", 5, 3, 7, "x"),
            ("one", "remove", 6, 4, 1, None), ("two", "insert", 7, 5, None, "y"),
            ("two", "remove", 7, 6, 8, "z")]
    names = ["statement", "stream", "time", "seq", "a", "b"]
    assert [tuple(r[n] for n in names) for r in buf.take().to_pylist()] == want
    fill(buf)
    assert [tuple(r[n] for n in names) for r in buf.take_rows()] == want
    assert buf.take().num_rows == 0


def test_input_batches_become_event_dicts():
    batch = pa.RecordBatch.from_pydict({
        "k": ["a"], "m": pa.array([[("x", 1)]], pa.map_(pa.string(), pa.int64())),
        "__epl_t": [5]})
    assert batch_events(batch, ["k", "m"]) == [{"k": "a", "m": {"x": 1}}]
    assert declared_properties(batch.schema) == {"k": "string", "m": "map", "__epl_t": "long"}
