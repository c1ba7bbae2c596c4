"""Grammar of the select statement: insert-into, select list, from clause with streams,
views and joins, where, group by (rollup, cube, grouping sets), having, order by, limit."""
from __future__ import annotations

import re

from ..ast import (
    BinOp, BinaryOp, EventFilter, FilterStream, ForClause, FromClause, GroupingSet, InsertInto, JoinKind,
    Limit, OrderItem, OuterJoin, Parens, PatternStream, SelectClause, SelectItem,
    SelectStatement, Span, StreamSelector, ViewSpec, Wildcard,
)
from ..lexer import tokens  # noqa: F401
from ._support import fail, span
from .expressions import stream_wildcard


def p_select_stmt(p):
    """select_stmt : select_head FROM from_clause where_opt group_opt having_opt output_opt order_opt limit_opt
                   | select_head FROM from_clause where_opt group_opt having_opt output_opt order_opt limit_opt for_clause"""
    p[0] = SelectStatement(p[1], p[3], p[4], p[5], p[6], p[7], p[8], p[9], span=span(p),
                           for_clause=p[10] if len(p) > 10 else None)


def p_select_stmt_into_table(p):
    """select_stmt : INTO TABLE IDENT select_head FROM from_clause where_opt group_opt having_opt output_opt order_opt limit_opt"""
    p[0] = SelectStatement(p[4], p[6], p[7], p[8], p[9], p[10], p[11], p[12], into_table=p[3],
                           span=span(p))


def p_select_stmt_insert(p):
    """select_stmt : insert_clause select_head FROM from_clause where_opt group_opt having_opt output_opt order_opt limit_opt
                   | insert_clause select_head FROM from_clause where_opt group_opt having_opt output_opt order_opt limit_opt for_clause"""
    p[0] = SelectStatement(p[2], p[4], p[5], p[6], p[7], p[8], p[9], p[10], insert_into=p[1],
                           span=span(p), for_clause=p[11] if len(p) > 11 else None)


def p_for_clause(p):
    """for_clause : FOR IDENT
                  | FOR IDENT LPAREN RPAREN
                  | FOR IDENT LPAREN expr_list RPAREN"""
    kind = p[2].lower()
    exprs = tuple(p[4]) if len(p) == 6 else ()
    if kind == "discrete_delivery" and exprs:
        fail(p, 2, "please check the for-clause, 'discrete_delivery' takes no expressions")
    if kind == "grouped_delivery" and not exprs:
        fail(p, 2, "please check the for-clause, 'grouped_delivery' requires one or more "
                   "expressions")
    p[0] = ForClause(kind, exprs, span(p))


def p_empty(p):
    "empty :"
    p[0] = None


# -- insert into / select list ----------------------------------------------------------------

def p_insert_clause(p):
    """insert_clause : INSERT INTO type_name columns_opt
                     | INSERT selector INTO type_name columns_opt"""
    if len(p) == 5:
        p[0] = InsertInto(p[3], p[4], None, span(p))
    else:
        p[0] = InsertInto(p[4], p[5], p[2], span(p))


def p_columns_opt(p):
    """columns_opt : empty
                   | LPAREN name_list RPAREN"""
    p[0] = tuple(p[2]) if len(p) == 4 else ()


def p_name_list(p):
    """name_list : name
                 | name_list COMMA name"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_selector(p):
    """selector : ISTREAM
                | IRSTREAM
                | RSTREAM"""
    p[0] = StreamSelector(p[1].lower())


def p_select_head(p):
    "select_head : SELECT select_spec"
    p[0] = p[2]


def p_select_spec(p):
    """select_spec : select_items
                   | DISTINCT select_items
                   | selector select_items
                   | selector DISTINCT select_items"""
    selector = p[1] if isinstance(p[1], StreamSelector) else None
    distinct = any(isinstance(x, str) and x.lower() == "distinct" for x in p[1:len(p) - 1])
    p[0] = SelectClause(tuple(p[len(p) - 1]), selector, distinct, span(p))


def p_select_items(p):
    """select_items : select_item
                    | select_items COMMA select_item"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_select_item_star(p):
    "select_item : STAR"
    p[0] = SelectItem(Wildcard(span(p)), None, span(p))


def p_select_item_stream_wildcard(p):
    """select_item : postfix DOT STAR
                   | postfix DOT STAR AS name"""
    p[0] = SelectItem(stream_wildcard(p), p[5] if len(p) == 6 else None, span(p))


