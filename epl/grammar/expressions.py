"""Grammar of expressions: the logical/comparison layer `expr` (operators resolved by the
precedence table), the arithmetic layer `cexpr` (what `between` bounds and `like` patterns
accept), postfix chains, literals, calls, case, time periods and subquery forms."""
from __future__ import annotations

from ..ast import (
    ArrayLiteral, Between, ExprTuple, BinOp, BinaryOp, Call, Case, Cast, Dot, Exists, InList, InRange,
    InSubquery, InstanceOf, IsNull, Lambda, Like, Literal, LiteralKind, NamedArg, NewMap, Parens, PropSeg,
    Property, Quantified, Quantifier, Regexp, SelectStatement, StreamWildcard, Subquery,
    TableAccess, TimePeriod, TimeUnit, UnOp, UnaryOp, Wildcard,
)
from ..lexer import tokens  # noqa: F401  (PLY reads the token list from the grammar)
from ._support import fail, number, prop, simple_name, span, string

# Lowest precedence first. Esper: or, and, bitwise, not, equality, relational (with in,
# between, like, regexp), concatenation, additive, multiplicative, unary.
precedence = (
    ("left", "OR"),
    ("left", "AND"),
    ("left", "BOR", "BXOR", "BAND"),
    ("right", "NOT"),
    ("left", "EQ", "NE", "IS"),
    ("left", "LT", "GT", "LE", "GE", "IN", "NOTX", "BETWEEN", "LIKE", "REGEXP"),
    ("left", "CONCAT"),
    ("left", "PLUS", "MINUS"),
    ("left", "STAR", "SLASH", "PERCENT"),
    ("right", "UMINUS"),
)

_BINOPS = {
    "or": BinOp.OR, "and": BinOp.AND, "|": BinOp.BOR, "^": BinOp.BXOR, "&": BinOp.BAND,
    "=": BinOp.EQ, "!=": BinOp.NE, "<>": BinOp.NE, "<": BinOp.LT, ">": BinOp.GT,
    "<=": BinOp.LE, ">=": BinOp.GE, "||": BinOp.CONCAT, "+": BinOp.ADD, "-": BinOp.SUB,
    "*": BinOp.MUL, "/": BinOp.DIV, "%": BinOp.MOD,
}

_UNITS = {
    "TP_YEAR": TimeUnit.YEAR, "TP_MONTH": TimeUnit.MONTH, "TP_WEEK": TimeUnit.WEEK,
    "TP_DAY": TimeUnit.DAY, "TP_HOUR": TimeUnit.HOUR, "TP_MINUTE": TimeUnit.MINUTE,
    "MIN": TimeUnit.MINUTE, "TP_SEC": TimeUnit.SECOND, "TP_MSEC": TimeUnit.MILLISECOND,
    "TP_USEC": TimeUnit.MICROSECOND,
}


def _binary(p):
    p[0] = BinaryOp(_BINOPS[p[2].lower()], p[1], p[3], span(p))


# -- logical / comparison layer -------------------------------------------------------------

def p_expr_cexpr(p):
    "expr : cexpr"
    p[0] = p[1]


def p_expr_or(p):
    "expr : expr OR expr"
    _binary(p)


def p_expr_and(p):
    "expr : expr AND expr"
    _binary(p)


def p_expr_bitwise(p):
    """expr : expr BOR expr
            | expr BXOR expr
            | expr BAND expr"""
    _binary(p)


def p_expr_not(p):
    "expr : NOT expr"
    p[0] = UnaryOp(UnOp.NOT, p[2], span(p))


def p_expr_compare(p):
    """expr : expr EQ expr
            | expr NE expr
            | expr LT expr
            | expr GT expr
            | expr LE expr
            | expr GE expr"""
    _binary(p)


def p_expr_is(p):
    "expr : expr IS expr"
    # `a is not b` arrives as `a is (not b)`: the grammar cannot tell them apart without a
    # second token of lookahead, the tree can (Parens marks a written parenthesis).
    left, right, sp = p[1], p[3], span(p)
    negated = isinstance(right, UnaryOp) and right.op is UnOp.NOT
    if negated:
        right = right.operand
    if isinstance(right, Literal) and right.kind is LiteralKind.NULL:
        p[0] = IsNull(left, negated, sp)
    else:
        p[0] = BinaryOp(BinOp.IS_NOT if negated else BinOp.IS, left, right, sp)


