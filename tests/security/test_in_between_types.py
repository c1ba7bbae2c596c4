"""Type-incompatible `in` lists and `between` / `in [a:b]` operands are refused at compile time
with Esper's messages (epl/compiler/typechecks.py)."""
import pytest

from engine import Engine
from epl.errors import EPLValidationError
from recording import Rec


@pytest.fixture()
def engine():
    e = Engine(time="simulated")
    e.epl("create schema S(intPrimitive int, theString string, d double, b boolean, o object)")
    return e


@pytest.mark.parametrize("text, message", [
    ("select * from S where 'x' between 1 and 5",
     "Implicit conversion from datatype 'String' to numeric is not allowed"),
    ("select * from S(theString in [1:2])",
     "Implicit conversion from datatype 'String' to numeric is not allowed"),
    ("select * from S(d in ['a':2])",
     "Implicit conversion from datatype 'String' to numeric is not allowed"),
    ("select * from S where b between 1 and 2",
     "Implicit conversion from datatype 'Boolean' to numeric is not allowed"),
    ("select * from S where intPrimitive in ('a', 1)",
     "Implicit conversion not allowed: Cannot coerce types Integer and String"),
    ("select * from S(intPrimitive in (1, 'a'))",
     "Implicit conversion not allowed: Cannot coerce types Integer and String"),
    ("select * from S where theString in (1, 2)",
     "Implicit conversion not allowed: Cannot coerce to String type Integer"),
    ("select * from S where b not in (true, 1)",
     "Implicit conversion not allowed: Cannot coerce to Boolean type Integer"),
])
def test_refused_with_esper_message(engine, text, message):
    with pytest.raises(EPLValidationError, match=message):
        engine.epl(text)


def test_compatible_lists_and_ranges_still_work(engine):
    rec = Rec(engine.epl(
        "select intPrimitive in (1, 2.5, null) as a, theString between 'a' and 'c' as b, "
        "d in [1:2) as c, o in (1, 'x') as e, intPrimitive between null and 4 as f from S"))
    engine.send({"intPrimitive": 1, "theString": "b", "d": 1.5, "b": True, "o": "x"}, "S")
    assert rec.pop() == [[{"a": True, "b": True, "c": True, "e": True, "f": None}]]
