"""Grammar of `create schema`, `create window`, `create table`, `create index` and
`create variable`."""
from __future__ import annotations

from ..ast import (Call, ColumnDef, CreateIndex, CreateSchema, CreateTable, CreateVariable, CreateWindow,
                   IndexColumn, SpatialIndexColumn, TypeRef)
from ..lexer import tokens  # noqa: F401
from engine.contracts.errors import EPLValidationError
from ._support import STATE, fail, span

_REPRESENTATIONS = {"map", "objectarray", "json", "avro", "xml", "bean", "variant"}


# -- create schema ----------------------------------------------------------------------------

def p_create_schema(p):
    """create_schema : CREATE SCHEMA IDENT schema_body
                     | CREATE IDENT SCHEMA IDENT schema_body"""
    if len(p) == 5:
        rep, name, body = None, p[3], p[4]
    else:
        if p[2].lower() not in _REPRESENTATIONS:
            fail(p, 2, "please check the create schema statement, expecting 'map', "
                       "'objectarray', 'json', 'variant' or 'avro' before 'schema'")
        rep, name, body = p[2].lower(), p[4], p[5]
    if rep == "variant":
        body = _variant_body(p, body)
    elif "variant_types" in body or "variant_any" in body:
        fail(p, len(p) - 1, "please check the create schema statement, a list of types or "
                            "'*' follows 'as' only in 'create variant schema'")
    p[0] = CreateSchema(name, representation=rep, span=span(p), **body)


def p_schema_body_columns(p):
    """schema_body : LPAREN RPAREN schema_quals
                   | LPAREN column_defs RPAREN schema_quals
                   | AS LPAREN RPAREN schema_quals
                   | AS LPAREN column_defs RPAREN schema_quals"""
    cols = p[len(p) - 3] if p[len(p) - 3] != "(" else []
    body = dict(p[len(p) - 1])
    body["columns"] = tuple(cols)
    p[0] = body


def p_schema_body_class(p):
    "schema_body : AS type_name"
    p[0] = {"class_name": p[2]}


def p_schema_body_variant_any(p):
    "schema_body : AS STAR"
    p[0] = {"variant_any": True}


def p_schema_body_variant_types(p):
    "schema_body : AS variant_types"
    p[0] = {"variant_types": tuple(p[2])}


def p_variant_types(p):
    """variant_types : type_name COMMA type_name
                     | variant_types COMMA type_name"""
    p[0] = [p[1], p[3]] if isinstance(p[1], str) else p[1] + [p[3]]


def _variant_body(p, body):
    """A variant schema lists its member types (or `*`) and nothing else."""
    if "class_name" in body:
        return {"variant_types": (body["class_name"],)}
    if "variant_types" in body or "variant_any" in body:
        return body
    fail(p, 5, "please check the create variant schema statement, expecting 'as' and the "
               "member types or '*'")


def p_schema_quals(p):
    """schema_quals : empty
                    | schema_quals schema_qual"""
    if len(p) == 2:
        p[0] = {}
        return
    quals = dict(p[1])
    key, value = p[2]
    if key in quals:
        fail(p, 2, f"please check the create schema statement, '{key}' is given twice")
    quals[key] = value
    p[0] = quals


def p_schema_qual(p):
    "schema_qual : IDENT ident_list"
    word = p[1].lower()
    names = tuple(p[2])
    if word == "inherits":
        p[0] = ("inherits", names)
    elif word in ("starttimestamp", "endtimestamp") and len(names) == 1:
        p[0] = ("start_timestamp" if word == "starttimestamp" else "end_timestamp", names[0])
    else:
        fail(p, 1, "please check the create schema statement, expecting 'inherits', "
                   "'starttimestamp' or 'endtimestamp'")


def p_ident_list(p):
    """ident_list : IDENT
                  | ident_list COMMA IDENT"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_column_defs(p):
    """column_defs : column_def
                   | column_defs COMMA column_def"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_column_def(p):
    "column_def : name type_ref"
    p[0] = ColumnDef(p[1], p[2], span=span(p))


def p_type_ref(p):
    """type_ref : type_name
                | type_name LBRACK RBRACK"""
    p[0] = TypeRef(p[1], len(p) == 4, span(p))


# -- create window ----------------------------------------------------------------------------

def p_create_window(p):
    """create_window : CREATE WINDOW IDENT window_views window_model window_insert
                     | CREATE WINDOW IDENT window_views AS window_model window_insert
                     | CREATE WINDOW IDENT window_views AS window_columns window_insert"""
    source, insert = p[len(p) - 2], p[len(p) - 1]
    views, union = p[4]
    p[0] = CreateWindow(p[3], views, span=span(p), retain_union=union, **source, **insert)


def p_window_views(p):
    """window_views : views_opt
                    | views_opt RETAIN_UNION
                    | views_opt RETAIN_INTERSECTION"""
    p[0] = (p[1], len(p) == 3 and p[2].lower() == "retain-union")


def p_window_model_type(p):
    "window_model : type_name"
    p[0] = {"as_type": p[1]}


def p_window_model_select(p):
    "window_model : select_head FROM type_name"
    p[0] = {"as_type": p[3], "select": p[1]}