def p_in_op(p):
    """in_op : IN
             | NOTX IN"""
    p[0] = len(p) == 3


def p_expr_in_list(p):
    "expr : expr in_op LPAREN expr_list RPAREN"
    p[0] = InList(p[1], tuple(p[4]), p[2], span(p))


def p_expr_in_range(p):
    """expr : expr in_op LPAREN expr COLON expr RPAREN
            | expr in_op LPAREN expr COLON expr RBRACK
            | expr in_op LBRACK expr COLON expr RPAREN
            | expr in_op LBRACK expr COLON expr RBRACK"""
    p[0] = InRange(p[1], p[4], p[6], p[3] == "[", p[7] == "]", p[2], span(p))


def p_expr_in_subquery(p):
    "expr : expr in_op subquery"
    p[0] = InSubquery(p[1], p[3], p[2], span(p))


def p_expr_between(p):
    """expr : expr BETWEEN cexpr AND cexpr
            | expr NOTX BETWEEN cexpr AND cexpr"""
    if len(p) == 6:
        p[0] = Between(p[1], p[3], p[5], False, span(p))
    else:
        p[0] = Between(p[1], p[4], p[6], True, span(p))


def p_expr_like(p):
    """expr : expr LIKE cexpr
            | expr NOTX LIKE cexpr"""
    negated = len(p) == 5
    p[0] = Like(p[1], p[len(p) - 1], None, negated, span(p))


def p_expr_like_escape(p):
    """expr : expr LIKE cexpr ESCAPE cexpr
            | expr NOTX LIKE cexpr ESCAPE cexpr"""
    negated = len(p) == 7
    p[0] = Like(p[1], p[len(p) - 3], p[len(p) - 1], negated, span(p))


def p_expr_regexp(p):
    """expr : expr REGEXP cexpr
            | expr NOTX REGEXP cexpr"""
    negated = len(p) == 5
    p[0] = Regexp(p[1], p[len(p) - 1], negated, span(p))


def p_quant_op(p):
    """quant_op : EQ
                | NE
                | LT
                | GT
                | LE
                | GE"""
    p[0] = _BINOPS[p[1]]


def p_quantifier(p):
    """quantifier : ANY
                  | SOME
                  | ALL"""
    p[0] = Quantifier(p[1].lower())


def p_expr_quantified_subquery(p):
    "expr : expr quant_op quantifier subquery"
    p[0] = Quantified(p[1], p[2], p[3], p[4], span(p))


def p_expr_quantified_list(p):
    """expr : expr quant_op quantifier LPAREN expr_list RPAREN
            | expr quant_op quantifier LPAREN RPAREN"""
    items = tuple(p[5]) if len(p) == 7 else ()
    p[0] = Quantified(p[1], p[2], p[3], items, span(p))


