"""Java-exact evaluation: java.lang.Math's results, int/long overflow, division and modulo by
zero, BigDecimal columns, concatenation with null, and Esper's compile-time type errors."""
from __future__ import annotations

import math
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from engine import Engine
from epl.errors import EPLValidationError

SCHEMA = "create schema E(i int, j int, l long, m long, d double, e double, s string, o object, b BigDecimal)"


def _eval(expr: str, **values):
    eng = Engine(time="simulated")
    eng.epl(SCHEMA)
    out = []
    eng.epl(f"select {expr} as v from E").add_listener(lambda new, old: out.append(new[0].get("v")))
    eng.send(values, "E")
    return out[0]


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b and type(a) is type(b)


INF, NAN = math.inf, math.nan

# (expression, event, what Java's Math returns)
JAVA = [
    ("Math.sqrt(d)", {"d": -1.0}, NAN), ("Math.sqrt(d)", {"d": -0.0}, -0.0),
    ("Math.log(d)", {"d": 0.0}, -INF), ("Math.log(d)", {"d": -1.0}, NAN),
    ("Math.log10(d)", {"d": 0.0}, -INF), ("Math.log1p(d)", {"d": -1.0}, -INF),
    ("Math.exp(d)", {"d": 1000.0}, INF), ("Math.expm1(d)", {"d": 1000.0}, INF),
    ("Math.cosh(d)", {"d": 1000.0}, INF), ("Math.sinh(d)", {"d": -1000.0}, -INF),
    ("Math.acos(d)", {"d": 2.0}, NAN), ("Math.asin(d)", {"d": -2.0}, NAN),
    ("Math.sin(d)", {"d": INF}, NAN), ("Math.cos(d)", {"d": INF}, NAN),
    ("Math.tan(d)", {"d": -INF}, NAN), ("Math.atan(d)", {"d": INF}, math.pi / 2),
    ("Math.atan2(d, e)", {"d": 1.0, "e": 1.0}, math.atan2(1.0, 1.0)),
    ("Math.cbrt(d)", {"d": -8.0}, -2.0), ("Math.tanh(d)", {"d": 1000.0}, 1.0),
    ("Math.pow(d, e)", {"d": 0.0, "e": -1.0}, INF), ("Math.pow(d, e)", {"d": -0.0, "e": -1.0}, -INF),
    ("Math.pow(d, e)", {"d": -0.0, "e": -2.0}, INF), ("Math.pow(d, e)", {"d": -8.0, "e": 1 / 3}, NAN),
    ("Math.pow(d, e)", {"d": 10.0, "e": 400.0}, INF), ("Math.pow(d, e)", {"d": -10.0, "e": 401.0}, -INF),
    ("Math.pow(d, e)", {"d": 1.0, "e": NAN}, NAN), ("Math.pow(d, e)", {"d": -1.0, "e": INF}, NAN),
    ("Math.pow(d, e)", {"d": NAN, "e": 0.0}, 1.0), ("Math.pow(i, j)", {"i": 2, "j": 10}, 1024.0),
    ("Math.hypot(d, e)", {"d": INF, "e": NAN}, INF), ("Math.hypot(d, e)", {"d": 3.0, "e": 4.0}, 5.0),
    ("Math.ceil(d)", {"d": -0.5}, -0.0), ("Math.ceil(d)", {"d": 1.2}, 2.0),
    ("Math.ceil(d)", {"d": NAN}, NAN), ("Math.floor(d)", {"d": -INF}, -INF),
    ("Math.floor(d)", {"d": -1.5}, -2.0), ("Math.rint(d)", {"d": 2.5}, 2.0),
    ("Math.rint(d)", {"d": -0.5}, -0.0), ("Math.rint(d)", {"d": 3.5}, 4.0),
    ("Math.round(d)", {"d": 2.5}, 3), ("Math.round(d)", {"d": -2.5}, -2),
    ("Math.round(d)", {"d": 0.49999999999999994}, 0), ("Math.round(d)", {"d": NAN}, 0),
    ("Math.round(d)", {"d": 1e300}, 2 ** 63 - 1), ("Math.round(d)", {"d": -INF}, -2 ** 63),
    ("Math.signum(d)", {"d": -3.0}, -1.0), ("Math.signum(d)", {"d": -0.0}, -0.0),
    ("Math.signum(d)", {"d": NAN}, NAN), ("Math.signum(i)", {"i": 7}, 1.0),
    ("Math.abs(i)", {"i": -2 ** 31}, -2 ** 31), ("Math.abs(l)", {"l": -2 ** 63}, -2 ** 63),
    ("Math.abs(i)", {"i": -4}, 4), ("Math.abs(d)", {"d": -0.0}, 0.0),
    ("Math.max(d, e)", {"d": NAN, "e": 1.0}, NAN), ("Math.max(d, e)", {"d": 1.0, "e": NAN}, NAN),
    ("Math.max(d, e)", {"d": -0.0, "e": 0.0}, 0.0), ("Math.min(d, e)", {"d": 0.0, "e": -0.0}, -0.0),
    ("Math.max(i, l)", {"i": 3, "l": 5}, 5), ("Math.min(i, d)", {"i": 3, "d": 5.0}, 3.0),
    ("Math.toDegrees(d)", {"d": math.pi}, 180.0), ("Math.toRadians(d)", {"d": 180.0}, math.pi),
    ("Math.floorDiv(i, j)", {"i": -7, "j": 2}, -4), ("Math.floorMod(i, j)", {"i": -7, "j": 2}, 1),
    ("Math.floorDiv(i, j)", {"i": 1, "j": 0}, None), ("Math.floorDiv(i, j)", {"i": -2 ** 31, "j": -1}, -2 ** 31),
    ("Math.addExact(i, j)", {"i": 2 ** 31 - 1, "j": 1}, None), ("Math.addExact(l, m)", {"l": 2 ** 31 - 1, "m": 1}, 2 ** 31),
    ("Math.multiplyExact(i, j)", {"i": 3, "j": 4}, 12), ("Math.negateExact(i)", {"i": -2 ** 31}, None),
    ("Math.toIntExact(l)", {"l": 2 ** 40}, None), ("Math.IEEEremainder(d, e)", {"d": 5.0, "e": 3.0}, -1.0),
    ("Math.IEEEremainder(d, e)", {"d": 5.0, "e": 0.0}, NAN), ("Math.ulp(d)", {"d": 1.0}, 2.220446049250313e-16),
    ("Math.nextUp(d)", {"d": 1.0}, math.nextafter(1.0, 2.0)), ("Math.copySign(d, e)", {"d": 3.0, "e": -0.0}, -3.0),
    ("Math.getExponent(d)", {"d": 8.0}, 3), ("Math.getExponent(d)", {"d": 0.0}, -1023),
    ("Math.fma(d, e, d)", {"d": 0.1, "e": 10.0}, 1.1), ("Math.sqrt(d)", {"d": None}, None),
    ("Math.PI", {}, math.pi), ("Math.E", {}, math.e),
]


