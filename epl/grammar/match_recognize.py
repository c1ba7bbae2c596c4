"""Grammar of `match_recognize`: partition by, measures, all matches, after match skip, the
row pattern (concatenation, alternation, nesting, quantifiers, repetition, permutations),
interval [or terminated] and define."""
from __future__ import annotations

from ..ast import (
    DefineItem, MatchRecognize, MeasureItem, RowAlt, RowConcat, RowNested, RowPermute,
    RowQuantifier, RowQuantKind, RowVar, SkipMode,
)
from ..lexer import tokens  # noqa: F401
from engine.contracts.errors import EPLSyntaxError
from ._support import STATE, fail, span


def p_match_recognize(p):
    """match_recognize : MATCH_RECOGNIZE LPAREN mr_partition_opt mr_measures_opt mr_all_opt mr_skip_opt PATTERN LPAREN mr_alt RPAREN mr_tail RPAREN"""
    interval, terminated, defines = p[11]
    p[0] = MatchRecognize(p[9], tuple(p[4] or ()), tuple(p[3] or ()), p[5], p[6], interval,
                          terminated, tuple(defines), span(p))


def p_mr_partition_opt(p):
    """mr_partition_opt : empty
                        | PARTITION BY expr_list"""
    p[0] = p[3] if len(p) == 4 else None


def p_mr_measures_opt(p):
    """mr_measures_opt : empty
                       | MEASURES mr_measures"""
    p[0] = p[2] if len(p) == 3 else None


def p_mr_measures(p):
    """mr_measures : mr_measure
                   | mr_measures COMMA mr_measure"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_mr_measure(p):
    """mr_measure : expr
                  | expr AS name"""
    p[0] = MeasureItem(p[1], p[3] if len(p) == 4 else None, span(p))


def p_mr_all_opt(p):
    """mr_all_opt : empty
                  | ALL IDENT"""
    if len(p) == 3 and p[2].lower() != "matches":
        fail(p, 2, "expecting 'matches'")
    p[0] = len(p) == 3


_SKIPS = {("past", "last", "row"): SkipMode.PAST_LAST_ROW,
          ("to", "next", "row"): SkipMode.TO_NEXT_ROW,
          ("to", "current", "row"): SkipMode.TO_CURRENT_ROW}


def p_mr_skip_opt(p):
    """mr_skip_opt : empty
                   | AFTER IDENT IDENT mr_words"""
    if len(p) == 2:
        p[0] = None
        return
    if p[2].lower() != "match":
        fail(p, 2, "expecting 'match'")
    if p[3].lower() != "skip":
        fail(p, 3, "expecting 'skip'")
    mode = _SKIPS.get(tuple(w.lower() for w in p[4]))
    if mode is None:
        sp = span(p)
        raise EPLSyntaxError("Match-recognize AFTER clause must be either AFTER MATCH SKIP TO LAST "
                             "ROW or AFTER MATCH SKIP TO NEXT ROW or AFTER MATCH SKIP TO CURRENT ROW "
                             f"at line {sp.line} column {sp.column}", STATE.text, sp.line, sp.column,
                             near=None, expected="'past last row', 'to next row' or 'to current row'")
    p[0] = mode


def p_mr_words(p):
    """mr_words : IDENT
                | LAST
                | mr_words IDENT
                | mr_words LAST"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[2]]


def p_mr_tail(p):
    """mr_tail : empty
               | IDENT mr_defines
               | IDENT time_period
               | IDENT time_period OR_TERMINATED TERMINATED
               | IDENT time_period IDENT mr_defines
               | IDENT time_period OR_TERMINATED TERMINATED IDENT mr_defines"""
    # `interval` and `define` are names, not keywords: the words are checked here
    n = len(p)
    if n == 2:
        p[0] = (None, False, ())
        return
    if n == 3 and isinstance(p[2], list):
        if p[1].lower() != "define":
            fail(p, 1, "expecting 'define' or 'interval'")
        p[0] = (None, False, p[2])
        return
    if p[1].lower() != "interval":
        fail(p, 1, "expecting 'define' or 'interval'")
    types = [sym.type for sym in p.slice[1:]]
    terminated = "OR_TERMINATED" in types
    defines = ()
    if isinstance(p[n - 1], list):
        if p[n - 2].lower() != "define":
            fail(p, n - 2, "expecting 'define'")
        defines = p[n - 1]
    p[0] = (p[2], terminated, defines)


