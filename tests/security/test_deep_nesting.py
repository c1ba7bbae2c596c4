"""Long chains compile and evaluate flat; deep nesting is an EPLSyntaxError with line and
column (epl.ast.walk.MAX_NESTING levels), never a RecursionError."""
import pytest

from engine import Engine
from epl.ast.walk import MAX_NESTING
from epl.errors import EPLSyntaxError
from recording import Rec


@pytest.fixture()
def engine():
    e = Engine(time="simulated")
    e.epl("create schema M(s string, i int, d double)")
    e.epl("create window W#keepall as M")
    return e


def run(engine, text, event=None):
    st = engine.epl(text)
    rec = Rec(st)
    engine.send(event or {"s": "a", "i": 3, "d": 1.5}, "M")
    return rec.pop()


@pytest.mark.parametrize("n", [1_000, 10_000])
def test_or_chains_in_where_and_filter(engine, n):
    ors = " or ".join(f"i = {k}" for k in range(n))
    assert run(engine, f"select s from M where {ors}") == [[{"s": "a"}]]
    assert run(engine, f"select s from M({ors})") == [[{"s": "a"}]]


def test_and_chain(engine):
    ands = " and ".join(f"i != {k}" for k in range(10, 10_010))
    assert run(engine, f"select s from M where {ands}") == [[{"s": "a"}]]


def test_long_plus_minus_and_concat_chains(engine):
    n = 10_000
    assert run(engine, "select " + " + ".join(["i"] * n) + " as x from M") == [[{"x": 3 * n}]]
    assert run(engine, "select " + " - ".join(["i"] * n) + " as x from M") == [[{"x": 3 - 3 * (n - 1)}]]
    assert run(engine, "select " + " || ".join(["s"] * n) + " as x from M") == [[{"x": "a" * n}]]
    assert run(engine, "select " + " + ".join(["d"] * 1000) + " as x from M") == [[{"x": 1500.0}]]


def test_long_chains_with_nulls_and_grouping(engine):
    plus = " + ".join(["i"] * 2000)
    got = run(engine, f"select s, sum({plus}) as x from M group by s")
    assert got == [[{"s": "a", "x": 6000}]]
    rec = Rec(engine.epl(f"select {plus} as x from M"))
    engine.send({"s": "a", "i": None, "d": 1.0}, "M")
    assert rec.pop() == [[{"x": None}]]


def test_long_chains_in_joins_patterns_subqueries_and_on_delete(engine):
    ors = " or ".join(f"w.i = {k}" for k in range(2000))
    engine.epl(f"on M as m delete from W as w where w.i = m.i and ({ors})")
    ors_a = ors.replace("w.i", "a.i")
    assert run(engine, f"select a.s as s from M#length(2) as a, M#length(2) as b "
                       f"where a.i = b.i and ({ors_a})") == [[{"s": "a"}]]
    assert run(engine, "select a.s as s from pattern [every a=M("
                       + ors.replace("w.i", "i") + ")]") == [[{"s": "a"}]]
    assert run(engine, "select (select count(*) from W where " + ors.replace("w.i", "i")
               + ") as c from M") == [[{"c": 0}]]


@pytest.mark.parametrize("text, what", [
    ("select " + "(" * 500 + "i" + ")" * 500 + " as x from M", "parentheses"),
    ("select " + "not " * 1000 + "true as x from M", "nots"),
    ("select * from M where " + "not " * 1000 + "true", "nots in where"),
    ("select " + "coalesce(" * 300 + "i" + ")" * 300 + " as x from M", "calls"),
    ("select " + "case when true then " * 300 + "1" + " end" * 300 + " as x from M", "cases"),
    ("select " + "- (" * 300 + "i" + ")" * 300 + " as x from M", "negations"),
    ("select * from pattern [" + "every (" * 300 + "M" + ")" * 300 + "]", "pattern"),
])
def test_deep_nesting_is_a_syntax_error_with_position(engine, text, what):
    with pytest.raises(EPLSyntaxError) as info:
        engine.epl(text)
    err = info.value
    assert err.line == 1 and err.column > 1
    assert f"limit of {MAX_NESTING} levels" in str(err)


def test_nesting_up_to_the_limit_works(engine):
    depth = MAX_NESTING // 2
    assert run(engine, "select " + "(" * depth + "i" + ")" * depth + " as x from M") == [[{"x": 3}]]
    assert run(engine, "select " + "not " * depth + "true as x from M") == [[{"x": True}]]


def test_parse_expression_is_limited_too():
    from epl.parser import parse_expression
    with pytest.raises(EPLSyntaxError):
        parse_expression("(" * 1000 + "1" + ")" * 1000)
    assert parse_expression(" or ".join(["a"] * 10_000)) is not None


def test_long_chains_in_tables_and_subquery_select_lists(engine):
    plus = " + ".join(["v"] * 3000)
    engine.epl("create table Tot(total sum(int))")
    engine.epl("create schema V(v int)")
    engine.epl(f"into table Tot select sum({plus}) as total from V")
    engine.send({"v": 1}, "V")
    rec = Rec(engine.epl("select (select " + " + ".join(["i"] * 3000)
                         + " from W) as s from M"))
    engine.send({"s": "a", "i": 3, "d": 1.5}, "M")
    assert rec.pop() == [[{"s": None}]]
