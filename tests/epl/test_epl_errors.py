"""Syntax errors name the line, the column (1-based), the token near the error, what was
expected and the clause being parsed."""
from __future__ import annotations

import pytest

from epl import EPLSyntaxError, parse, parse_expression, parse_module

# text, line, column, near, expected, message (without the trailing `[text]`)
CASES = [
    ("select case when 1>2 from A", 1, 22, "from", "'then'",
     "Incorrect syntax near 'from' (a reserved keyword) at line 1 column 22, "
     "please check the select clause, expecting 'then'"),
    ("select a where x > 1", 1, 10, "where", "'from'",
     "Incorrect syntax near 'where' (a reserved keyword) at line 1 column 10, "
     "please check the select clause, expecting 'from'"),
    ("select a, from T", 1, 11, "from", "an expression",
     "Incorrect syntax near 'from' (a reserved keyword) at line 1 column 11, "
     "please check the select clause, expecting an expression"),
    ("select * frm T", 1, 10, "frm", "',' or 'from'",
     "Incorrect syntax near 'frm' at line 1 column 10, please check the select clause, "
     "expecting ',' or 'from'"),
    ("select * from T where", 1, 22, None, "an expression",
     "Unexpected end-of-input at line 1 column 22, please check the where clause, "
     "expecting an expression"),
    ("select *\nfrom T\nwhere a > > 1", 3, 11, ">", "an expression",
     "Incorrect syntax near '>' at line 3 column 11, please check the where clause, "
     "expecting an expression"),
    ("select *\n  from T\n  group a", 3, 9, "a", "'by'",
     "Incorrect syntax near 'a' at line 3 column 9, please check the group-by clause, "
     "expecting 'by'"),
    ("select * from T order a", 1, 23, "a", "'by'",
     "Incorrect syntax near 'a' at line 1 column 23, please check the order-by clause, "
     "expecting 'by'"),
    ("select * from T#length(5", 1, 25, None, "')' or ','",
     "Unexpected end-of-input at line 1 column 25, please check the from clause, "
     "expecting ')' or ','"),
    ("select count(* from T", 1, 16, "from", "')' or ','",
     "Incorrect syntax near 'from' (a reserved keyword) at line 1 column 16, "
     "please check the select clause, expecting ')' or ','"),
    ("select * from pattern [every a=A -> ]", 1, 37, "]", "a pattern expression",
     "Incorrect syntax near ']' at line 1 column 37, please check the pattern expression, "
     "expecting a pattern expression"),
    ("on T delete W", 1, 13, "W", "'from'",
     "Incorrect syntax near 'W' at line 1 column 13, please check the delete clause, "
     "expecting 'from'"),
    ("select sum(x) as from T", 1, 18, "from", "an identifier",
     "Incorrect syntax near 'from' (a reserved keyword) at line 1 column 18, "
     "please check the select clause, expecting an identifier"),
    ("select * from T limit", 1, 22, None, "an expression",
     "Unexpected end-of-input at line 1 column 22, please check the limit clause, "
     "expecting an expression"),
    ("create schema S(a)", 1, 18, ")", "an identifier",
     "Incorrect syntax near ')' at line 1 column 18, please check the create statement, "
     "expecting an identifier"),
    ("select * from T; select * from U", 1, 18, "select", "end of input",
     "Incorrect syntax near 'select' (a reserved keyword) at line 1 column 18, "
     "please check the from clause, expecting end of input"),
    ("insert into X values (1,", 1, 25, None, "an expression",
     "Unexpected end-of-input at line 1 column 25, please check the values clause, "
     "expecting an expression"),
]


@pytest.mark.parametrize("text,line,column,near,expected,message", CASES)
def test_syntax_error(text, line, column, near, expected, message):
    with pytest.raises(EPLSyntaxError) as info:
        parse(text)
    err = info.value
    assert (err.line, err.column, err.near, err.expected) == (line, column, near, expected)
    assert err.message == message
    assert str(err) == f"{message} [{text}]"
    assert err.epl == text


@pytest.mark.parametrize("text,line,column,message", [
    ("select 'abc from T", 1, 8, "Unterminated string literal at line 1 column 8"),
    ("select * from T\nwhere s = \"x", 2, 11, "Unterminated string literal at line 2 column 11"),
    ("select * from T where a = 1 §", 1, 29, "Unexpected character '§' at line 1 column 29"),
    ("select * from T /* no end", 1, 17, "Unterminated comment at line 1 column 17"),
])
def test_lexer_error(text, line, column, message):
    with pytest.raises(EPLSyntaxError) as info:
        parse(text)
    assert (info.value.line, info.value.column, info.value.message) == (line, column, message)


def test_error_position_in_module_is_relative_to_the_module_text():
    text = "create schema A(id int);\n\nselect id frm A"
    with pytest.raises(EPLSyntaxError) as info:
        parse_module(text)
    assert (info.value.line, info.value.column, info.value.near) == (3, 11, "frm")


def test_empty_module_is_an_error():
    with pytest.raises(EPLSyntaxError):
        parse_module("  // nothing\n;")


def test_errors_raised_by_productions_have_positions():
    with pytest.raises(EPLSyntaxError) as info:
        parse("create table T(k string primary kee)")
    assert (info.value.line, info.value.column, info.value.near) == (1, 25, "primary")
    with pytest.raises(EPLSyntaxError) as info:
        parse("@name('x') insert into W values (1)")
    assert info.value.column == 1 and "annotations are not allowed" in info.value.message


def test_parse_expression_error():
    with pytest.raises(EPLSyntaxError) as info:
        parse_expression("a + * b")
    assert (info.value.line, info.value.column, info.value.near) == (1, 5, "*")
    assert info.value.expected == "an expression"
