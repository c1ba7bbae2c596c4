"""The lexer's rules pass PLY's own checks (the engine builds its lexer in PLY's optimized
mode, which skips them at start-up), every token type a rule can return is a token, and no
table module is written or read."""
from __future__ import annotations

import re
import sys
from pathlib import Path

from ply import lex

import epl.lexer as L


class _Errors(lex.PlyLogger):
    def __init__(self) -> None:
        self.messages: list[str] = []

    def error(self, msg: str, *args: object, **kwargs: object) -> None:
        self.messages.append(msg % args)

    def warning(self, msg: str, *args: object, **kwargs: object) -> None:
        pass     # ("Token 'QUESTION' multiply defined": the tokens tuple names it twice)


def test_rules_pass_plys_checks():
    errors = _Errors()
    info = lex.LexerReflect(vars(sys.modules[L.__name__]), log=errors, reflags=re.UNICODE | re.VERBOSE)
    info.get_all()
    assert not info.validate_all() and not errors.messages, errors.messages


def test_every_type_a_rule_returns_is_a_token():
    returned = set(L.RESERVED.values()) | set(L._AHEAD_KIND.values()) | {"IDENT", "FOR", "NESTCOMMA"}
    assert returned <= set(L.tokens), sorted(returned - set(L.tokens))


def test_no_table_module_is_written_or_read(monkeypatch):
    monkeypatch.setattr(L, "_master", None)
    assert [t.type for t in L.tokenize("select a from B")] == ["SELECT", "IDENT", "FROM", "IDENT"]
    assert not (Path(L.__file__).parent / "lextab.py").exists()
    assert "epl.lextab" not in sys.modules and "lextab" not in sys.modules