def p_expr_list(p):
    """expr_list : expr
                 | expr_list COMMA expr"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


# -- arithmetic layer -------------------------------------------------------------------------

def p_cexpr_binary(p):
    """cexpr : cexpr CONCAT cexpr
             | cexpr PLUS cexpr
             | cexpr MINUS cexpr
             | cexpr STAR cexpr
             | cexpr SLASH cexpr
             | cexpr PERCENT cexpr"""
    _binary(p)


def p_cexpr_unary(p):
    """cexpr : MINUS cexpr %prec UMINUS
             | PLUS cexpr %prec UMINUS
             | BNOT cexpr %prec UMINUS"""
    operand = p[2]
    # `-1` is a negative literal, as in Esper's grammar where the sign belongs to the constant
    if p[1] == "-" and isinstance(operand, Literal) and operand.kind in _NUMERIC \
            and operand.value >= 0:
        p[0] = Literal(-operand.value, operand.kind, span(p))
        return
    op = {"-": UnOp.NEG, "+": UnOp.POS, "~": UnOp.BNOT}[p[1]]
    p[0] = UnaryOp(op, operand, span(p))


_NUMERIC = (LiteralKind.INT, LiteralKind.LONG, LiteralKind.DOUBLE, LiteralKind.FLOAT)


def p_cexpr_postfix(p):
    """cexpr : postfix
             | time_period"""
    p[0] = p[1]


# -- time periods -----------------------------------------------------------------------------

def p_time_period(p):
    """time_period : time_part
                   | time_period time_part"""
    if len(p) == 2:
        p[0] = TimePeriod((p[1],), span(p))
    else:
        p[0] = TimePeriod(p[1].parts + (p[2],), span(p))


def p_time_part_number(p):
    "time_part : NUMBER time_unit"
    p[0] = (number(p[1], span(p, 1)), p[2])


def p_time_part_ident(p):
    "time_part : IDENT time_unit"
    p[0] = (prop(p[1], span(p, 1)), p[2])


def p_time_unit(p):
    """time_unit : TP_YEAR
                 | TP_MONTH
                 | TP_WEEK
                 | TP_DAY
                 | TP_HOUR
                 | TP_MINUTE
                 | MIN
                 | TP_SEC
                 | TP_MSEC
                 | TP_USEC"""
    p[0] = _UNITS[p.slice[1].type]


# -- names ------------------------------------------------------------------------------------

def p_name(p):
    """name : IDENT
            | AT
            | CONTEXT
            | ESCAPE
            | EVENTS
            | EVERY
            | FIRST
            | FULL
            | JOIN
            | LAST
            | LASTWEEKDAY
            | LEFT
            | MATCHED
            | MERGE
            | MIN
            | OUTER
            | PARTITION
            | PATTERN
            | RIGHT
            | SCHEMA
            | SNAPSHOT
            | TABLE
            | UNIDIRECTIONAL
            | UNTIL
            | VARIABLE
            | WEEKDAY
            | WHILE
            | WINDOW"""
    p[0] = p[1]


# -- postfix chains ---------------------------------------------------------------------------

def p_postfix_primary(p):
    "postfix : primary"
    p[0] = p[1]


def p_postfix_name(p):
    "postfix : name"
    p[0] = prop(p[1], span(p))


def p_postfix_indexed(p):
    "postfix : name LBRACK expr_list RBRACK"
    keys = p[3]
    if len(keys) == 1 and isinstance(keys[0], Literal) and keys[0].kind is LiteralKind.INT:
        p[0] = prop(p[1], span(p), index=keys[0].value)
    else:
        # `Table[key, ...]`: table access by primary key
        p[0] = TableAccess(p[1], tuple(keys), None, span(p))


def p_postfix_call_empty(p):
    "postfix : name LPAREN RPAREN"
    p[0] = Call(p[1], (), False, span(p))


def p_postfix_call(p):
    "postfix : name LPAREN call_args RPAREN"
    p[0] = _call(p, p[1], tuple(p[3]), False)


def p_postfix_grouping_call(p):
    """postfix : GROUPING LPAREN call_args RPAREN
               | GROUPING_ID LPAREN call_args RPAREN"""
    p[0] = Call(p[1].lower(), tuple(p[3]), False, span(p))


def p_postfix_call_distinct(p):
    """postfix : name LPAREN DISTINCT call_args RPAREN
               | name LPAREN ALL call_args RPAREN"""
    distinct = p[3].lower() == "distinct"
    p[0] = Call(p[1], tuple(p[4]), distinct, span(p))


def p_postfix_cast_as(p):
    "postfix : name LPAREN expr AS type_ref RPAREN"
    if p[1].lower() != "cast":
        fail(p, 4, "please check the function call, 'as' is only allowed in cast(value as type)")
    p[0] = Cast(p[3], p[5].name + ("[]" if p[5].array else ""), span(p))


def p_dot_name(p):
    """dot_name : name
                | AFTER
                | BETWEEN
                | WHERE
                | SET"""
    # after a dot Esper also accepts these keywords: `a.after(b)` (interval algebra)
    p[0] = p[1]


def p_postfix_dot(p):
    "postfix : postfix DOT dot_name"
    target = p[1]
    if isinstance(target, Property):
        p[0] = Property(target.path + (PropSeg(p[3]),), span(p))
    elif isinstance(target, TableAccess) and target.column is None:
        p[0] = TableAccess(target.table, target.keys, p[3], span(p))
    else:
        p[0] = Dot(target, p[3], None, span(p))


def p_postfix_dynamic(p):
    "postfix : postfix QUESTION"
    # `item?`, `a.b?`, `arr[0]?`, `m('k')?`: the last segment is a dynamic property
    target = p[1]
    if not isinstance(target, Property):
        fail(p, 2, "please check the expression, '?' marks a dynamic property")
    last = target.path[-1]
    seg = PropSeg(last.name, last.index, last.key, dynamic=True)
    p[0] = Property(target.path[:-1] + (seg,), span(p))


def p_primary_exists_value(p):
    "primary : EXISTS LPAREN expr RPAREN"
    p[0] = Call("exists", (p[3],), False, span(p))


def p_postfix_dot_indexed(p):
    "postfix : postfix DOT dot_name LBRACK NUMBER RBRACK"
    if not isinstance(p[1], Property):
        fail(p, 4, "please check the expression, an index is only allowed on a property")
    p[0] = Property(p[1].path + (PropSeg(p[3], _index(p, 5)),), span(p))


def p_postfix_dot_call_empty(p):
    "postfix : postfix DOT dot_name LPAREN RPAREN"
    p[0] = Dot(p[1], p[3], (), span(p))


def p_postfix_dot_call(p):
    "postfix : postfix DOT dot_name LPAREN call_args RPAREN"
    p[0] = Dot(p[1], p[3], tuple(p[5]), span(p))


def _index(p, i):
    lit = number(p[i], span(p, i))
    if lit.kind is not LiteralKind.INT:
        fail(p, i, "please check the expression, an index must be an integer")
    return lit.value


def _call(p, name, args, distinct):
    sp = span(p)
    low = name.lower()
    if low == "cast" and len(args) == 2 and simple_name(args[1]):
        return Cast(args[0], simple_name(args[1]), sp)
    if low == "cast" and len(args) == 3 and simple_name(args[1]) and \
            isinstance(args[2], NamedArg) and args[2].name.lower() == "dateformat":
        # `cast(s, long dateformat: 'yyyy-MM-dd')`
        return Cast(args[0], simple_name(args[1]), sp, args[2].value)
    if low == "instanceof" and len(args) >= 2 and all(simple_name(a) for a in args[1:]):
        return InstanceOf(args[0], tuple(simple_name(a) for a in args[1:]), sp)
    if len(args) == 1 and isinstance(args[0], Literal) and args[0].kind is LiteralKind.STRING:
        # `m('key')`: Esper's mapped-property syntax (the compiler falls back to a function)
        return prop(name, sp, key=args[0].value)
    return Call(name, args, distinct, sp)


def p_call_args(p):
    """call_args : call_arg
                 | call_args COMMA call_arg"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_call_arg_expr(p):
    "call_arg : expr"
    p[0] = p[1]


