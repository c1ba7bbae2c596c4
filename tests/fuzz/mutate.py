"""Mutations of valid statements (the conformance cases are the seed corpus): token deletion,
duplication, swap and replacement, random identifiers and literals, cut texts."""
from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

from epl.errors import EPLError
from epl.lexer import tokenize

CASES = Path(__file__).resolve().parent.parent / "conformance" / "cases"

_VOCAB = [
    "select", "from", "where", "group", "by", "having", "order", "limit", "output", "every",
    "pattern", "and", "or", "not", "in", "between", "like", "regexp", "is", "null", "case",
    "when", "then", "else", "end", "as", "on", "insert", "into", "distinct", "irstream",
    "(", ")", "[", "]", "{", "}", ",", ".", "*", "+", "-", "/", "%", "||", "=", "!=", "<", ">",
    "->", "#", ":", "?", "@", "`x`", "`__class__`", "__class__", "_x", "x.__init__",
    "0", "-1", "2147483648", "9223372036854775808", "1e309", "0.0", "1.5f", "'a'", "''",
    "'it''s'", "'\\n'", "'\\u0000'", "true", "false", "sum", "count", "avg", "prev", "prior",
    "window", "Math.sqrt", "timer:within", "#length", "#time", "sec", "msec", "min", "now",
    "context", "create", "schema", "table", "variable", "expression", "match_recognize",
    "measures", "define", "partition", "unidirectional", "retain-union", "snapshot",
]


@lru_cache(maxsize=1)
def corpus() -> tuple[dict, ...]:
    """The conformance cases: `epl` (setup and statements) and `steps` (events and time)."""
    return tuple(json.loads(p.read_text()) for p in sorted(CASES.glob("*.json")))


def mutate(r: random.Random, text: str) -> str:
    """One to three random token-level (or character-level) edits of `text`."""
    for _ in range(r.choice((1, 1, 1, 1, 1, 1, 2, 2, 3))):
        text = _one(r, text)
    return text


_SAME_CLASS = {
    "NUMBER": ["0", "1", "-1", "2", "3", "100", "2147483647", "2147483648", "1.5", "0.0", "1e308",
               "5L", "9223372036854775807L", "1.5f"],
    "STRING": ["'a'", "''", "'A1'", "'%'", "'_'", "'it\\'s'", "'\\n'", "'E1'", "'(a+)+b'"],
    "PLUS": ["+", "-", "*", "/", "%", "||"], "MINUS": ["+", "-", "*", "/", "%"],
    "STAR": ["+", "-", "*", "/", "%"], "SLASH": ["+", "-", "*", "/", "%"],
    "EQ": ["=", "!=", "<", ">", "<=", ">=", "is", "is not"], "NE": ["=", "!=", "<", ">="],
    "LT": ["=", "<", ">", "<="], "GT": ["=", "<", ">", ">="], "LE": ["<", ">="], "GE": [">", "<="],
    "AND": ["and", "or"], "OR": ["and", "or"],
}


def _one(r: random.Random, text: str) -> str:
    try:
        lexed = tokenize(text)
    except EPLError:
        lexed = []
    toks = [(t.lexpos, t.end) for t in lexed]
    if not toks or r.random() < 0.1:
        return _chars(r, text)
    i = r.randrange(len(toks))
    s, e = toks[i]
    if r.random() < 0.6:                         # a replacement that keeps the shape
        kind = lexed[i].type
        if kind == "IDENT":
            names = [text[a:b] for (a, b), t in zip(toks, lexed) if t.type == "IDENT"]
            return text[:s] + r.choice(names) + text[e:]
        if kind in _SAME_CLASS:
            return text[:s] + r.choice(_SAME_CLASS[kind]) + text[e:]
    op = r.randrange(6)
    if op == 0:                                  # delete a token
        return text[:s] + text[e:]
    if op == 1:                                  # duplicate a token
        return text[:e] + " " + text[s:e] + text[e:]
    if op == 2 and i + 1 < len(toks):            # swap with the next token
        s2, e2 = toks[i + 1]
        return text[:s] + text[s2:e2] + text[e:s2] + text[s:e] + text[e2:]
    if op == 3:                                  # replace with a vocabulary token
        return text[:s] + r.choice(_VOCAB) + text[e:]
    if op == 4:                                  # insert a vocabulary token
        return text[:s] + r.choice(_VOCAB) + " " + text[s:]
    return text[:s]                              # cut the text short


def _chars(r: random.Random, text: str) -> str:
    if not text:
        return r.choice(_VOCAB)
    i = r.randrange(len(text))
    return text[:i] + r.choice(["'", "`", "(", ")", "\\", "\n", "\x00", "é", "-", "."]) + text[i + 1:]
