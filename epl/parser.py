"""The EPL parser: loads the PLY LALR tables once, lazily, and exposes `parse`,
`parse_module` and `parse_expression`. Syntax errors raise EPLSyntaxError with line,
column, the token near the error, what was expected and the clause being parsed.

The tables ship with the package (`epl/_parsetab.pickle`, written by
`python -m epl.build_tables`) and are used when their signature (PLY's: the grammar text,
tokens and precedence) equals the grammar's. When the grammar changed since they were
written, tables are built once and cached per user (`$EPL_CACHE_DIR`, else
`$XDG_CACHE_HOME/epl-engine` or `~/.cache/epl-engine`), or in memory only when that fails;
a stale shipped table costs time, never correctness."""
from __future__ import annotations

import os
import pickle
import threading
import types
from pathlib import Path
from typing import Any, Iterator, Optional

from ply import yacc
from ply.lex import LexToken

from .ast import Expr, Module, Span, Statement
from .ast.walk import MAX_NESTING, too_deep
from engine.contracts.errors import EPLSyntaxError
from .grammar import GRAMMAR_MODULES, precedence, start
from .grammar._support import STATE, with_span
from .lexer import RESERVED, SOFT_KEYWORDS, position, tokenize, tokens

_lock = threading.RLock()
_parser: Optional[yacc.LRParser] = None


def parse(text: str) -> Statement:
    """Parse one statement; a trailing `;` is allowed."""
    toks = tokenize(text)
    return _run(text, toks)


def parse_module(text: str) -> Module:
    """Parse `;`-separated statements, after Esper's optional module headers (`module name;`,
    `uses name;`, `import name;`, before the first statement). `Module.texts` holds each
    statement's source text, `Module.lines` its first line."""
    toks = tokenize(text)
    statements: list[Statement] = []
    texts: list[str] = []
    lines: list[int] = []
    headers: dict[str, list[str]] = {"module": [], "uses": [], "import": []}
    group: list[LexToken] = []
    for tok in toks + [None]:
        if tok is not None and tok.type != "SEMI":
            group.append(tok)
            continue
        if group:
            word = group[0].value.lower() if group[0].type == "IDENT" else None
            if word in headers and not getattr(group[0], "ticked", False):
                headers[word].append(_module_header(text, group, bool(statements), headers))
            else:
                end = group[-1].end
                statements.append(_run(text, group))
                texts.append(text[group[0].lexpos:end])
                lines.append(group[0].lineno)
        group = []
    if not statements and not headers["module"]:
        raise EPLSyntaxError("Unexpected end-of-input at line 1 column 1, expecting a statement",
                             text, 1, 1, near=None, expected="a statement")
    name = headers["module"][0] if headers["module"] else None
    return Module(tuple(statements), tuple(texts), Span(1, 1, 0, len(text)), name,
                  tuple(headers["uses"]), tuple(headers["import"]), tuple(lines))


def _module_header(text: str, group: list, after_statements: bool,
                   headers: dict[str, list[str]]) -> str:
    """The dotted name of a `module`, `uses` or `import` header (`import a.b.*` keeps `.*`)."""
    first = group[0]
    word = first.value.lower()
    where = f"at line {first.lineno} column {position(text, first.lexpos)[1]}"
    if after_statements:
        raise EPLSyntaxError(f"The '{word}' declaration {where} must come before the module's "
                             f"statements", text, first.lineno, position(text, first.lexpos)[1],
                             near=first.value, expected="a statement")
    if word == "module" and headers["module"]:
        raise EPLSyntaxError(f"Duplicate module name declaration {where}", text, first.lineno,
                             position(text, first.lexpos)[1], near=first.value)
    body = group[1:]
    ok = bool(body) and all(
        (t.type == "IDENT" or t.type in RESERVED.values()) if i % 2 == 0 else t.type == "DOT"
        for i, t in enumerate(body[:-1] if body and body[-1].type == "STAR" else body))
    if not ok or (body[-1].type == "STAR" and word != "import"):
        raise EPLSyntaxError(f"Incorrect syntax of the '{word}' declaration {where}, expecting a "
                             f"dotted name", text, first.lineno, position(text, first.lexpos)[1],
                             near=first.value, expected="a dotted name")
    return "".join(t.value for t in body)


def parse_expression(text: str) -> Expr:
    """Parse a single expression (`sum(price) > 10`, `1 min 30 sec`)."""
    toks = tokenize(text)
    first = LexToken()
    first.type, first.value, first.lineno, first.lexpos, first.end = "EXPR_START", "", 1, 0, 0
    return _run(text, [first] + toks)


