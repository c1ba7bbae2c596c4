"""EPL tokens: the PLY lexer, the keyword table and `tokenize`, which turns a text into a
list of tokens carrying their start and end offsets."""
from __future__ import annotations

import bisect
import re
import threading
from typing import Optional

from ply import lex

from engine.contracts.errors import EPLSyntaxError

# Every keyword, lower-case word -> token type. Keywords are case-insensitive; identifiers keep
# their case. The words are Esper's reserved keywords; those in SOFT_KEYWORDS are the ones
# Esper also accepts as property names, aliases and function names.
RESERVED: dict[str, str] = {
    "after": "AFTER", "all": "ALL", "and": "AND", "any": "ANY", "as": "AS", "asc": "ASC",
    "at": "AT", "between": "BETWEEN", "by": "BY", "case": "CASE", "context": "CONTEXT",
    "create": "CREATE", "cube": "CUBE", "current_timestamp": "CURRENT_TIMESTAMP",
    "dataflow": "DATAFLOW", "delete": "DELETE", "desc": "DESC", "distinct": "DISTINCT",
    "else": "ELSE", "end": "END", "escape": "ESCAPE", "events": "EVENTS", "every": "EVERY",
    "exists": "EXISTS", "expression": "EXPRESSION", "false": "FALSE", "first": "FIRST",
    "from": "FROM", "full": "FULL", "group": "GROUP", "grouping": "GROUPING",
    "grouping_id": "GROUPING_ID", "having": "HAVING", "in": "IN", "initiated": "INITIATED",
    "inner": "INNER", "insert": "INSERT", "into": "INTO", "irstream": "IRSTREAM", "is": "IS",
    "istream": "ISTREAM", "join": "JOIN", "last": "LAST", "lastweekday": "LASTWEEKDAY",
    "left": "LEFT", "like": "LIKE", "limit": "LIMIT", "match_recognize": "MATCH_RECOGNIZE",
    "match_recognize_permute": "MATCH_RECOGNIZE_PERMUTE",
    "matched": "MATCHED", "measures": "MEASURES", "merge": "MERGE", "new": "NEW", "not": "NOT",
    "null": "NULL", "offset": "OFFSET", "on": "ON", "or": "OR", "order": "ORDER",
    "outer": "OUTER", "output": "OUTPUT", "partition": "PARTITION", "pattern": "PATTERN",
    "regexp": "REGEXP", "right": "RIGHT", "rollup": "ROLLUP", "rstream": "RSTREAM",
    "schema": "SCHEMA", "select": "SELECT", "set": "SET", "sets": "SETS",
    "snapshot": "SNAPSHOT", "some": "SOME", "start": "START", "table": "TABLE",
    "terminated": "TERMINATED", "then": "THEN", "true": "TRUE",
    "unidirectional": "UNIDIRECTIONAL", "until": "UNTIL", "update": "UPDATE",
    "values": "VALUES", "variable": "VARIABLE", "weekday": "WEEKDAY", "when": "WHEN",
    "where": "WHERE", "while": "WHILE", "window": "WINDOW",
    # time period units
    "year": "TP_YEAR", "years": "TP_YEAR", "month": "TP_MONTH", "months": "TP_MONTH",
    "week": "TP_WEEK", "weeks": "TP_WEEK", "day": "TP_DAY", "days": "TP_DAY",
    "hour": "TP_HOUR", "hours": "TP_HOUR", "minute": "TP_MINUTE", "minutes": "TP_MINUTE",
    "min": "MIN", "sec": "TP_SEC", "second": "TP_SEC", "seconds": "TP_SEC",
    "msec": "TP_MSEC", "millisecond": "TP_MSEC", "milliseconds": "TP_MSEC",
    "usec": "TP_USEC", "microsecond": "TP_USEC", "microseconds": "TP_USEC",
}

# Keyword tokens the grammar also accepts where a name is expected (Esper's
# "keywordAllowedIdent"); `count`, `sum`, `avg`, `max`, `coalesce`, `cast`, ... are not
# keywords here at all, so they are plain identifiers.
SOFT_KEYWORDS: frozenset[str] = frozenset({
    "AT", "CONTEXT", "ESCAPE", "EVENTS", "EVERY", "FIRST", "FULL", "JOIN", "LAST",
    "LASTWEEKDAY", "LEFT", "MATCHED", "MERGE", "MIN", "OUTER", "PARTITION", "PATTERN", "RIGHT",
    "SCHEMA", "SNAPSHOT", "TABLE", "UNIDIRECTIONAL", "UNTIL", "VARIABLE", "WEEKDAY", "WHILE",
    "WINDOW",
})

