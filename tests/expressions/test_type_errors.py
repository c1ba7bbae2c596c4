"""Type errors Esper refuses at compile time are EPLValidationErrors with Esper's wording, and
every typed expression either compiles and evaluates to a value (never a Python exception)
or is refused at compile time."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine
from epl.errors import EPLValidationError

SCHEMA = "create schema T(s string, d double, i int, l long, b boolean, bd BigDecimal)"


def engine() -> Engine:
    eng = Engine(time="simulated")
    eng.epl(SCHEMA)
    return eng


@pytest.mark.parametrize("expr, message", [
    ("s like 1", "The 'like' operator requires a String-type pattern expression"),
    ("b like 'a'", "The 'like' operator requires a String or numeric type left-hand expression"),
    ("s regexp 1", "The regexp operator requires a String-type pattern expression"),
    ("b regexp 'a'", "The regexp operator requires a String or numeric type left-hand expression"),
    ("'x' between 1 and 5", "Implicit conversion from datatype 'String' to numeric is not allowed"),
    ("-1 & 2.5", "Invalid type for bitwise & operator"),
    # coalesce's type is its non-null parameters' (hypothesis found it typed Object)
    ("b & coalesce(s, null)", "Invalid datatype for binary operator, String is not allowed"),
    ("-s", "Implicit conversion from datatype 'String' to numeric is not allowed"),
    ("s | 'y'", "Invalid datatype for binary operator, String is not allowed"),
    ("~d", "Invalid type for bitwise ~ operator"),
    ("s in (1, 2)", "Implicit conversion not allowed: Cannot coerce to String type Integer"),
    ("i not in ('a', 'b')", "Implicit conversion not allowed: Cannot coerce types Integer and String"),
    ("b + 1", "Implicit conversion from datatype 'Boolean' to numeric is not allowed"),
    ("s > 1", "Implicit conversion from datatype 'String' to numeric is not allowed"),
    ("b > true", "Implicit conversion from datatype 'Boolean' to numeric is not allowed"),
    ("i <= 'a'", "Implicit conversion from datatype 'String' to numeric is not allowed"),
    ("i = 'a'", "Implicit conversion from datatype 'String' to 'Integer' is not allowed"),
    ("i is 'a'", "Implicit conversion from datatype 'String' to 'Integer' is not allowed"),
    ("case when b then 1 else 'x' end", "Implicit conversion not allowed: Cannot coerce types Integer and String"),
    ("case i when 1 then 'a' else 2 end", "Implicit conversion not allowed: Cannot coerce to String type Integer"),
    ("case when b then true else 0 end", "Implicit conversion not allowed: Cannot coerce to Boolean type Integer"),
    ("coalesce(s, i)", "Implicit conversion not allowed: Cannot coerce to String type Integer"),
    ("coalesce(1, 'a')", "Implicit conversion not allowed: Cannot coerce types Integer and String"),
    ("max(1, 'a')", "Implicit conversion from datatype 'String' to numeric is not allowed"),
    ("min(s, i)", "Implicit conversion from datatype 'String' to numeric is not allowed"),
    ("not i", "Incorrect use of NOT clause, sub-expressions do not return boolean"),
    ("not s", "Incorrect use of NOT clause, sub-expressions do not return boolean"),
    ("b and 1", "Incorrect use of 'and'"),
    ("s || 1", "Implicit conversion from datatype 'Integer' to string is not allowed"),
])
def test_refused_at_compile_time_with_esper_wording(expr, message):
    eng = engine()
    with pytest.raises(EPLValidationError) as info:
        eng.epl(f"select {expr} as r from T")
    assert message in str(info.value)


@pytest.mark.parametrize("expr, expected", [
    ("case when b then 1 else 2.5 end", 1.0),        # numbers mix: promoted
    ("case when b then 'a' else null end", "a"),     # null takes any type
    ("coalesce(null, i, l)", 2),
    ("max(i, d)", 2.0),
    ("cast('abc', int)", None),                      # unparseable at run time: null
    ("cast(s, double)", None),
    ("d like '1%'", True),                           # a number matches its text
    ("i regexp '[0-9]'", True),
    ("s < 'b'", True),
])
def test_accepted_forms(expr, expected):
    eng = engine()
    stmt = eng.epl(f"select {expr} as r from T")
    got = []
    stmt.add_listener(lambda new, old: got.extend(x.get("r") for x in new))
    eng.send({"s": "abc", "d": 1.5, "i": 2, "l": 3, "b": True, "bd": Decimal("1.5")}, "T")
    assert got == [expected]


# -- random typed expressions -------------------------------------------------------------

LEAVES = st.sampled_from(["s", "d", "i", "l", "b", "bd", "1", "2.5", "'x'", "'1'", "true",
                          "null", "0", "-3", "2147483647", "9223372036854775807L"])
UNARY = ["-({})", "~({})", "not ({})", "({})", "cast({}, int)", "cast({}, double)", "cast({}, string)",
         "cast({}, boolean)", "cast({}, long)", "{} is null", "Math.abs({})"]
BINARY = ["{} + {}", "{} - {}", "{} * {}", "{} / {}", "{} % {}", "{} & {}", "{} | {}", "{} ^ {}",
          "{} and {}", "{} or {}", "{} = {}", "{} != {}", "{} < {}", "{} >= {}", "{} is {}",
          "{} || {}", "{} like {}", "{} regexp {}", "coalesce({}, {})", "max({}, {})",
          "min({}, {})", "{} in ({}, 1)", "{} not in ({})", "{} between {} and 10",
          "case when {} then {} end", "case {} when 1 then {} else null end"]


def exprs():
    return st.recursive(
        LEAVES,
        lambda inner: st.one_of(
            st.tuples(st.sampled_from(UNARY), inner).map(lambda t: t[0].format(t[1])),
            st.tuples(st.sampled_from(BINARY), inner, inner).map(
                lambda t: t[0].format(f"({t[1]})", f"({t[2]})"))),
        max_leaves=5)


EVENTS = st.fixed_dictionaries({
    "s": st.one_of(st.none(), st.sampled_from(["", "abc", "1", "a%", "x"])),
    "d": st.one_of(st.none(), st.sampled_from([0.0, -1.5, 2.5, float("nan"), float("inf")])),
    "i": st.one_of(st.none(), st.sampled_from([0, 1, -7, 2147483647, -2147483648])),
    "l": st.one_of(st.none(), st.sampled_from([0, 3, -9223372036854775808, 9223372036854775807])),
    "b": st.one_of(st.none(), st.booleans()),
    "bd": st.one_of(st.none(), st.sampled_from([Decimal("0"), Decimal("1.25"), Decimal("-3")])),
})


@settings(max_examples=200, deadline=None)
@given(exprs(), st.lists(EVENTS, min_size=1, max_size=3))
def test_typed_expressions_compile_and_evaluate_or_are_refused(expr, events):
    eng = engine()
    faults = []
    eng.signals.statement_error.connect(lambda *a, **k: faults.append(k["error"]), weak=False)
    eng.signals.evaluation_error.connect(lambda *a, **k: faults.append(k["error"]), weak=False)
    try:
        stmt = eng.epl(f"select {expr} as r from T")
    except EPLValidationError:
        return
    got = []
    stmt.add_listener(lambda new, old: got.extend(new))
    for e in events:
        eng.send(e, "T")
    assert not faults, f"{expr}: {faults!r}"
    assert len(got) == len(events)