def p_call_arg_star(p):
    "call_arg : STAR"
    p[0] = Wildcard(span(p))


def p_call_arg_lambda(p):
    "call_arg : lambda_expr"
    p[0] = p[1]


# -- lambdas: only as method arguments and declared-expression bodies ---------------------------
# Esper writes the lambda operator `=>` and also accepts `->` there.

def p_lambda_one(p):
    """lambda_expr : expr GOES expr
                   | expr ARROW expr"""
    p[0] = Lambda((_lambda_param(p, 1, p[1]),), p[3], span(p))


def p_lambda_several(p):
    """lambda_expr : LPAREN expr COMMA expr_list RPAREN GOES expr
                   | LPAREN expr COMMA expr_list RPAREN ARROW expr"""
    names = [_lambda_param(p, 2, p[2])] + [_lambda_param(p, 4, e) for e in p[4]]
    if len(set(names)) != len(names):
        fail(p, 6, "please check the lambda expression, its parameter names must differ")
    p[0] = Lambda(tuple(names), p[7], span(p))


def p_lambda_none(p):
    """lambda_expr : LPAREN RPAREN GOES expr
                   | LPAREN RPAREN ARROW expr"""
    p[0] = Lambda((), p[4], span(p))


def _lambda_param(p, i, e):
    """A lambda parameter is a plain name (`v`, or `(v)` when alone)."""
    if isinstance(e, Parens):
        e = e.inner
    name = simple_name(e) if isinstance(e, Property) and len(e.path) == 1 else None
    if not name:
        fail(p, i, "please check the lambda expression, a parameter must be a name")
    return name


def p_call_arg_named(p):
    "call_arg : IDENT COLON expr"
    p[0] = NamedArg(p[1], p[3], span(p))


