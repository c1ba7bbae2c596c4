"""Grammar of `create context`: keyed (`partition by`), hash (`coalesce by`), category
(`group by ... as label`), temporal (`start/end`, `initiated/terminated`) and nested."""
from __future__ import annotations

from dataclasses import replace

from ..ast import (
    CategoryContext, ContextCondition, CreateContext, HashContext, KeyedContext, KeyedItem,
    NestedContext, TemporalContext,
)
from ..lexer import tokens  # noqa: F401
from ._support import fail, number, span


def p_create_context(p):
    """create_context : CREATE CONTEXT IDENT context_spec
                      | CREATE CONTEXT IDENT AS context_spec"""
    p[0] = CreateContext(p[3], p[len(p) - 1], span=span(p))


def p_context_spec(p):
    """context_spec : keyed_context
                    | hash_context
                    | category_context
                    | temporal_context
                    | nested_context"""
    p[0] = p[1]


# -- nested -------------------------------------------------------------------------------------

def p_nested_context(p):
    """nested_context : CONTEXT IDENT nested_spec
                      | CONTEXT IDENT AS nested_spec
                      | nested_context NESTCOMMA CONTEXT IDENT nested_spec
                      | nested_context NESTCOMMA CONTEXT IDENT AS nested_spec"""
    if isinstance(p[1], NestedContext):
        p[0] = NestedContext(p[1].contexts + ((p[4], p[len(p) - 1]),), span(p))
    else:
        p[0] = NestedContext(((p[2], p[len(p) - 1]),), span(p))


def p_nested_spec(p):
    """nested_spec : keyed_context
                   | hash_context
                   | category_context
                   | temporal_context"""
    p[0] = p[1]


# -- keyed --------------------------------------------------------------------------------------

def p_keyed_context(p):
    """keyed_context : PARTITION BY keyed_items keyed_initiated keyed_terminated
                     | PARTITION keyed_items keyed_initiated keyed_terminated"""
    items, init, term = p[len(p) - 3], p[len(p) - 2], p[len(p) - 1]
    p[0] = KeyedContext(tuple(items), init, term, span(p))


def p_keyed_items(p):
    """keyed_items : keyed_item
                   | keyed_items COMMA keyed_item"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_keyed_item(p):
    """keyed_item : keyed_properties FROM event_filter
                  | keyed_properties FROM event_filter AS IDENT"""
    alias = p[5] if len(p) == 6 else None
    p[0] = KeyedItem(tuple(p[1]), p[3], alias, span(p))


def p_keyed_properties(p):
    """keyed_properties : prop_path
                        | keyed_properties COMMA prop_path
                        | keyed_properties AND prop_path"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_keyed_initiated(p):
    """keyed_initiated : empty
                       | INITIATED BY initiating_filters
                       | INITIATED initiating_filters"""
    p[0] = tuple(p[len(p) - 1]) if len(p) > 2 else ()


def p_initiating_filters(p):
    """initiating_filters : initiating_filter
                          | initiating_filters COMMA initiating_filter"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_initiating_filter(p):
    """initiating_filter : event_filter
                         | event_filter AS IDENT"""
    p[0] = KeyedItem((), p[1], p[3] if len(p) == 4 else None, span(p))


def p_keyed_terminated(p):
    """keyed_terminated : empty
                        | TERMINATED BY context_condition
                        | TERMINATED context_condition"""
    p[0] = p[len(p) - 1] if len(p) > 2 else None


# -- hash ---------------------------------------------------------------------------------------

def p_hash_context(p):
    """hash_context : IDENT BY hash_items
                    | IDENT BY hash_items IDENT NUMBER
                    | IDENT BY hash_items IDENT NUMBER IDENT"""
    if p[1].lower() != "coalesce":
        fail(p, 1, "please check the create context statement, expecting 'partition', "
                   "'coalesce', 'group', 'start', 'initiated' or 'context'")
    granularity = None
    preallocate = False
    if len(p) >= 6:
        if p[4].lower() != "granularity":
            fail(p, 4, "please check the create context statement, expecting 'granularity'")
        granularity = number(p[5], span(p, 5))
    if len(p) == 7:
        if p[6].lower() != "preallocate":
            fail(p, 6, "please check the create context statement, expecting 'preallocate'")
        preallocate = True
    p[0] = HashContext(tuple(p[3]), granularity, preallocate, span(p))


def p_hash_items(p):
    """hash_items : hash_item
                  | hash_items COMMA hash_item"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_hash_item(p):
    "hash_item : expr FROM event_filter"
    p[0] = (p[1], p[3])