@pytest.mark.parametrize("expr,event,expected", JAVA)
def test_math_gives_what_java_gives(expr, event, expected):
    assert _same(_eval(expr, **event), expected)


def test_math_random_is_a_double_in_the_unit_interval():
    v = _eval("Math.random()")
    assert isinstance(v, float) and 0.0 <= v < 1.0


# -- division, modulo, overflow -------------------------------------------------------------------

@pytest.mark.parametrize("expr,event,expected", [
    ("i / j", {"i": 1, "j": 0}, INF), ("i / j", {"i": -1, "j": 0}, -INF), ("i / j", {"i": 0, "j": 0}, NAN),
    ("d / e", {"d": 1.0, "e": -0.0}, -INF), ("i / j", {"i": 7, "j": 2}, 3.5),
    ("i % j", {"i": 7, "j": 0}, None), ("i % j", {"i": -7, "j": 2}, -1), ("d % e", {"d": 7.0, "e": 0.0}, NAN),
    ("d % e", {"d": -7.5, "e": 2.0}, -1.5),
    ("b / b", {"b": Decimal(0)}, None), ("b % b", {"b": Decimal(0)}, None),
    ("b + b", {"b": Decimal("0.1")}, Decimal("0.2")),
    ("b + d", {"b": Decimal("0.1"), "d": 0.2}, Decimal("0.3")),       # BigDecimal with a double
    ("b * i", {"b": Decimal("1.5"), "i": 3}, Decimal("4.5")),
    ("b / i", {"b": Decimal("1"), "i": 4}, Decimal("0.25")),
    ("i + j", {"i": 2 ** 31 - 1, "j": 1}, -2 ** 31), ("i * j", {"i": 65536, "j": 65536}, 0),
    ("i - j", {"i": -2 ** 31, "j": 1}, 2 ** 31 - 1), ("-i", {"i": -2 ** 31}, -2 ** 31),
    ("l + m", {"l": 2 ** 63 - 1, "m": 1}, -2 ** 63), ("l * i", {"l": 2 ** 62, "i": 4}, 0),
    ("i + l", {"i": 2 ** 31 - 1, "l": 1}, 2 ** 31),          # int widens to long: no wrap
    ("i + d", {"i": 2 ** 31 - 1, "d": 1.0}, 2.0 ** 31),
    ("s || 'x'", {"s": None}, None), ("s || 'x'", {"s": "a"}, "ax"), ("null || 'x'", {}, None),
])
def test_arithmetic_as_java(expr, event, expected):
    assert _same(_eval(expr, **event), expected)


