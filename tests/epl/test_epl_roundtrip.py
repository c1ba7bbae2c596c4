"""Random expression and pattern trees print to EPL that parses back to the same tree
(up to the parentheses the printer had to add)."""
from __future__ import annotations

import string

from hypothesis import given, settings, strategies as st

from epl import ast as A
from epl import parse, parse_expression, to_epl
from epl.lexer import RESERVED

from epl_tree_utils import strip_parens

WORDS = ["a", "b", "price", "Sym", "x_1", "$v", "last", "count", "window", "min", "select",
         "from", "after", "my field", "Ünïcode", "back`tick"]
names = st.sampled_from(WORDS)
plain_names = st.sampled_from(["a", "b", "price", "k"])

ints = st.integers(min_value=0, max_value=2 ** 31 - 1).map(lambda v: A.Literal(v, A.LiteralKind.INT))
negs = st.integers(min_value=-1000, max_value=-1).map(lambda v: A.Literal(v, A.LiteralKind.INT))
longs = st.integers(min_value=0, max_value=2 ** 62).map(lambda v: A.Literal(v, A.LiteralKind.LONG))
doubles = st.floats(min_value=0, max_value=1e12, allow_nan=False, allow_infinity=False).map(
    lambda v: A.Literal(v, A.LiteralKind.DOUBLE))
floats_ = st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False,
                    width=32).map(lambda v: A.Literal(v, A.LiteralKind.FLOAT))
strings = st.text(alphabet=string.printable + "é€'\"\\", max_size=8).map(
    lambda v: A.Literal(v, A.LiteralKind.STRING))
constants = st.sampled_from([A.Literal(True, A.LiteralKind.BOOLEAN),
                             A.Literal(False, A.LiteralKind.BOOLEAN),
                             A.Literal(None, A.LiteralKind.NULL)])
literals = st.one_of(ints, negs, longs, doubles, floats_, strings, constants)


@st.composite
def properties(draw):
    first = A.PropSeg(draw(names))
    kind = draw(st.sampled_from(["plain", "index", "key"]))
    if kind == "index":
        first = A.PropSeg(first.name, index=draw(st.integers(0, 99)))
    elif kind == "key":
        first = A.PropSeg(first.name, key=draw(st.text(string.ascii_letters + "' ", max_size=4)))
    rest = draw(st.lists(st.builds(A.PropSeg, names, st.one_of(st.none(), st.integers(0, 9))),
                         max_size=2))
    return A.Property((first, *rest))


units = st.sampled_from(list(A.TimeUnit))
time_periods = st.lists(st.tuples(st.one_of(ints, doubles, plain_names.map(
    lambda n: A.Property((A.PropSeg(n),)))), units), min_size=1, max_size=3).map(
    lambda parts: A.TimePeriod(tuple(parts)))

leaves = st.one_of(literals, properties(), time_periods)

ARITH = [A.BinOp.ADD, A.BinOp.SUB, A.BinOp.MUL, A.BinOp.DIV, A.BinOp.MOD, A.BinOp.CONCAT]
LOGIC = [A.BinOp.OR, A.BinOp.AND, A.BinOp.BOR, A.BinOp.BXOR, A.BinOp.BAND, A.BinOp.EQ,
         A.BinOp.NE, A.BinOp.LT, A.BinOp.GT, A.BinOp.LE, A.BinOp.GE, A.BinOp.IS, A.BinOp.IS_NOT]
COMPARE = [A.BinOp.EQ, A.BinOp.NE, A.BinOp.LT, A.BinOp.GT, A.BinOp.LE, A.BinOp.GE]


def _not_special_call(c: A.Call) -> bool:
    low = c.name.lower()
    if low in ("cast", "instanceof", "current_timestamp"):
        return False
    # `f('x')` is the mapped-property syntax
    return not (len(c.args) == 1 and isinstance(c.args[0], A.Literal)
                and c.args[0].kind is A.LiteralKind.STRING)


def extend(children):
    args = st.lists(children, max_size=3).map(tuple)
    call_args = st.lists(st.one_of(children, st.just(A.Wildcard()),
                                   st.builds(A.NamedArg, plain_names, children)), max_size=3).map(tuple)
    return st.one_of(
        st.builds(A.BinaryOp, st.sampled_from(ARITH + LOGIC), children, children),
        st.builds(A.UnaryOp, st.sampled_from(list(A.UnOp)), children),
        st.builds(A.Parens, children),
        st.builds(A.Between, children, children, children, st.booleans()),
        st.builds(A.InList, children, args.filter(bool), st.booleans()),
        st.builds(A.InRange, children, children, children, st.booleans(), st.booleans(), st.booleans()),
        st.builds(A.Like, children, children, st.one_of(st.none(), children), st.booleans()),
        st.builds(A.Regexp, children, children, st.booleans()),
        st.builds(A.IsNull, children, st.booleans()),
        st.builds(A.Case, st.one_of(st.none(), children),
                  st.lists(st.tuples(children, children), min_size=1, max_size=2).map(tuple),
                  st.one_of(st.none(), children)),
        st.builds(A.Call, names, call_args, st.just(False)).filter(_not_special_call),
        st.builds(A.Call, names, call_args.filter(bool), st.just(True)),
        st.builds(A.Dot, st.builds(A.Call, plain_names, args).filter(_not_special_call), names,
                  st.one_of(st.none(), args)),
        st.builds(A.Dot, properties(), names, args),
        st.builds(A.Cast, children, st.sampled_from(["int", "java.lang.String", "long"])),
        st.builds(A.InstanceOf, children, st.lists(st.sampled_from(["A", "b.C"]), min_size=1,
                                                   max_size=2).map(tuple)),
        st.builds(A.ArrayLiteral, args),
        st.builds(A.Quantified, children, st.sampled_from(COMPARE),
                  st.sampled_from(list(A.Quantifier)), args),
    )


