"""Grammar entry points and statement kinds: annotations, the `context Name` prefix,
on-statements (select, delete, update, merge, set) and fire-and-forget insert/update/delete."""
from __future__ import annotations

from dataclasses import fields, replace

from ..ast import (
    Annotation, CreateExpression, DeclaringStatement, ExpressionDecl, Lambda, DeleteStatement, InsertValues, MergeAction, MergeWhen, OnDelete, OnMerge,
    OnSelect, OnSet, OnStatement, OnUpdate, UpdateStatement,
)
from ..lexer import tokens  # noqa: F401
from ._support import fail, number, span, string

start = "start"


def p_start_statement(p):
    """start : statement
             | statement SEMI"""
    p[0] = p[1]


def p_start_expression(p):
    "start : EXPR_START expr"
    p[0] = p[2]


def p_statement(p):
    """statement : statement_body
                 | annotations statement_body"""
    if len(p) == 2:
        p[0] = p[1]
        return
    body = p[2]
    if "annotations" not in {f.name for f in fields(body)}:
        fail(p, 1, "please check the statement, annotations are not allowed here")
    before = tuple(body.annotations) if isinstance(body, DeclaringStatement) else ()
    p[0] = replace(body, annotations=tuple(p[1]) + before, span=span(p))


def p_statement_body(p):
    """statement_body : select_stmt
                      | on_stmt
                      | create_schema
                      | create_window
                      | create_table
                      | create_index
                      | create_variable
                      | create_context
                      | update_stmt
                      | delete_stmt
                      | insert_values"""
    p[0] = p[1]


def p_statement_body_declaring(p):
    """statement_body : expr_decl statement_body
                      | expr_decl annotations statement_body"""
    body, decls = p[len(p) - 1], (p[1],)
    annotations: tuple = ()
    if len(p) == 4:      # `expression x {1} @name('s0') select ...`: annotations may follow
        annotations = tuple(p[2])
    if isinstance(body, DeclaringStatement):
        decls, annotations = decls + body.declarations, annotations + body.annotations
        body = body.statement
    p[0] = DeclaringStatement(decls, body, annotations, span=span(p))


def p_statement_body_create_expression(p):
    "statement_body : CREATE expr_decl"
    p[0] = CreateExpression(p[2], span=span(p))


# -- expression declarations ----------------------------------------------------------------------

def p_expr_decl(p):
    "expr_decl : EXPRESSION name LBRACE decl_body RBRACE"
    body = p[4]
    if isinstance(body, Lambda):
        p[0] = ExpressionDecl(p[2], body.params, body.body, False, True, span(p))
    else:
        p[0] = ExpressionDecl(p[2], (), body, False, False, span(p))


def p_expr_decl_alias(p):
    "expr_decl : EXPRESSION name IDENT IDENT LBRACE expr RBRACE"
    if p[3].lower() != "alias" or p[4].lower() != "for":
        fail(p, 3, "please check the expression declaration, expecting 'alias for' or '{'")
    p[0] = ExpressionDecl(p[2], (), p[6], True, False, span(p))


def p_decl_body(p):
    """decl_body : expr
                 | lambda_expr"""
    p[0] = p[1]


def p_statement_body_context(p):
    """statement_body : CONTEXT IDENT select_stmt
                      | CONTEXT IDENT on_stmt
                      | CONTEXT IDENT create_window
                      | CONTEXT IDENT create_table
                      | CONTEXT IDENT create_index"""
    p[0] = replace(p[3], context=p[2], span=span(p))


def p_statement_body_context_variable(p):
    """statement_body : CONTEXT IDENT create_variable"""
    p[0] = replace(p[3], context=p[2], span=span(p))


# -- annotations --------------------------------------------------------------------------------