# -- category -----------------------------------------------------------------------------------

def p_category_context(p):
    "category_context : category_items FROM event_filter"
    p[0] = CategoryContext(tuple(p[1]), p[3], span(p))


def p_category_items(p):
    """category_items : category_item
                      | category_items COMMA category_item"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_category_item(p):
    """category_item : GROUP expr AS name
                     | GROUP BY expr AS name"""
    p[0] = (p[len(p) - 3], p[len(p) - 1])


# -- temporal -----------------------------------------------------------------------------------

def p_temporal_start(p):
    """temporal_context : START context_condition
                        | START context_condition END context_condition"""
    end = p[4] if len(p) == 5 else None
    p[0] = TemporalContext(p[2], end, False, span(p))


def p_temporal_initiated(p):
    """temporal_context : INITIATED initiated_condition
                        | INITIATED initiated_condition TERMINATED context_condition
                        | INITIATED initiated_condition TERMINATED BY context_condition"""
    end = p[len(p) - 1] if len(p) > 3 else None
    p[0] = TemporalContext(p[2], end, True, span(p))


def p_initiated_condition(p):
    """initiated_condition : context_condition
                           | BY context_condition"""
    p[0] = p[len(p) - 1]


def p_initiated_condition_distinct(p):
    """initiated_condition : DISTINCT LPAREN expr_list RPAREN context_condition
                           | BY DISTINCT LPAREN expr_list RPAREN context_condition"""
    # a partition per distinct value among the partitions running at once
    o = len(p) - 6
    cond = p[5 + o]
    if cond.event_filter is None:
        fail(p, 1 + o, "please check the create context statement, 'distinct' applies to an "
                       "event filter condition")
    p[0] = replace(cond, distinct=tuple(p[3 + o]), span=span(p))


def p_initiated_condition_now_and(p):
    """initiated_condition : ATSIGN IDENT AND context_condition
                           | BY ATSIGN IDENT AND context_condition"""
    # `@now and pattern [...]`: a partition starts at once and at each later occurrence
    o = len(p) - 5
    if p[2 + o].lower() != "now":
        fail(p, 2 + o, "please check the create context statement, expecting '@now'")
    cond = p[4 + o]
    if cond.now:
        fail(p, 4 + o, "please check the create context statement, '@now' is given twice")
    p[0] = replace(cond, now=True, span=span(p))


def p_context_condition_filter(p):
    """context_condition : event_filter
                         | event_filter AS IDENT
                         | event_filter IDENT"""
    p[0] = ContextCondition(event_filter=p[1], alias=p[len(p) - 1] if len(p) > 2 else None,
                            span=span(p))


def p_context_condition_pattern(p):
    """context_condition : PATTERN LBRACK pattern RBRACK
                         | PATTERN LBRACK pattern RBRACK ATSIGN IDENT"""
    inclusive = len(p) == 7
    if inclusive and p[6].lower() != "inclusive":
        fail(p, 6, "please check the create context statement, expecting '@inclusive'")
    p[0] = ContextCondition(pattern=p[3], inclusive=inclusive, span=span(p))


def p_context_condition_crontab(p):
    "context_condition : LPAREN cron_args RPAREN"
    p[0] = ContextCondition(crontab=tuple(p[2]), span=span(p))


def p_context_condition_after(p):
    "context_condition : AFTER expr"
    p[0] = ContextCondition(after=p[2], span=span(p))


def p_context_condition_now(p):
    "context_condition : ATSIGN IDENT"
    if p[2].lower() != "now":
        fail(p, 2, "please check the create context statement, expecting '@now'")
    p[0] = ContextCondition(now=True, span=span(p))