def p_window_columns(p):
    "window_columns : LPAREN column_defs RPAREN"
    # `as` is required here: without it `#keepall (k string)` would read as view parameters
    p[0] = {"columns": tuple(p[2])}


def p_window_insert(p):
    """window_insert : empty
                     | INSERT
                     | INSERT WHERE expr"""
    if len(p) == 2:
        p[0] = {"insert": p[1] is not None}
    else:
        p[0] = {"insert": True, "insert_where": p[3]}


# -- create table -----------------------------------------------------------------------------

def p_create_table(p):
    """create_table : CREATE TABLE IDENT LPAREN table_columns RPAREN
                    | CREATE TABLE IDENT AS LPAREN table_columns RPAREN"""
    p[0] = CreateTable(p[3], tuple(p[len(p) - 2]), span=span(p))


def p_table_columns(p):
    """table_columns : table_column
                     | table_columns COMMA table_column"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_table_column(p):
    """table_column : name type_ref
                    | name type_ref IDENT IDENT"""
    p[0] = ColumnDef(p[1], p[2], _primary_key(p), span=span(p))


def p_table_column_aggregation(p):
    """table_column : name table_aggregation
                    | name table_aggregation IDENT IDENT"""
    p[0] = ColumnDef(p[1], None, _primary_key(p), p[2], span=span(p))


def p_table_column_aggregation_typed(p):
    """table_column : name table_aggregation annotation
                    | name table_aggregation annotation IDENT IDENT"""
    ann = p[3]
    if ann.name.lower() != "type" or not isinstance(ann.value, str):
        fail(p, 3, "please check the create table statement, expecting '@type(EventTypeName)'")
    pk = False
    if len(p) == 6:
        if (p[4].lower(), p[5].lower()) != ("primary", "key"):
            fail(p, 4, "please check the create table statement, expecting 'primary key'")
        pk = True
    p[0] = ColumnDef(p[1], None, pk, p[2], ann.value, span=span(p))


def _primary_key(p):
    if len(p) == 3:
        return False
    if (p[3].lower(), p[4].lower()) != ("primary", "key"):
        fail(p, 3, "please check the create table statement, expecting 'primary key'")
    return True


def p_table_aggregation(p):
    """table_aggregation : name LPAREN RPAREN
                         | name LPAREN call_args RPAREN
                         | name LPAREN DISTINCT call_args RPAREN"""
    if len(p) == 4:
        p[0] = Call(p[1], (), False, span(p))
    elif len(p) == 5:
        p[0] = Call(p[1], tuple(p[3]), False, span(p))
    else:
        p[0] = Call(p[1], tuple(p[4]), True, span(p))


# -- create variable --------------------------------------------------------------------------

def p_create_variable(p):
    """create_variable : CREATE VARIABLE type_ref IDENT variable_init
                       | CREATE IDENT VARIABLE type_ref IDENT variable_init"""
    if len(p) == 6:
        constant, typ, name, init = False, p[3], p[4], p[5]
    else:
        if p[2].lower() != "constant":
            fail(p, 2, "please check the create variable statement, expecting 'constant' "
                       "before 'variable'")
        constant, typ, name, init = True, p[4], p[5], p[6]
    p[0] = CreateVariable(name, typ, init, constant, span=span(p))


def p_variable_init(p):
    """variable_init : empty
                     | EQ expr"""
    p[0] = p[2] if len(p) == 3 else None


# -- create index -----------------------------------------------------------------------------

def p_create_index(p):
    """create_index : CREATE IDENT IDENT ON IDENT LPAREN index_columns RPAREN
                    | CREATE IDENT IDENT IDENT ON IDENT LPAREN index_columns RPAREN"""
    if len(p) == 9:
        if p[2].lower() != "index":
            fail(p, 2, "please check the create statement, expecting 'index'")
        unique, name, target, cols = False, p[3], p[5], p[7]
    else:
        if p[3].lower() != "index":
            fail(p, 3, "please check the create index statement, expecting 'index'")
        if p[2].lower() != "unique":
            # valid syntax Esper rejects when validating, with this message
            raise EPLValidationError(f"Invalid keyword '{p[2]}' in create-index encountered, "
                                     f"expected 'unique'", STATE.text)
        unique, name, target, cols = True, p[4], p[6], p[8]
    p[0] = CreateIndex(name, target, tuple(cols), unique, span=span(p))


def p_index_columns(p):
    """index_columns : index_column
                     | index_columns COMMA index_column"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_index_column(p):
    """index_column : name
                    | name IDENT"""
    # the kind is checked when compiling ("Unrecognized advanced-type index ...")
    p[0] = IndexColumn(p[1], p[2].lower() if len(p) == 3 else "hash", span(p))


def p_index_column_spatial(p):
    """index_column : LPAREN expr_list RPAREN IDENT LPAREN expr_list RPAREN
                    | LPAREN expr_list RPAREN IDENT LPAREN RPAREN"""
    # `(px, py) pointregionquadtree(0, 0, 100, 100)`: checked when compiling
    params = tuple(p[6]) if len(p) == 8 else ()
    p[0] = SpatialIndexColumn(tuple(p[2]), p[4].lower(), params, span(p))