def p_select_item_expr(p):
    """select_item : expr
                   | expr AS name"""
    p[0] = SelectItem(p[1], p[3] if len(p) == 4 else None, span(p))


def p_select_item_event_bean(p):
    """select_item : expr ATSIGN IDENT
                   | expr ATSIGN IDENT AS name"""
    # Esper's `@eventbean` keeps a collection of events typed as events for insert into;
    # here collections of events are events already, the marker is kept for printing
    if p[3].lower() != "eventbean":
        fail(p, 3, "please check the select clause, expecting '@eventbean'")
    p[0] = SelectItem(p[1], p[5] if len(p) == 6 else None, span(p), True)


# -- from clause --------------------------------------------------------------------------------

def p_from_clause_list(p):
    "from_clause : stream_list"
    p[0] = FromClause(tuple(p[1]), (), span(p))


def p_from_clause_match_recognize(p):
    "from_clause : stream_list match_recognize"
    # several streams parse so that the compiler can say joins are not allowed
    p[0] = FromClause(tuple(p[1]), (), span(p), p[2])


def p_from_clause_joins(p):
    "from_clause : stream join_list"
    streams = (p[1],) + tuple(s for s, _ in p[2])
    p[0] = FromClause(streams, tuple(j for _, j in p[2]), span(p))


def p_stream_list(p):
    """stream_list : stream
                   | stream_list COMMA stream"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_join_list(p):
    """join_list : join
                 | join_list join"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[2]]


def p_join(p):
    """join : join_kind JOIN stream
            | join_kind JOIN stream ON expr"""
    on = p[5] if len(p) == 6 else None
    p[0] = (p[3], OuterJoin(p[1], on, span(p)))


def p_join_kind(p):
    """join_kind : empty
                 | INNER
                 | LEFT OUTER
                 | RIGHT OUTER
                 | FULL OUTER"""
    word = (p[1] or "inner").lower()
    p[0] = {"inner": JoinKind.INNER, "left": JoinKind.LEFT, "right": JoinKind.RIGHT,
            "full": JoinKind.FULL}[word]


def p_stream(p):
    """stream : filter_stream
              | pattern_stream"""
    p[0] = p[1]


def p_filter_stream(p):
    "filter_stream : event_filter views_opt alias_opt stream_flags"
    flags = p[4]
    p[0] = FilterStream(p[1], p[2], p[3], "unidirectional" in flags, "retain-union" in flags,
                        "retain-intersection" in flags, span(p))


def p_filter_stream_contained(p):
    "filter_stream : event_filter LBRACK contained_path RBRACK views_opt alias_opt stream_flags"
    # contained-event selection: `Order[items]` streams the events held in property `items`
    flags = p[7]
    p[0] = FilterStream(p[1], p[5], p[6], "unidirectional" in flags, "retain-union" in flags,
                        "retain-intersection" in flags, span(p), contained=p[3])


def p_contained_path(p):
    """contained_path : name
                      | contained_path DOT name"""
    p[0] = p[1] if len(p) == 2 else p[1] + "." + p[3]


def p_pattern_stream(p):
    """pattern_stream : PATTERN LBRACK pattern RBRACK views_opt alias_opt stream_flags
                      | PATTERN annotations LBRACK pattern RBRACK views_opt alias_opt stream_flags"""
    if len(p) == 8:
        anns, pat, views, alias, flags = (), p[3], p[5], p[6], p[7]
    else:
        anns, pat, views, alias, flags = tuple(p[2]), p[4], p[6], p[7], p[8]
    p[0] = PatternStream(pat, views, alias, "unidirectional" in flags, anns, span(p))


def p_stream_flags(p):
    """stream_flags : empty
                    | stream_flags UNIDIRECTIONAL
                    | stream_flags RETAIN_UNION
                    | stream_flags RETAIN_INTERSECTION"""
    p[0] = frozenset() if len(p) == 2 else p[1] | {p[2].lower()}


def p_alias_opt(p):
    """alias_opt : empty
                 | AS name
                 | IDENT"""
    p[0] = p[len(p) - 1]


def p_event_filter(p):
    """event_filter : type_name
                    | type_name LPAREN RPAREN
                    | type_name LPAREN expr_list RPAREN"""
    cond = None
    if len(p) == 5:
        # `Type(a, b)` means `a and b`
        cond = p[3][0]
        for e in p[3][1:]:
            cond = BinaryOp(BinOp.AND, cond, e, _join(cond.span, e.span))
    p[0] = EventFilter(p[1], cond, span(p))


