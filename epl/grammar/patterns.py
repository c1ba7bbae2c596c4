"""Grammar of patterns (`pattern [ ... ]`) and of crontab parameters. Esper's pattern
precedence, loosest first: `->`, `or`, `and`, repeat/`until`, unary `every`/`not`/
`every-distinct`, and the guard postfix `where timer:within(...)` / `while (...)`."""
from __future__ import annotations

from ..ast import (
    ArrayLiteral, CronFrequency, CronKeyword, CronRange, NamedArg, PatternAnd, PatternEvery,
    PatternEveryDistinct, PatternFilter, PatternFollowedBy, PatternGuard, PatternNot,
    PatternObserver, PatternOr, PatternParens, PatternRepeat, PatternUntil, PatternWhile,
    Property, RepeatRange, TimePeriod, Wildcard,
)
from ..lexer import tokens  # noqa: F401
from ._support import fail, number, span


def p_pattern(p):
    "pattern : pattern_followed_by"
    p[0] = p[1]


def p_pattern_followed_by(p):
    "pattern_followed_by : pattern_or"
    p[0] = p[1]


def p_pattern_followed_by_arrow(p):
    """pattern_followed_by : pattern_followed_by ARROW pattern_or
                           | pattern_followed_by MINUS LBRACK expr RBRACK GT pattern_or"""
    left = p[1]
    limit = p[4] if len(p) == 8 else None
    right = p[len(p) - 1]
    if isinstance(left, PatternFollowedBy):
        children = left.children + (right,)
        limits = (left.limits or (None,) * (len(left.children) - 1)) + (limit,)
    else:
        children, limits = (left, right), (limit,)
    if all(x is None for x in limits):
        limits = ()
    p[0] = PatternFollowedBy(children, limits, span(p))


def p_pattern_or(p):
    """pattern_or : pattern_and
                  | pattern_or OR pattern_and"""
    if len(p) == 2:
        p[0] = p[1]
    elif isinstance(p[1], PatternOr):
        p[0] = PatternOr(p[1].children + (p[3],), span(p))
    else:
        p[0] = PatternOr((p[1], p[3]), span(p))


def p_pattern_and(p):
    """pattern_and : pattern_until
                   | pattern_and AND pattern_until"""
    if len(p) == 2:
        p[0] = p[1]
    elif isinstance(p[1], PatternAnd):
        p[0] = PatternAnd(p[1].children + (p[3],), span(p))
    else:
        p[0] = PatternAnd((p[1], p[3]), span(p))


def p_pattern_until(p):
    """pattern_until : pattern_unary
                     | repeat_range pattern_unary"""
    if len(p) == 2:
        p[0] = p[1]
    else:
        p[0] = PatternRepeat(p[1], p[2], span(p))


def p_pattern_until_until(p):
    """pattern_until : pattern_unary UNTIL pattern_unary
                     | repeat_range pattern_unary UNTIL pattern_unary"""
    if len(p) == 4:
        p[0] = PatternUntil(p[1], p[3], None, span(p))
    else:
        p[0] = PatternUntil(p[2], p[4], p[1], span(p))


def p_pattern_unary(p):
    "pattern_unary : pattern_guard"
    p[0] = p[1]


def p_pattern_every(p):
    """pattern_unary : EVERY pattern_guard
                     | EVERY repeat_range pattern_guard"""
    p[0] = PatternEvery(_repeat(p, 2), span(p))


def p_pattern_not(p):
    """pattern_unary : NOT pattern_guard
                     | NOT repeat_range pattern_guard"""
    p[0] = PatternNot(_repeat(p, 2), span(p))


def p_pattern_every_distinct(p):
    """pattern_unary : EVERY_DISTINCT LPAREN expr_list RPAREN pattern_guard
                     | EVERY_DISTINCT LPAREN expr_list RPAREN repeat_range pattern_guard"""
    keys = list(p[3])
    expiry = None
    if len(keys) > 1 and isinstance(keys[-1], TimePeriod):
        expiry = keys.pop()
    p[0] = PatternEveryDistinct(tuple(keys), _repeat(p, 5), expiry, span(p))


def _repeat(p, i):
    """The child of a unary pattern operator: `guard` or `[range] guard` at p[i]."""
    if len(p) - i == 1:
        return p[i]
    return PatternRepeat(p[i], p[i + 1], span(p, i, i + 1))


def p_pattern_guard(p):
    "pattern_guard : pattern_atom"
    p[0] = p[1]