def p_annotations(p):
    """annotations : annotation
                   | annotations annotation"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[2]]


def p_annotation(p):
    """annotation : ATSIGN annotation_name
                  | ATSIGN annotation_name LPAREN RPAREN
                  | ATSIGN annotation_name LPAREN annotation_value RPAREN"""
    value = p[4] if len(p) == 6 else None
    p[0] = Annotation(p[2], value, (), span(p))


def p_annotation_attrs(p):
    "annotation : ATSIGN annotation_name LPAREN annotation_attrs RPAREN"
    p[0] = Annotation(p[2], None, tuple(p[4]), span(p))


def p_annotation_name(p):
    """annotation_name : IDENT
                       | annotation_name DOT IDENT"""
    p[0] = p[1] if len(p) == 2 else p[1] + "." + p[3]


def p_annotation_attrs_list(p):
    """annotation_attrs : annotation_attr
                        | annotation_attrs COMMA annotation_attr"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_annotation_attr(p):
    "annotation_attr : name EQ annotation_value"
    p[0] = (p[1], p[3])


def p_annotation_value_string(p):
    "annotation_value : STRING"
    p[0] = string(p[1], span(p)).value


def p_annotation_value_number(p):
    """annotation_value : NUMBER
                        | MINUS NUMBER"""
    v = number(p[len(p) - 1], span(p)).value
    p[0] = -v if len(p) == 3 else v


def p_annotation_value_constant(p):
    """annotation_value : TRUE
                        | FALSE
                        | NULL"""
    p[0] = {"true": True, "false": False, "null": None}[p[1].lower()]


def p_annotation_value_name(p):
    "annotation_value : annotation_name"
    p[0] = p[1]


def p_annotation_value_array(p):
    """annotation_value : LBRACE RBRACE
                        | LBRACE annotation_values RBRACE"""
    p[0] = tuple(p[2]) if len(p) == 4 else ()


def p_annotation_values(p):
    """annotation_values : annotation_value
                         | annotation_values COMMA annotation_value"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_annotation_value_nested(p):
    "annotation_value : annotation"
    p[0] = p[1]


# -- on-statements ------------------------------------------------------------------------------

def p_on_stmt(p):
    """on_stmt : ON event_filter alias_opt on_action"""
    p[0] = OnStatement(p[2], p[4], p[3], span=span(p))


def p_on_stmt_pattern(p):
    """on_stmt : ON PATTERN LBRACK pattern RBRACK alias_opt on_action"""
    p[0] = OnStatement(p[4], p[7], p[6], span=span(p))


def p_on_action(p):
    """on_action : on_select
                 | on_delete
                 | on_update
                 | on_merge
                 | on_set"""
    p[0] = p[1]


def p_on_select(p):
    """on_select : on_select_head FROM IDENT alias_opt where_opt group_opt having_opt order_opt"""
    head = p[1]
    p[0] = OnSelect(head["select"], p[3], p[4], p[5], head.get("insert_into"),
                    head.get("and_delete", False), p[6], p[7], p[8], span(p))


def p_on_select_head(p):
    """on_select_head : SELECT select_spec
                      | insert_clause SELECT select_spec"""
    if len(p) == 3:
        p[0] = {"select": p[2]}
    else:
        p[0] = {"select": p[3], "insert_into": p[1]}


def p_on_select_head_delete(p):
    """on_select_head : SELECT AND DELETE select_spec
                      | SELECT DELETE select_spec
                      | insert_clause SELECT AND DELETE select_spec
                      | insert_clause SELECT DELETE select_spec"""
    insert = p[1] if not isinstance(p[1], str) else None
    head = {"select": p[len(p) - 1], "and_delete": True}
    if insert is not None:
        head["insert_into"] = insert
    p[0] = head


def p_on_delete(p):
    "on_delete : DELETE FROM IDENT alias_opt where_opt"
    p[0] = OnDelete(p[3], p[4], p[5], span(p))


def p_on_update(p):
    "on_update : UPDATE IDENT alias_opt SET assignments where_opt"
    p[0] = OnUpdate(p[2], p[3], tuple(p[5]), p[6], span(p))


def p_on_set(p):
    "on_set : SET assignments"
    p[0] = OnSet(tuple(p[2]), span(p))


def p_on_merge(p):
    """on_merge : MERGE IDENT alias_opt where_opt merge_whens
                | MERGE INTO IDENT alias_opt where_opt merge_whens"""
    o = len(p) - 6
    p[0] = OnMerge(p[2 + o], p[3 + o], p[4 + o], tuple(p[5 + o]), span(p))


def p_on_merge_direct_insert(p):
    """on_merge : MERGE IDENT alias_opt where_opt merge_direct_insert
                | MERGE INTO IDENT alias_opt where_opt merge_direct_insert"""
    # Esper's `merge W insert select ...`: no when-clause, every trigger event inserts
    o = len(p) - 6
    p[0] = OnMerge(p[2 + o], p[3 + o], p[4 + o], (), span(p), direct_insert=p[5 + o])


def p_merge_direct_insert(p):
    """merge_direct_insert : INSERT SELECT select_spec
                           | INSERT columns SELECT select_spec
                           | INSERT INTO type_name columns_opt SELECT select_spec"""
    into, cols = None, ()
    if len(p) == 5:
        cols = p[2]
    elif len(p) == 7:
        into, cols = p[3], p[4]
    p[0] = MergeAction("insert", select=p[len(p) - 1], insert_into=into, columns=cols, span=span(p))


def p_merge_whens(p):
    """merge_whens : merge_when
                   | merge_whens merge_when"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[2]]