def _join(a, b):
    return Span(a.line, a.column, a.start, b.end)


def p_type_name(p):
    """type_name : IDENT
                 | type_name DOT IDENT"""
    p[0] = p[1] if len(p) == 2 else p[1] + "." + p[3]


# -- views --------------------------------------------------------------------------------------

def p_views_opt(p):
    """views_opt : empty
                 | views"""
    p[0] = tuple(p[1]) if p[1] else ()


def p_views(p):
    """views : view
             | views view"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[2]]


_NS = re.compile(r"\.\s*(\w+)\s*:")


def p_view(p):
    """view : HASH name view_params
            | VIEWNS name view_params"""
    ns = None if p[1] == "#" else _NS.match(p[1]).group(1).lower()
    p[0] = ViewSpec(p[2], p[3], ns, span(p))


def p_view_params(p):
    """view_params : empty
                   | LPAREN RPAREN
                   | LPAREN view_args RPAREN"""
    p[0] = tuple(p[2]) if len(p) == 4 else ()


def p_view_args(p):
    """view_args : view_arg
                 | view_args COMMA view_arg"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_view_arg(p):
    """view_arg : call_arg
                | expr ASC"""
    p[0] = p[1]


def p_view_arg_desc(p):
    "view_arg : expr DESC"
    # sort criteria of `#sort(3, price desc)` and friends
    p[0] = OrderItem(p[1], True, span(p))


# -- where, group by, having, order by, limit --------------------------------------------------

def p_where_opt(p):
    """where_opt : empty
                 | WHERE expr"""
    p[0] = p[2] if len(p) == 3 else None


def p_having_opt(p):
    """having_opt : empty
                  | HAVING expr"""
    p[0] = p[2] if len(p) == 3 else None


def p_group_opt(p):
    """group_opt : empty
                 | GROUP BY group_items"""
    p[0] = tuple(p[3]) if len(p) == 4 else ()


def p_group_items(p):
    """group_items : group_item
                   | group_items COMMA group_item"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_group_item(p):
    """group_item : expr
                  | rollup_cube
                  | GROUPING SETS LPAREN sets_items RPAREN"""
    p[0] = p[1] if len(p) == 2 else GroupingSet("sets", tuple(p[4]), span(p))


def p_rollup_cube(p):
    """rollup_cube : ROLLUP LPAREN combinable_items RPAREN
                   | CUBE LPAREN combinable_items RPAREN"""
    p[0] = GroupingSet(p[1].lower(), tuple(p[3]), span(p))


def p_sets_items(p):
    """sets_items : sets_item
                  | sets_items COMMA sets_item"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_sets_item(p):
    """sets_item : combinable
                 | rollup_cube"""
    p[0] = p[1]


def p_combinable_items(p):
    """combinable_items : combinable
                        | combinable_items COMMA combinable"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_combinable_expr(p):
    "combinable : expr"
    # `(a)` inside rollup/cube/grouping sets is a combination of one expression
    p[0] = (p[1].inner,) if isinstance(p[1], Parens) else p[1]


def p_combinable_tuple(p):
    """combinable : LPAREN RPAREN
                  | LPAREN expr COMMA expr_list RPAREN"""
    p[0] = () if len(p) == 3 else (p[2],) + tuple(p[4])


def p_order_opt(p):
    """order_opt : empty
                 | ORDER BY order_items"""
    p[0] = tuple(p[3]) if len(p) == 4 else ()


def p_order_items(p):
    """order_items : order_item
                   | order_items COMMA order_item"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_order_item(p):
    """order_item : expr
                  | expr ASC
                  | expr DESC"""
    p[0] = OrderItem(p[1], len(p) == 3 and p[2].lower() == "desc", span(p))


def p_limit_opt(p):
    """limit_opt : empty
                 | LIMIT expr
                 | LIMIT expr OFFSET expr
                 | LIMIT expr COMMA expr"""
    if len(p) == 2:
        p[0] = None
    elif len(p) == 3:
        p[0] = Limit(p[2], None, False, span(p))
    elif p[3] == ",":
        p[0] = Limit(p[4], p[2], True, span(p))
    else:
        p[0] = Limit(p[2], p[4], False, span(p))