def p_pattern_guard_where(p):
    """pattern_guard : pattern_atom WHERE IDENT COLON IDENT LPAREN RPAREN
                     | pattern_atom WHERE IDENT COLON IDENT LPAREN expr_list RPAREN"""
    args = tuple(p[7]) if len(p) == 9 else ()
    p[0] = PatternGuard(p[1], p[3], p[5], args, span(p))


def p_pattern_guard_while(p):
    "pattern_guard : pattern_atom WHILE LPAREN expr RPAREN"
    p[0] = PatternWhile(p[1], p[4], span(p))


def p_pattern_atom_filter(p):
    "pattern_atom : event_filter"
    p[0] = PatternFilter(p[1], None, span=span(p))


def p_pattern_atom_tagged(p):
    "pattern_atom : IDENT EQ event_filter"
    p[0] = PatternFilter(p[3], p[1], span=span(p))


def p_pattern_atom_consume(p):
    """pattern_atom : event_filter consume_attr
                    | IDENT EQ event_filter consume_attr"""
    if len(p) == 3:
        p[0] = PatternFilter(p[1], None, p[2], span(p))
    else:
        p[0] = PatternFilter(p[3], p[1], p[4], span(p))


def p_consume_attr(p):
    """consume_attr : ATSIGN IDENT
                    | ATSIGN IDENT LPAREN NUMBER RPAREN"""
    if p[2].lower() != "consume":
        fail(p, 2, f"unknown filter attribute '@{p[2]}', expecting '@consume'")
    level = 1
    if len(p) == 6:
        try:
            level = int(p[4])
        except ValueError:
            fail(p, 4, "the @consume level must be an integer")
    p[0] = level


def p_pattern_atom_observer(p):
    """pattern_atom : IDENT COLON observer_name LPAREN RPAREN
                    | IDENT COLON observer_name LPAREN cron_args RPAREN"""
    args = tuple(p[5]) if len(p) == 7 else ()
    p[0] = PatternObserver(p[1], p[3], args, span(p))


def p_observer_name(p):
    """observer_name : IDENT
                     | AT"""
    p[0] = p[1]


def p_pattern_atom_parens(p):
    "pattern_atom : LPAREN pattern RPAREN"
    p[0] = PatternParens(p[2], span(p))


def p_repeat_range(p):
    """repeat_range : LBRACK expr RBRACK
                    | LBRACK expr COLON expr RBRACK
                    | LBRACK COLON expr RBRACK
                    | LBRACK expr COLON RBRACK"""
    sp = span(p)
    if len(p) == 4:
        p[0] = RepeatRange(p[2], p[2], True, sp)
    elif len(p) == 6:
        p[0] = RepeatRange(p[2], p[4], False, sp)
    elif p[2] == ":":
        p[0] = RepeatRange(None, p[3], False, sp)
    else:
        p[0] = RepeatRange(p[2], None, False, sp)


# -- crontab parameters (`output at (...)`, `timer:at(...)`, context conditions) ---------------

def p_cron_args(p):
    """cron_args : cron_arg
                 | cron_args COMMA cron_arg"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


_CRON_WORDS = {"last": "last", "weekday": "weekday", "lastweekday": "lastweekday"}


def p_cron_arg_expr(p):
    "cron_arg : expr"
    e = p[1]
    if isinstance(e, Property) and len(e.path) == 1 and e.path[0].index is None \
            and e.path[0].key is None and e.path[0].name.lower() in _CRON_WORDS:
        p[0] = CronKeyword(_CRON_WORDS[e.path[0].name.lower()], None, span(p))
    else:
        p[0] = e


def p_cron_arg_star(p):
    "cron_arg : STAR"
    p[0] = Wildcard(span(p))


def p_cron_arg_frequency(p):
    "cron_arg : STAR SLASH cexpr"
    p[0] = CronFrequency(p[3], span(p))


def p_cron_arg_range(p):
    "cron_arg : NUMBER COLON NUMBER"
    p[0] = CronRange(number(p[1], span(p, 1)), number(p[3], span(p, 3)), span(p))


def p_cron_arg_keyword(p):
    """cron_arg : expr LAST
                | expr WEEKDAY"""
    p[0] = CronKeyword(p[2].lower(), p[1], span(p))


def p_cron_arg_list(p):
    "cron_arg : LBRACK cron_args RBRACK"
    p[0] = ArrayLiteral(tuple(p[2]), span(p))


def p_cron_arg_named(p):
    "cron_arg : IDENT COLON expr"
    p[0] = NamedArg(p[1], p[3], span(p))