tokens = tuple(sorted(set(RESERVED.values()))) + (
    "IDENT", "NUMBER", "STRING",
    "EVERY_DISTINCT", "RETAIN_UNION", "RETAIN_INTERSECTION",
    # `not` before in/between/like/regexp: the infix form binds like a comparison
    "NOTX",
    # `and` followed by `when` (`output ... and when terminated`)
    "AND_WHEN",
    # `or` followed by `terminated` (match_recognize's `interval ... or terminated`)
    "OR_TERMINATED",
    # `?`: row-pattern quantifiers (`A?`, `B*?`); a generic token other clauses may use too
    "QUESTION",
    # `?:name` and `?:name:type`: named substitution parameters (plain `?` is QUESTION)
    "SUBSTITUTION",
    # `for` followed by `grouped_delivery` / `discrete_delivery` (the for-clause)
    "FOR",
    # `,` followed by `context Name` (nested context declarations)
    "NESTCOMMA",
    # `.win:`, `.std:`, `.ext:` view namespaces of the old view syntax
    "VIEWNS",
    "ARROW", "GOES", "CONCAT", "NE", "LE", "GE", "EQ", "LT", "GT",
    "PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "BAND", "BOR", "BXOR", "BNOT",
    "LPAREN", "RPAREN", "LBRACK", "RBRACK", "LBRACE", "RBRACE",
    "COMMA", "SEMI", "DOT", "COLON", "ATSIGN", "HASH",
    # `?` after a dynamic property's name (`item?`, `a.b?`)
    "QUESTION",
    # synthetic first token selecting the expression entry point of the grammar
    "EXPR_START",
)

t_ignore = " \t\r\f"

t_ARROW = r"->"
t_GOES = r"=>"     # lambda: `v => v.price > 10`
t_CONCAT = r"\|\|"
t_NE = r"!=|<>"
t_LE = r"<="
t_GE = r">="
t_EQ = r"="
t_LT = r"<"
t_GT = r">"
t_PLUS = r"\+"
t_MINUS = r"-"
t_STAR = r"\*"
t_SLASH = r"/"
t_PERCENT = r"%"
t_BAND = r"&"
t_BOR = r"\|"
t_BXOR = r"\^"
t_BNOT = r"~"
t_LPAREN = r"\("
t_RPAREN = r"\)"
t_LBRACK = r"\["
t_RBRACK = r"\]"
t_LBRACE = r"\{"
t_RBRACE = r"\}"
t_SEMI = r";"
t_COLON = r":"
t_ATSIGN = r"@"
t_HASH = r"\#"
t_QUESTION = r"\?"

_IDENT_START = r"(?:[^\W\d]|\$)"
_IDENT_REST = r"[\w$]*"
_NESTED_CONTEXT_AHEAD = re.compile(r"\s*(?i:context)\s+(?:[^\W\d]|[$`])")
_KEYWORD_AHEAD = {
    "not": re.compile(r"\s+(?i:in|between|like|regexp)\b"),
    "and": re.compile(r"\s+(?i:when)\b"),
    "or": re.compile(r"\s+(?i:terminated)\b"),
}
_FOR_AHEAD = re.compile(r"\s+(?i:grouped_delivery|discrete_delivery)(?![\w$])")
_AHEAD_KIND = {"not": "NOTX", "and": "AND_WHEN", "or": "OR_TERMINATED"}


_EMPTY_CALL_AHEAD = re.compile(r"\s*\(\s*\)")


def t_newline(t):
    r"\n+"
    t.lexer.lineno += len(t.value)


def t_block_comment(t):
    r"/\*(.|\n)*?\*/"
    t.lexer.lineno += t.value.count("\n")


def t_unterminated_comment(t):
    r"/\*(.|\n)*"
    _fail(t.lexer.lexdata, t.lexpos, "Unterminated comment")


def t_line_comment(t):
    r"(//|--)[^\n]*"


def t_SUBSTITUTION(t):
    r"\?:(?:[\w$]+(?::[^\W\d][\w.$]*(?:\[\])?)?|:[^\W\d][\w.$]*(?:\[\])?)"
    return t


def t_VIEWNS(t):
    r"\.\s*(?i:win|std|ext|stat)\s*:(?!:)"
    return t


def t_NUMBER(t):
    r"0[xX][0-9a-fA-F]+(?:[lL](?![\w$]))?|(?:\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)(?:[fFdD](?![\w$]))?|\d+(?:[fFdDlL](?![\w$]))?"
    return t


def t_DOT(t):
    r"\."
    return t