def _run(text: str, toks: list) -> Any:
    stream = _TokenStream(toks)
    with _lock:
        parser = _get_parser()
        STATE.text = text
        _CURRENT.stream = stream
        try:
            tree = parser.parse(lexer=stream, tokenfunc=stream.token)
        finally:
            STATE.text = ""
            _CURRENT.stream = None
    _check_nesting(text, tree)
    return tree


def _check_nesting(text: str, tree: Any) -> None:
    """Refuse trees nested deeper than MAX_NESTING (parentheses, `not`s, calls inside
    calls...) before anything recursive sees them: an EPLSyntaxError, never RecursionError."""
    deep = too_deep(tree)
    if deep is None:
        return
    sp = getattr(deep, "span", None)
    line, col = (sp.line, sp.column) if sp is not None and sp.line else (1, 1)
    near = text[sp.start:sp.end][:20] if sp is not None and sp.end > sp.start else None
    raise EPLSyntaxError(
        f"Expression nesting exceeds the limit of {MAX_NESTING} levels at line {line} column "
        f"{col}, please simplify the expression", text, line, col, near=near,
        expected=f"at most {MAX_NESTING} levels of nesting")


class _TokenStream:
    """Feeds prelexed tokens to PLY; remembers the tokens for error messages."""

    def __init__(self, toks: list) -> None:
        self.toks = toks
        self.it: Iterator = iter(toks)
        self.lineno = 0   # read by PLY for empty productions; spans are tracked elsewhere
        self.lexpos = 0

    def token(self) -> Optional[LexToken]:
        return next(self.it, None)


def _get_parser() -> yacc.LRParser:
    global _parser
    with _lock:
        if _parser is None:
            _parser = load_parser()
        return _parser


SHIPPED_TABLES = Path(__file__).with_name("_parsetab.pickle")


def grammar_signature() -> str:
    """PLY's signature of the grammar: what the shipped tables must have been built from."""
    info = yacc.ParserReflect(vars(_namespace()), log=yacc.NullLogger())
    info.get_all()
    return info.signature()


def table_signature(path: Path) -> Optional[str]:
    """The signature stored in a pickled table file, or None when it is absent or unreadable
    (another process may be writing it)."""
    try:
        with open(path, "rb") as f:
            version = pickle.load(f)
            pickle.load(f)   # the LR method
            signature = pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, AttributeError):
        return None
    return signature if version == yacc.__tabversion__ and isinstance(signature, str) else None