def p_merge_when_matched(p):
    """merge_when : WHEN MATCHED merge_actions
                  | WHEN MATCHED AND expr merge_actions"""
    cond = p[4] if len(p) == 6 else None
    p[0] = MergeWhen(True, tuple(p[len(p) - 1]), cond, span(p))


def p_merge_when_not_matched(p):
    """merge_when : WHEN NOT MATCHED merge_actions
                  | WHEN NOT MATCHED AND expr merge_actions"""
    cond = p[5] if len(p) == 7 else None
    p[0] = MergeWhen(False, tuple(p[len(p) - 1]), cond, span(p))


def p_merge_actions(p):
    """merge_actions : merge_action
                     | merge_actions merge_action"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[2]]


def p_merge_action_update(p):
    "merge_action : THEN UPDATE SET assignments where_opt"
    p[0] = MergeAction("update", tuple(p[4]), condition=p[5], span=span(p))


def p_merge_action_delete(p):
    "merge_action : THEN DELETE where_opt"
    p[0] = MergeAction("delete", condition=p[3], span=span(p))


def p_merge_action_insert(p):
    """merge_action : THEN INSERT SELECT select_spec where_opt
                    | THEN INSERT columns SELECT select_spec where_opt
                    | THEN INSERT INTO type_name columns_opt SELECT select_spec where_opt"""
    into, cols = None, ()
    if len(p) == 7:
        cols = p[3]
    elif len(p) == 9:
        into, cols = p[4], p[5]
    p[0] = MergeAction("insert", select=p[len(p) - 2], insert_into=into, columns=cols,
                       condition=p[len(p) - 1], span=span(p))


def p_columns(p):
    "columns : LPAREN name_list RPAREN"
    p[0] = tuple(p[2])


# -- fire-and-forget and update istream --------------------------------------------------------

def p_update_stmt(p):
    """update_stmt : UPDATE IDENT alias_opt SET assignments where_opt
                   | UPDATE ISTREAM type_name alias_opt SET assignments where_opt"""
    if len(p) == 7:
        p[0] = UpdateStatement(p[2], p[3], tuple(p[5]), p[6], False, span=span(p))
    else:
        p[0] = UpdateStatement(p[3], p[4], tuple(p[6]), p[7], True, span=span(p))


def p_delete_stmt(p):
    "delete_stmt : DELETE FROM IDENT alias_opt where_opt"
    p[0] = DeleteStatement(p[3], p[4], p[5], span(p))


def p_insert_values(p):
    "insert_values : insert_clause VALUES LPAREN expr_list RPAREN"
    p[0] = InsertValues(_faf_target(p), p[1].columns, tuple(p[4]), None, span(p))


def p_insert_select(p):
    "insert_values : insert_clause select_head"
    p[0] = InsertValues(_faf_target(p), p[1].columns, (), p[2], span(p))


def _faf_target(p):
    if p[1].selector is not None:
        fail(p, 1, "please check the insert statement, a stream selector is not allowed "
                   "without a from clause")
    return p[1].stream_name