def p_call_arg_named_tuple(p):
    """call_arg : IDENT COLON LPAREN RPAREN
                | IDENT COLON LPAREN expr COMMA expr_list RPAREN"""
    items = () if len(p) == 5 else (p[4],) + tuple(p[6])
    p[0] = NamedArg(p[1], ExprTuple(items, span(p, 3)), span(p))


def p_call_arg_stream_wildcard(p):
    "call_arg : postfix DOT STAR"
    p[0] = stream_wildcard(p)


def stream_wildcard(p):
    target = p[1]
    if not (isinstance(target, Property) and len(target.path) == 1 and simple_name(target)):
        fail(p, 3, "please check the expression, '.*' follows a stream name")
    return StreamWildcard(target.path[0].name, span(p, 1, 3))


# -- primaries --------------------------------------------------------------------------------

def p_primary_number(p):
    "primary : NUMBER"
    p[0] = number(p[1], span(p))


def p_primary_string(p):
    "primary : STRING"
    p[0] = string(p[1], span(p))


def p_primary_bool(p):
    """primary : TRUE
               | FALSE"""
    p[0] = Literal(p[1].lower() == "true", LiteralKind.BOOLEAN, span(p))


def p_primary_null(p):
    "primary : NULL"
    p[0] = Literal(None, LiteralKind.NULL, span(p))


def p_primary_parens(p):
    "primary : LPAREN expr RPAREN"
    p[0] = Parens(p[2], span(p))


def p_primary_subquery(p):
    "primary : subquery"
    p[0] = p[1]


def p_primary_exists(p):
    "primary : EXISTS subquery"
    p[0] = Exists(p[2], span(p))


def p_primary_array(p):
    """primary : LBRACE RBRACE
               | LBRACE expr_list RBRACE"""
    p[0] = ArrayLiteral(tuple(p[2]) if len(p) == 4 else (), span(p))


def p_primary_json_object(p):
    "primary : LBRACE json_pairs RBRACE"
    # `{epsOfTotalCount: 0.001, topk: 10}`: Esper's JSON-style parameter object, a map
    p[0] = NewMap(tuple(p[2]), span(p))


def p_json_pairs(p):
    """json_pairs : json_pair
                  | json_pairs COMMA json_pair"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_json_pair(p):
    """json_pair : IDENT COLON expr
                 | STRING COLON expr"""
    key = p[1]
    if p.slice[1].type == "STRING":
        key = key[1:-1]
    p[0] = (key, p[3])


def p_primary_current_timestamp(p):
    """primary : CURRENT_TIMESTAMP
               | CURRENT_TIMESTAMP LPAREN RPAREN"""
    p[0] = Call("current_timestamp", (), False, span(p))


def p_primary_new_map(p):
    "primary : NEW LBRACE new_items RBRACE"
    p[0] = NewMap(tuple(p[3]), span(p))


def p_new_items(p):
    """new_items : new_item
                 | new_items COMMA new_item"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_new_item(p):
    "new_item : name EQ expr"
    p[0] = (p[1], p[3])


def p_new_item_property(p):
    "new_item : name"
    # `new { theString }`: the property under its own name
    p[0] = (p[1], prop(p[1], span(p)))


def p_primary_case(p):
    """primary : CASE case_whens END
               | CASE case_whens ELSE expr END"""
    otherwise = p[4] if len(p) == 6 else None
    p[0] = Case(None, tuple(p[2]), otherwise, span(p))


def p_primary_case_operand(p):
    """primary : CASE expr case_whens END
               | CASE expr case_whens ELSE expr END"""
    otherwise = p[5] if len(p) == 7 else None
    p[0] = Case(p[2], tuple(p[3]), otherwise, span(p))


def p_case_whens(p):
    """case_whens : case_when
                  | case_whens case_when"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[2]]


def p_case_when(p):
    "case_when : WHEN expr THEN expr"
    p[0] = (p[2], p[4])


def p_subquery(p):
    """subquery : LPAREN SELECT select_spec FROM from_clause where_opt group_opt having_opt RPAREN"""
    sel = SelectStatement(p[3], p[5], p[6], p[7], p[8], span=span(p, 2, 8))
    p[0] = Subquery(sel, span(p))