def cache_dir() -> Path:
    """The per-user directory for tables built from a grammar newer than the shipped one."""
    explicit = os.environ.get("EPL_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "epl-engine"


def load_parser() -> yacc.LRParser:
    """The parser from the shipped tables when they fit the grammar, else from the per-user
    cache, else built (and cached for the next process)."""
    ns = _namespace()
    info = yacc.ParserReflect(vars(ns), log=yacc.NullLogger())
    info.get_all()
    signature = info.signature()
    parser = _from_tables(ns, SHIPPED_TABLES, signature)
    if parser is not None:
        return parser
    import hashlib     # only here: 3 ms of a cold start
    cached = cache_dir() / f"parsetab-{hashlib.sha256(signature.encode()).hexdigest()[:20]}.pickle"
    return _from_tables(ns, cached, signature) or _build_and_cache(ns, cached)


def _from_tables(ns: types.ModuleType, path: Path, signature: str) -> Optional[yacc.LRParser]:
    """The parser from the tables at `path` when they were built from this grammar."""
    if table_signature(path) == signature:
        try:
            return _yacc(ns, picklefile=str(path))
        except (OSError, EOFError, pickle.UnpicklingError):
            pass   # replaced or truncated under us: the caller builds
    return None


def _build_and_cache(ns: types.ModuleType, path: Path) -> yacc.LRParser:
    # PLY writes the pickle in place; write beside it and rename so that a concurrent
    # process never reads half a file.
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return build_parser()
    parser = _yacc(ns, picklefile=str(tmp))
    try:
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
    return parser


def write_tables(path: Path = SHIPPED_TABLES) -> str:
    """Build the tables from the grammar and write them to `path` (the shipped file by
    default); returns the signature. Used by `python -m epl.build_tables`."""
    tmp = path.with_name(path.name + ".tmp")
    if tmp.exists():
        tmp.unlink()
    _yacc(_namespace(), picklefile=str(tmp))
    os.replace(tmp, path)
    signature = table_signature(path)
    assert signature is not None
    return signature


def _yacc(ns: types.ModuleType, picklefile: str) -> yacc.LRParser:
    return yacc.yacc(module=ns, start=start, debug=False, picklefile=picklefile,
                     errorlog=yacc.NullLogger())


def _namespace() -> types.ModuleType:
    """One module object holding the grammar functions of every grammar module (wrapped to
    track spans), the token list, the precedence table and the error function."""
    ns = types.ModuleType("epl._grammar_namespace")
    ns.__file__ = __file__
    for mod in GRAMMAR_MODULES:
        for name, obj in vars(mod).items():
            if name.startswith("p_") and callable(obj) and getattr(obj, "__module__", None) == mod.__name__:
                if hasattr(ns, name):
                    raise RuntimeError(f"grammar function {name} defined twice")
                setattr(ns, name, with_span(obj))
    ns.tokens = tokens
    ns.precedence = precedence
    ns.p_error = _p_error
    ns.start = start   # as yacc(start=...) sets it: part of the signature
    return ns


def build_parser(errorlog: Any = None, debuglog: Any = None) -> yacc.LRParser:
    """Build the LALR parser in memory (no table files are read or written). With a `debuglog`, PLY also
    describes the states and reports the conflict counts to `errorlog`."""
    return yacc.yacc(module=_namespace(), start=start, debug=debuglog is not None,
                     write_tables=False, debuglog=debuglog,
                     errorlog=errorlog or yacc.NullLogger())


class _ConflictCounter(yacc.PlyLogger):
    def __init__(self) -> None:
        self.shift_reduce = 0
        self.reduce_reduce = 0
        self.messages: list[str] = []

    def warning(self, msg: str, *args: Any, **kwargs: Any) -> None:
        text = msg % args
        self.messages.append(text)
        if text.endswith("shift/reduce conflict") or text.endswith("shift/reduce conflicts"):
            self.shift_reduce = int(text.split()[0])
        if text.endswith("reduce/reduce conflict") or text.endswith("reduce/reduce conflicts"):
            self.reduce_reduce = int(text.split()[0])

    error = warning
    info = warning
    debug = warning
    critical = warning


def grammar_conflicts() -> tuple[int, int, str]:
    """(shift/reduce, reduce/reduce, PLY's description of the states): for tests and
    maintenance."""
    import io
    counter = _ConflictCounter()
    out = io.StringIO()
    build_parser(counter, yacc.PlyLogger(out))
    return counter.shift_reduce, counter.reduce_reduce, out.getvalue()


# -- errors -----------------------------------------------------------------------------------

_CLAUSES = {
    "SELECT": "the select clause", "FROM": "the from clause", "WHERE": "the where clause",
    "GROUP": "the group-by clause", "HAVING": "the having clause",
    "OUTPUT": "the output clause", "ORDER": "the order-by clause", "LIMIT": "the limit clause",
    "INSERT": "the insert-into clause", "PATTERN": "the pattern expression",
    "ON": "the on-clause", "SET": "the set clause", "UPDATE": "the update clause",
    "DELETE": "the delete clause", "MERGE": "the merge clause", "CREATE": "the create statement",
    "VALUES": "the values clause",
}
_PUNCT = {
    "LPAREN": "'('", "RPAREN": "')'", "LBRACK": "'['", "RBRACK": "']'", "LBRACE": "'{'",
    "RBRACE": "'}'", "COMMA": "','", "NESTCOMMA": "','", "SEMI": "';'", "DOT": "'.'",
    "COLON": "':'", "ATSIGN": "'@'", "HASH": "'#'", "EQ": "'='", "ARROW": "'->'", "GOES": "'=>'", "GT": "'>'",
    "STAR": "'*'", "MINUS": "'-'", "IDENT": "an identifier", "NUMBER": "a number",
    "STRING": "a string", "$end": "end of input", "VIEWNS": "a view namespace",
}
# Tokens that continue an expression: left out of "expecting" when something else fits too.
_CONTINUATIONS = {
    "OR", "AND", "BOR", "BXOR", "BAND", "EQ", "NE", "LT", "GT", "LE", "GE", "IS", "IN",
    "NOTX", "BETWEEN", "LIKE", "REGEXP", "CONCAT", "PLUS", "MINUS", "STAR", "SLASH", "PERCENT",
    "DOT", "LBRACK", "LPAREN", "AS", "ASC", "DESC", "TP_YEAR", "TP_MONTH", "TP_WEEK", "TP_DAY",
    "TP_HOUR", "TP_MINUTE", "MIN", "TP_SEC", "TP_MSEC", "TP_USEC", "ESCAPE", "AND_WHEN", "QUESTION",
    "GOES", "ARROW",   # ARROW: also a lambda operator after any call argument
}
_EXPR_STARTS = {"NUMBER", "STRING", "IDENT", "NULL", "TRUE", "FALSE", "CASE"}


def _describe_expected(names: set[str]) -> str:
    names = {n for n in names if n != "error"}
    if _EXPR_STARTS <= names:
        return "an expression"
    if {"EVERY", "NOT", "EVERY_DISTINCT", "IDENT", "LPAREN"} <= names:
        return "a pattern expression"
    if "IDENT" in names:
        # the keywords that may stand for a name are not worth listing
        names -= SOFT_KEYWORDS | {"AFTER", "BETWEEN", "WHERE", "SET"}
    rest = names - _CONTINUATIONS
    if rest:
        names = rest
    shown = sorted(_PUNCT.get(n) or f"'{_keyword_text(n)}'" for n in names)
    if len(shown) > 8:
        shown = shown[:8] + ["..."]
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " or " + shown[-1]


_TOKEN_WORD = {}
for _w, _t in RESERVED.items():
    _TOKEN_WORD.setdefault(_t, _w)
_TOKEN_WORD.update({"EVERY_DISTINCT": "every-distinct", "RETAIN_UNION": "retain-union",
                    "RETAIN_INTERSECTION": "retain-intersection", "NOTX": "not",
                    "AND_WHEN": "and", "CONCAT": "||", "NE": "!=", "LE": "<=", "GE": ">=",
                    "LT": "<", "PLUS": "+", "SLASH": "/", "PERCENT": "%", "BAND": "&",
                    "BOR": "|", "BXOR": "^", "BNOT": "~"})


def _keyword_text(tok_type: str) -> str:
    return _TOKEN_WORD.get(tok_type, tok_type.lower())


def _clause(toks: list, upto: int) -> Optional[str]:
    for tok in reversed(toks):
        if tok.lexpos >= upto:
            continue
        if tok.type in _CLAUSES:
            return _CLAUSES[tok.type]
    return None


def _p_error(tok: Optional[LexToken]) -> None:
    parser = _parser
    text = STATE.text
    expected_names = _viable_tokens(parser) if parser is not None else set()
    expected = _describe_expected(expected_names) if expected_names else None
    toks = _current_tokens()
    if tok is None:
        end = toks[-1].end if toks else 0
        line, col = position(text, end)
        clause = _clause(toks, end + 1)
        msg = f"Unexpected end-of-input at line {line} column {col}"
        near = None
    else:
        line, col = position(text, tok.lexpos)
        near = text[tok.lexpos:tok.end]
        keyword = tok.type in RESERVED.values() and tok.type not in SOFT_KEYWORDS
        msg = f"Incorrect syntax near '{near}'" + (" (a reserved keyword)" if keyword else "") + \
            f" at line {line} column {col}"
        clause = _clause(toks, tok.lexpos)
    if clause:
        msg += f", please check {clause}"
    if expected:
        msg += f", expecting {expected}"
    raise EPLSyntaxError(msg, text, line, col, near=near, expected=expected)


def _viable_tokens(parser: yacc.LRParser) -> set[str]:
    """The tokens the parser could shift next. LALR tables merge lookaheads of similar
    states, so a token listed in the current state may only lead to an error after some
    reductions; simulating those reductions on a copy of the state stack leaves out such
    tokens."""
    stack = list(getattr(parser, "statestack", []) or [])
    if not stack:
        return set()
    action, goto, prods = parser.action, parser.goto, parser.productions
    viable = set()
    for tok in action[stack[-1]]:
        states = list(stack)
        for _ in range(1000):
            act = action[states[-1]].get(tok)
            if act is None:
                break
            if act >= 0:   # shift or accept
                viable.add(tok)
                break
            prod = prods[-act]
            if prod.len:
                del states[-prod.len:]
            nxt = goto[states[-1]].get(prod.name)
            if nxt is None:
                break
            states.append(nxt)
    return viable


def _current_tokens() -> list:
    stream = _CURRENT.stream
    return stream.toks if stream is not None else []


class _Current(threading.local):
    stream: Optional[_TokenStream] = None


_CURRENT = _Current()