def p_mr_defines(p):
    """mr_defines : mr_define
                  | mr_defines COMMA mr_define"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_mr_define(p):
    "mr_define : IDENT AS expr"
    p[0] = DefineItem(p[1], p[3], span(p))


# -- the row pattern ----------------------------------------------------------------------------

def p_mr_alt(p):
    """mr_alt : mr_concat
              | mr_alt BOR mr_concat"""
    if len(p) == 2:
        p[0] = p[1]
    elif isinstance(p[1], RowAlt):
        p[0] = RowAlt(p[1].items + (p[3],), span(p))
    else:
        p[0] = RowAlt((p[1], p[3]), span(p))


def p_mr_concat(p):
    """mr_concat : mr_atom
                 | mr_concat mr_atom"""
    if len(p) == 2:
        p[0] = p[1]
    elif isinstance(p[1], RowConcat):
        p[0] = RowConcat(p[1].items + (p[2],), span(p))
    else:
        p[0] = RowConcat((p[1], p[2]), span(p))


def p_mr_atom_var(p):
    "mr_atom : IDENT mr_quant_opt"
    q, r = p[2]
    p[0] = RowVar(p[1], q, r, span=span(p))


def p_mr_atom_nested(p):
    "mr_atom : LPAREN mr_alt RPAREN mr_quant_opt"
    q, r = p[4]
    p[0] = RowNested(p[2], q, r, span=span(p))


def p_mr_atom_permute(p):
    "mr_atom : MATCH_RECOGNIZE_PERMUTE LPAREN mr_alt_list RPAREN mr_quant_opt"
    q, r = p[5]
    p[0] = RowPermute(tuple(p[3]), q, r, span=span(p))


def p_mr_alt_list(p):
    """mr_alt_list : mr_alt
                   | mr_alt_list COMMA mr_alt"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


_QUANTS = {"*": RowQuantKind.STAR, "+": RowQuantKind.PLUS, "?": RowQuantKind.QUESTION}


def p_mr_quant_opt(p):
    """mr_quant_opt : empty
                    | mr_quant
                    | mr_repeat
                    | mr_quant mr_repeat"""
    # (quantifier, repetition)
    if p[1] is None:
        p[0] = (None, None)
    elif len(p) == 3:
        p[0] = (p[1], p[2])
    elif p[1].kind is RowQuantKind.REPEAT:
        p[0] = (None, p[1])
    else:
        p[0] = (p[1], None)


def p_mr_quant(p):
    """mr_quant : STAR
                | PLUS
                | QUESTION
                | STAR QUESTION
                | PLUS QUESTION
                | QUESTION QUESTION"""
    p[0] = RowQuantifier(_QUANTS[p[1]], len(p) == 3, span=span(p))


def p_mr_repeat(p):
    """mr_repeat : LBRACE RBRACE
                 | LBRACE mr_bound RBRACE
                 | LBRACE mr_bound COMMA RBRACE
                 | LBRACE COMMA mr_bound RBRACE
                 | LBRACE mr_bound COMMA mr_bound RBRACE"""
    kinds = ["N" if isinstance(v, int) else v for v in p[2:len(p) - 1]]
    vals = [v for v in p[2:len(p) - 1] if isinstance(v, int)]
    if not kinds:
        fail(p, 1, "Invalid match-recognize quantifier '{}', expecting an expression")
    if kinds == ["N"]:
        q = RowQuantifier(RowQuantKind.REPEAT, False, vals[0], vals[0], True, span(p))
    elif kinds == ["N", ","]:
        q = RowQuantifier(RowQuantKind.REPEAT, False, vals[0], None, False, span(p))
    elif kinds == [",", "N"]:
        q = RowQuantifier(RowQuantKind.REPEAT, False, None, vals[0], False, span(p))
    else:
        q = RowQuantifier(RowQuantKind.REPEAT, False, vals[0], vals[1], False, span(p))
    p[0] = q


def p_mr_bound(p):
    """mr_bound : NUMBER
                | MINUS NUMBER"""
    raw = p[len(p) - 1]
    if not raw.isdigit():
        fail(p, len(p) - 1, "expecting an integer repetition bound")
    p[0] = -int(raw) if len(p) == 3 else int(raw)
