"""match_recognize text: round trips through the printer, and the errors Esper gives for what
it rejects, with line and column."""
from __future__ import annotations

import pytest

from engine import Engine
from epl import EPLSyntaxError, EPLValidationError, parse, to_epl

ROUND_TRIP = [
    "select * from T match_recognize (partition by a, b measures A.x as ax, count(B.x) as n all matches "
    "after match skip to current row pattern (A B*? (C | D)+ E{2} F{1,2} G{,3} H{2,} I?? J+? K?{2}) "
    "interval 5 sec or terminated define A as A.x > prev(A.x, 2), B as x = 1)",
    "select a from T#time(1 min) match_recognize (measures A as a after match skip to next row "
    "pattern (match_recognize_permute(A, (B C)*, D)) define A as typeof(A) = 'T') order by a",
    "insert into Out select * from T match_recognize (measures A.x as x pattern (A | B A) interval 1 month)",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_round_trip(text):
    tree = parse(text)
    assert to_epl(tree) == text
    assert parse(to_epl(tree)) == tree


def test_question_mark_is_a_token_and_reluctant_forms_parse():
    q = parse("select * from T match_recognize (pattern (A?? B*? C+?))").from_.match_recognize.pattern
    assert [(i.quantifier.kind.value, i.quantifier.reluctant) for i in q.items] == [("?", True), ("*", True), ("+", True)]


def _engine() -> Engine:
    e = Engine(time="simulated")
    e.epl("create schema SupportRecogBean(theString string, value int, cat string)")
    return e


BAD = [
    ("select * from SupportRecogBean match_recognize (measures A as a_array pattern (A+ B) "
     "define A as A.theString = B.theString)",
     "Failed to validate condition expression for variable 'A': Failed to validate match-recognize define "
     "expression 'A.theString=B.theString': Failed to find a stream named 'B' (did you mean 'A'?)", "B.theString)"),
    ("select * from SupportRecogBean match_recognize (measures A.theString as a, D.theString as x pattern (A B*))",
     "Failed to validate match-recognize measure expression 'D.theString': Failed to resolve property "
     "'D.theString' to a stream or nested property in a stream", "D.theString as"),
    ("select * from SupportRecogBean match_recognize (measures A.theString, A.theString as xxx pattern (A B*))",
     "The measures clause requires that each expression utilizes the AS keyword to assign a column name", "A.theString,"),
    ("select * from SupportRecogBean match_recognize (measures B.theString as b1 pattern (A B*))",
     "Failed to validate match-recognize measure expression 'B.theString': Failed to resolve property "
     "'B.theString' (property 'B' is an indexed property and requires an index or enumeration method to "
     "access values)", "B.theString as"),
    ("select * from SupportRecogBean match_recognize (measures A.theString as a pattern (A B*)\n"
     "define A as A.value > 1, A as A.value > 2)", "Variable 'A' has already been defined", "A as A.value > 2"),
    ("select * from SupportRecogBean match_recognize (measures A.theString as a pattern (A B*) "
     "define X as X.value > 1)", "Variable 'X' does not occur in pattern", "X as"),
    ("select * from SupportRecogBean match_recognize (measures sum(A.value+B.value) as t pattern (A* B*))",
     "Aggregation functions in the measure-clause must only refer to properties of exactly one group "
     "variable returning multiple events", "sum(A.value+"),
    ("select * from SupportRecogBean match_recognize (measures sum(A.value) as t pattern (A B*))",
     "Aggregation functions in the measure-clause must refer to one or more properties of exactly one "
     "group variable returning multiple events", "sum(A.value)"),
    ("select * from SupportRecogBean match_recognize (measures A.theString as a pattern (A B) "
     "define A as sum(A.value + A.value) > 3000)",
     "Failed to validate condition expression for variable 'A': An aggregate function may not appear in a "
     "DEFINE clause", "sum(A.value + A"),
    ("select * from SupportRecogBean match_recognize (measures A as a pattern (A{-1}))",
     "Invalid pattern quantifier value -1, expecting a minimum of 1", "{-1}"),
    ("select * from SupportRecogBean match_recognize (measures A as a pattern (A{5,3}))",
     "Invalid pattern quantifier value 5, expecting a minimum of 1 and maximum of 3", "{5,3}"),
]


@pytest.mark.parametrize("text, message, anchor", BAD)
def test_validation_errors(text, message, anchor):
    at = text.index(anchor)
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    with pytest.raises(EPLValidationError) as info:
        _engine().epl(text)
    assert info.value.message == f"{message} at line {line} column {column}"
    assert (info.value.line, info.value.column) == (line, column)


def test_joins_are_not_allowed():
    with pytest.raises(EPLValidationError, match="Joins are not allowed when using match-recognize"):
        _engine().epl("select * from SupportRecogBean#keepall, SupportRecogBean#keepall "
                      "match_recognize (measures A.value as aval pattern (A B*))")


def test_after_clause_syntax():
    with pytest.raises(EPLSyntaxError) as info:
        parse("select * from T match_recognize (measures A.x as a AFTER MATCH SKIP TO OTHER ROW pattern (A))")
    assert info.value.message.startswith("Match-recognize AFTER clause must be either AFTER MATCH SKIP TO "
                                         "LAST ROW or AFTER MATCH SKIP TO NEXT ROW or AFTER MATCH SKIP TO "
                                         "CURRENT ROW at line 1 column 52")


def test_unclosed_pattern_is_a_syntax_error_with_position():
    with pytest.raises(EPLSyntaxError) as info:
        parse("select * from T match_recognize (pattern (A B define A as x > 1)")
    assert (info.value.line, info.value.column) == (1, 56)     # `define` reads as a variable; `as` cannot follow
