"""Grammar of the output clause (`output [after ...] [all|first|last|snapshot] every ... |
at (...) | when ... [and when terminated ...]`) and of assignments (`set a = b`)."""
from __future__ import annotations

from dataclasses import replace

from ..ast import Assignment, OutputClause, OutputKind, PropSeg, Property
from ..lexer import tokens  # noqa: F401
from ._support import fail, span


def p_output_opt(p):
    """output_opt : empty
                  | OUTPUT output_after output_kind output_condition output_terminated"""
    if len(p) == 2:
        p[0] = None
        return
    after, kind, cond, term = p[2], p[3], p[4], p[5]
    fields = dict(after)
    fields.update(cond)
    if term is not None:
        if fields.get("when_terminated"):
            # `when terminated ... and when terminated` is not a valid combination
            fail(p, 5, "please check the output clause, 'when terminated' is given twice")
        fields.update(term)
    p[0] = OutputClause(kind=kind, span=span(p), **fields)


def p_output_after(p):
    """output_after : empty
                    | AFTER expr
                    | AFTER expr EVENTS"""
    if len(p) == 2:
        p[0] = {}
    elif len(p) == 3:
        p[0] = {"after_time": p[2]}
    else:
        p[0] = {"after_events": p[2]}


def p_output_kind(p):
    """output_kind : empty
                   | ALL
                   | FIRST
                   | LAST
                   | SNAPSHOT"""
    p[0] = OutputKind.DEFAULT if p[1] is None else OutputKind(p[1].lower())


def p_output_condition_none(p):
    "output_condition : empty"
    p[0] = {}


def p_output_condition_every(p):
    """output_condition : EVERY expr
                        | EVERY expr EVENTS"""
    p[0] = {"every_time": p[2]} if len(p) == 3 else {"every_events": p[2]}


def p_output_condition_at(p):
    "output_condition : AT LPAREN cron_args RPAREN"
    p[0] = {"at": tuple(p[3])}


def p_output_condition_when(p):
    "output_condition : WHEN expr then_set_opt"
    p[0] = {"when": p[2], "then_set": p[3]}


def p_output_condition_terminated(p):
    "output_condition : WHEN TERMINATED terminated_and_opt then_set_opt"
    p[0] = {"when_terminated": True, "terminated_and": p[3], "terminated_then_set": p[4]}


def p_output_terminated(p):
    """output_terminated : empty
                         | AND_WHEN WHEN TERMINATED terminated_and_opt then_set_opt"""
    if len(p) == 2:
        p[0] = None
    else:
        p[0] = {"when_terminated": True, "terminated_and": p[4], "terminated_then_set": p[5]}


def p_terminated_and_opt(p):
    """terminated_and_opt : empty
                          | AND expr"""
    p[0] = p[2] if len(p) == 3 else None


def p_then_set_opt(p):
    """then_set_opt : empty
                    | THEN SET assignments"""
    p[0] = tuple(p[3]) if len(p) == 4 else ()


def p_assignments(p):
    """assignments : assignment
                   | assignments COMMA assignment"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_assignment(p):
    "assignment : prop_path EQ expr"
    p[0] = Assignment(p[1], p[3], span(p))


def p_prop_path(p):
    """prop_path : name
                 | prop_path DOT name"""
    if len(p) == 2:
        p[0] = Property((PropSeg(p[1]),), span(p))
    else:
        p[0] = replace(p[1], path=p[1].path + (PropSeg(p[3]),), span=span(p))