def t_STRING(t):
    r"'(?:[^'\\]|\\(?:.|\n))*'|\"(?:[^\"\\]|\\(?:.|\n))*\""
    t.lexer.lineno += t.value.count("\n")
    return t


def t_TICKED(t):
    r"`(?:[^`\\]|\\.)*`"
    t.type = "IDENT"
    t.ticked = True
    return t


def t_EVERY_DISTINCT(t):
    r"(?i:every-distinct)(?![\w$])"
    return t


def t_RETAIN_UNION(t):
    r"(?i:retain-union)(?![\w$])"
    return t


def t_RETAIN_INTERSECTION(t):
    r"(?i:retain-intersection)(?![\w$])"
    return t


def t_IDENT(t):
    word = t.value.lower()
    kind = RESERVED.get(word)
    if kind is None:
        if word == "for" and _FOR_AHEAD.match(t.lexer.lexdata, t.lexer.lexpos):
            t.type = "FOR"
        return t
    ahead = _KEYWORD_AHEAD.get(word)
    if ahead is not None and ahead.match(t.lexer.lexdata, t.lexer.lexpos):
        kind = _AHEAD_KIND[word]
    elif word == "istream" and _EMPTY_CALL_AHEAD.match(t.lexer.lexdata, t.lexer.lexpos):
        kind = "IDENT"     # the istream() function, not the stream selector
    t.type = kind
    return t


t_IDENT.__doc__ = _IDENT_START + _IDENT_REST


def t_COMMA(t):
    r","
    if _NESTED_CONTEXT_AHEAD.match(t.lexer.lexdata, t.lexer.lexpos):
        t.type = "NESTCOMMA"
    return t


def t_error(t):
    data = t.lexer.lexdata
    ch = data[t.lexpos]
    if ch in "'\"`":
        _fail(data, t.lexpos, "Unterminated string literal" if ch != "`" else
              "Unterminated quoted identifier")
    _fail(data, t.lexpos, f"Unexpected character '{ch}'", near=ch)


def _fail(text: str, pos: int, what: str, near: Optional[str] = None) -> None:
    line, col = position(text, pos)
    raise EPLSyntaxError(f"{what} at line {line} column {col}", text, line, col,
                         near=near, expected=None)


def position(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of character offset `pos` in `text`."""
    starts = _line_starts(text)
    i = bisect.bisect_right(starts, pos) - 1
    return i + 1, pos - starts[i] + 1


_starts_cache: tuple[str, list[int]] = ("", [0])


def _line_starts(text: str) -> list[int]:
    global _starts_cache
    cached_text, starts = _starts_cache
    if cached_text is not text:
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        _starts_cache = (text, starts)
    return starts


_master: Optional[lex.Lexer] = None
_master_lock = threading.Lock()


def _lexer() -> lex.Lexer:
    global _master
    with _master_lock:
        if _master is None:
            import sys
            # optimize: PLY skips checking the rules (compiling each one apart, 1.6 ms of a cold
            # start; tests/epl/test_lexer_rules.py checks them). lextab=False: no table module
            # read or written (PLY would write epl/lextab.py; None means its default name)
            _master = lex.lex(module=sys.modules[__name__], reflags=re.UNICODE | re.VERBOSE,
                              optimize=True, lextab=False, errorlog=lex.NullLogger())
        return _master.clone()


def tokenize(text: str) -> list[lex.LexToken]:
    """All tokens of `text`. Each token has `type`, `value` (the source text, except
    identifiers in backquotes: their unquoted name), `lexpos` (start offset) and `end`."""
    lexer = _lexer()
    lexer.input(text)
    out = []
    while True:
        tok = lexer.token()
        if tok is None:
            return out
        tok.end = lexer.lexpos
        if getattr(tok, "ticked", False):
            tok.value = _unescape(tok.value[1:-1])
        out.append(tok)


_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", '"': '"', "'": "'",
            "\\": "\\", "`": "`"}
_ESCAPE_RE = re.compile(r"\\(u[0-9a-fA-F]{4}|[0-7]{1,3}|.|\n)", re.S)


def _unescape(body: str) -> str:
    def one(m: re.Match) -> str:
        s = m.group(1)
        if s[0] == "u" and len(s) == 5:
            return chr(int(s[1:], 16))
        if s[0] in "01234567":
            return chr(int(s, 8))
        # an unknown escape stays as written, so that regexp patterns keep their backslashes
        return _ESCAPES.get(s, "\\" + s)
    return _ESCAPE_RE.sub(one, body)


def string_value(raw: str) -> str:
    """The value of a string literal token: quotes removed, escapes decoded."""
    return _unescape(raw[1:-1])
