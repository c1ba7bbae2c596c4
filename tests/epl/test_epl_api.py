"""The public API of `epl` (pinned), `expr_text`, the grammar's conflict counts and
concurrent parsing."""
from __future__ import annotations

import threading

import pytest

import epl
from epl import expr_text, parse, parse_expression, to_epl
from epl.parser import grammar_conflicts


def test_public_names():
    public = set(epl.__all__)   # the names are imported lazily: __all__ lists them
    assert {"parse", "parse_module", "parse_expression", "to_epl", "expr_text", "ast",
            "EPLError", "EPLSyntaxError", "EPLValidationError"} <= public
    assert epl.ast.SelectStatement is not None
    import epl.ast as ast_module
    assert ast_module is epl.ast


@pytest.mark.parametrize("text,name", [
    ("sum(price)", "sum(price)"), ("count(*)", "count(*)"), ("a.id", "a.id"),
    ("price * volume", "price*volume"), ("a + b - c", "a+b-c"), ("a > b and c <= d", "a>b and c<=d"),
    ("coalesce(a, b, -1)", "coalesce(a,b,-1)"), ("account in ('A1', 'A3')", "account in ('A1','A3')"),
    ("case when amount > 200 then 'big' else 'small' end",
     "case when amount>200 then 'big' else 'small' end"),
    ("count(distinct sym)", "count(distinct sym)"), ("maxby(price).sym", "maxby(price).sym"),
    ("s || '!'", "s||'!'"), ("a is not null", "a is not null"), ("(a > 1) or (b > 1)", "(a>1) or (b>1)"),
    ("amount between 100 and 300", "amount between 100 and 300"), ("a[0].id", "a[0].id"),
    ("a.before(b, 10)", "a.before(b,10)"), ('"x"', "'x'"),
])
def test_expr_text(text, name):
    assert expr_text(parse_expression(text)) == name


def test_to_epl_accepts_clauses_and_patterns():
    s = parse("select a from T#length(2) as t where a > 1 output every 2 events")
    assert to_epl(s.select) == "select a"
    assert to_epl(s.from_) == "T#length(2) as t"
    assert to_epl(s.output) == "output every 2 events"
    pat = parse("select * from pattern [every a=A -> b=B]").from_.streams[0].pattern
    assert to_epl(pat) == "every a=A -> b=B"


def test_grammar_has_no_conflicts():
    shift_reduce, reduce_reduce, _ = grammar_conflicts()
    assert reduce_reduce == 0
    assert shift_reduce == 0


def test_concurrent_parses():
    texts = [f"select a{i}, sum(b) from T#length({i + 1}) where a{i} > {i}" for i in range(40)]
    expected = [parse(t) for t in texts]
    results: dict[int, object] = {}

    def work(k: int) -> None:
        for i, t in enumerate(texts):
            results[(k, i)] = parse(t)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert all(results[(k, i)] == expected[i] for k in range(4) for i in range(len(texts)))