def _java_int(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def _java_long(v: int) -> int:
    v &= 0xFFFFFFFFFFFFFFFF
    return v - (1 << 64) if v >= 1 << 63 else v


INTS = st.integers(-2 ** 31, 2 ** 31 - 1)
LONGS = st.integers(-2 ** 63, 2 ** 63 - 1)


@settings(max_examples=150, deadline=None)
@given(INTS, INTS, LONGS, LONGS)
def test_int_and_long_overflow_wraps_as_twos_complement(i, j, l, m):
    eng = Engine(time="simulated")
    eng.epl(SCHEMA)
    out = []
    eng.epl("select i + j as a, i - j as b, i * j as c, -i as n, i * j + i as ch, "
            "l + m as la, l - m as lb, l * m as lc, l * i as li, -l as ln from E"
            ).add_listener(lambda new, old: out.append(new[0].to_dict()))
    eng.send({"i": i, "j": j, "l": l, "m": m}, "E")
    assert out == [{"a": _java_int(i + j), "b": _java_int(i - j), "c": _java_int(i * j),
                    "n": _java_int(-i), "ch": _java_int(_java_int(i * j) + i),
                    "la": _java_long(l + m), "lb": _java_long(l - m), "lc": _java_long(l * m),
                    "li": _java_long(l * i), "ln": _java_long(-l)}]


# -- nothing Esper accepts raises out of send ------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(st.fixed_dictionaries({
    "i": st.one_of(st.none(), INTS), "j": st.one_of(st.none(), INTS),
    "d": st.one_of(st.none(), st.floats()), "e": st.one_of(st.none(), st.floats()),
    "o": st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=3), st.booleans())}))
def test_no_numeric_expression_raises_out_of_send(event):
    eng = Engine(time="simulated")
    eng.epl(SCHEMA)
    names = [n for n in (
        "sqrt", "log", "log10", "log1p", "exp", "expm1", "cosh", "sinh", "tanh", "acos", "asin",
        "atan", "cbrt", "ceil", "floor", "rint", "round", "signum", "sin", "cos", "tan", "abs",
        "toDegrees", "toRadians", "ulp", "nextUp", "nextDown", "getExponent")]
    cols = [f"Math.{n}(d) as d_{n}" for n in names] + [f"Math.{n}(o) as o_{n}" for n in names]
    cols += ["Math.pow(d, e) as p", "Math.hypot(d, e) as h", "Math.atan2(d, e) as a2",
             "Math.max(d, e) as mx", "Math.min(i, j) as mn", "Math.floorDiv(i, j) as fd",
             "Math.floorMod(i, j) as fm", "Math.fma(d, e, d) as f", "Math.IEEEremainder(d, e) as r",
             "i / j as q", "i % j as md", "d / e as dq", "d % e as dm", "i * j + i as ar",
             "o + i as oa", "o * d as om", "-o as ong", "o & i as ob", "o / j as od", "o % d as oo"]
    out = []
    eng.epl("select " + ", ".join(cols) + " from E").add_listener(lambda new, old: out.append(1))
    eng.send(event, "E")
    assert out == [1]


# -- compile-time type errors (Esper's wording) --------------------------------------------------

@pytest.mark.parametrize("text,message", [
    ("select * from E(s like 1)", "The 'like' operator requires a String-type pattern expression"),
    ("select * from E(s like 'a' and (d like 'x'))", None),
    ("select -1 & 2.5 from E", "Invalid type for bitwise & operator"),
    ("select -s from E", "Implicit conversion from datatype 'String' to numeric is not allowed for operator '-'"),
    ("select s | 'y' from E", "Invalid datatype for binary operator, String is not allowed"),
    ("select ~d from E", "Invalid type for bitwise ~ operator"),
    ("select i & l from E", "Bitwise expressions must be of the same type for bitwise & operator"),
    ("select s || i from E", "Implicit conversion from datatype 'Integer' to string is not allowed"),
    ("select s + 1 from E", "Implicit conversion from datatype 'String' to numeric is not allowed for operator '+'"),
    ("select * from E where s > 5", "Implicit conversion from datatype 'String' to numeric is not allowed"),
    ("select * from E where s = 5", "Implicit conversion from datatype 'Integer' to 'String' is not allowed for operator '='"),
    ("select * from E where i = 5.0 and o > 5 and s = null", None),
    ("select Math.sqrt(s) from E", "Could not find static method named 'sqrt' in class 'java.lang.Math'"),
    ("select Math.sqrt(d, e) from E", "Could not find static method named 'sqrt'"),
    ("select Math.floorDiv(d, e) from E", "Could not find static method named 'floorDiv'"),
    ("select Math.nope(d) from E", "Could not find static method named 'nope'"),
])
def test_type_errors_are_validation_errors_at_compile_time(text, message):
    eng = Engine(time="simulated")
    eng.epl(SCHEMA)
    if message is None:
        eng.epl(text)                   # accepted, as by Esper
        return
    with pytest.raises(EPLValidationError) as info:
        eng.epl(text)
    assert message in str(info.value)