expressions = st.recursive(leaves, extend, max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(expressions)
def test_expression_round_trip(tree):
    text = to_epl(tree)
    back = parse_expression(text)
    assert strip_parens(back) == strip_parens(tree), text
    # parsed trees (with their parentheses) print back to themselves exactly
    assert parse_expression(to_epl(back)) == back
    assert to_epl(parse_expression(to_epl(back))) == to_epl(back)


filters = st.builds(A.EventFilter, st.sampled_from(["A", "B", "com.x.C"]),
                    st.one_of(st.none(), expressions))
pattern_leaves = st.one_of(
    st.builds(A.PatternFilter, filters, st.one_of(st.none(), st.sampled_from(["a", "b"]))),
    st.builds(A.PatternObserver, st.just("timer"), st.just("interval"), time_periods.map(lambda t: (t,))),
)
ranges = st.one_of(
    ints.map(lambda n: A.RepeatRange(n, n, True)),
    st.builds(A.RepeatRange, st.one_of(st.none(), ints), ints),
    st.builds(A.RepeatRange, ints, st.none()),
)


def extend_patterns(children):
    kids = st.lists(children, min_size=2, max_size=3).map(tuple)
    return st.one_of(
        kids.map(A.PatternFollowedBy),
        kids.flatmap(lambda c: st.lists(st.one_of(st.none(), ints), min_size=len(c) - 1,
                                        max_size=len(c) - 1).map(
            lambda lim: A.PatternFollowedBy(c, tuple(lim) if any(lim) else ()))),
        kids.map(A.PatternOr),
        kids.map(A.PatternAnd),
        st.builds(A.PatternNot, children),
        st.builds(A.PatternEvery, children),
        st.builds(A.PatternEveryDistinct, st.lists(properties(), min_size=1, max_size=2).map(tuple),
                  children, st.one_of(st.none(), time_periods)),
        st.builds(A.PatternRepeat, ranges, children),
        st.builds(A.PatternUntil, children, children, st.one_of(st.none(), ranges)),
        st.builds(A.PatternGuard, children, st.just("timer"), st.just("within"),
                  time_periods.map(lambda t: (t,))),
        st.builds(A.PatternWhile, children, expressions),
        st.builds(A.PatternParens, children),
    )


patterns = st.recursive(pattern_leaves, extend_patterns, max_leaves=6)


def _fold_followed_by(node):
    """`a -> (b -> c)` without its parentheses is `a -> b -> c`: one node."""
    import dataclasses
    if isinstance(node, tuple):
        return tuple(_fold_followed_by(x) for x in node)
    if not dataclasses.is_dataclass(node):
        return node
    node = dataclasses.replace(node, **{f.name: _fold_followed_by(getattr(node, f.name))
                                        for f in dataclasses.fields(node) if f.name != "span"})
    for kind in (A.PatternAnd, A.PatternOr):
        if isinstance(node, kind):
            flat = []
            for c in node.children:
                flat.extend(c.children if isinstance(c, kind) else [c])
            node = kind(tuple(flat))
    if isinstance(node, A.PatternFollowedBy):
        children, limits = [], []
        own = node.limits or (None,) * (len(node.children) - 1)
        for idx, c in enumerate(node.children):
            if idx:
                limits.append(own[idx - 1])
            if isinstance(c, A.PatternFollowedBy):
                children.extend(c.children)
                limits.extend(c.limits or (None,) * (len(c.children) - 1))
            else:
                children.append(c)
        node = A.PatternFollowedBy(tuple(children), tuple(limits) if any(x is not None for x in limits) else ())
    return node


@settings(max_examples=150, deadline=None)
@given(patterns)
def test_pattern_round_trip(tree):
    text = "select * from pattern [" + to_epl(tree) + "]"
    back = parse(text).from_.streams[0].pattern
    assert _fold_followed_by(strip_parens(back)) == _fold_followed_by(strip_parens(tree)), text
    again = parse("select * from pattern [" + to_epl(back) + "]").from_.streams[0].pattern
    assert again == back


def test_reserved_words_print_backquoted():
    for word in ("select", "from", "where", "Order"):
        prop = A.Property((A.PropSeg(word),))
        assert to_epl(prop) == f"`{word}`"
        assert parse_expression(to_epl(prop)) == prop
    assert "select" in RESERVED
