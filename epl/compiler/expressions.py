"""Expression compiler: AST to closures over the events per stream, once per statement.
Dispatch is by node class; the runtime never sees AST nodes."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable

import engine.contracts.datetime_ops as D
import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.event_types import _LEAF_KINDS, Representation, _step
from engine.contracts.faults import evaluation_failed
from engine.contracts.sandbox import allowed_name

import epl.ast as A
import epl.compiler.operators as O
import epl.compiler.regexes as RX
from .compiled import Compiled, constant
import epl.compiler.java_math as JM
from .functions import METHODS, SINGLE_ROW, method_applies
from .scope import Scope
from .typechecks import (between_error, common_type_error, in_list_error, numeric_error,
                         regexp_error, relational_error)

# the dispatch core lives in core.py (feature compilers import it, not this module); these
# names stay importable from here
from epl.compiler.core import _COMPILERS, _fold, _str, compile_expr, compiles, expr_text  # noqa: E402,F401

# `T.column` of a table without primary key: epl.compiler.tables adds its resolver when it
# loads (it imports this module, so this module does not import it)
TABLE_COLUMN: list[Callable[[A.Property, Scope], Any]] = []


# -- leaves ---------------------------------------------------------------------------

_LITERAL_TYPES = {
    A.LiteralKind.INT: T.INT, A.LiteralKind.LONG: T.LONG, A.LiteralKind.DOUBLE: T.DOUBLE,
    A.LiteralKind.FLOAT: T.FLOAT, A.LiteralKind.STRING: T.STRING,
    A.LiteralKind.BOOLEAN: T.BOOLEAN, A.LiteralKind.NULL: T.OBJECT,
}


@compiles(A.Literal)
def _literal(node: A.Literal, scope: Scope) -> Compiled:
    return constant(node.value, _LITERAL_TYPES[node.kind])


@compiles(A.TimePeriod)
def _time_period(node: A.TimePeriod, scope: Scope) -> Compiled:
    total: float = 0
    parts = [(compile_expr(amount, scope), A.TIME_UNIT_MSEC[unit]) for amount, unit in node.parts]
    if not all(c.is_constant for c, _ in parts):
        # a variable (or other expression) as an amount: the length is read when used
        for c, _ in parts:
            if not c.is_constant and not (c.type.is_numeric or c.type.kind is EPLType.OBJECT):
                raise scope.fail("Time period amounts must be numeric")
        fns = tuple((c.fn, unit) for c, unit in parts)

        def length(eps, _fns=fns):
            t: float = 0
            for fn, unit in _fns:
                v = fn(eps)
                if v is None:
                    return None
                t += v * unit
            return int(t) if isinstance(t, float) and t.is_integer() else t
        return Compiled(length, T.DOUBLE, is_time_period=True)
    for c, unit in parts:
        if not isinstance(c.constant, (int, float)):
            raise scope.fail("Time period amounts must be numeric constants")
        total += c.constant * unit
    if isinstance(total, float) and total.is_integer():
        total = int(total)
    return constant(total, T.DOUBLE, is_time_period=True)


def _context_variable_holder(name: str, scope: Scope) -> Any:
    """For a variable declared with a context: the holder of the statement's partition (the
    statement must run in that context, Esper's rule); None for other variables."""
    context_of = getattr(scope.variables, "context_of", None)
    declared = context_of(name) if context_of is not None else None
    if declared is None:
        return None
    engine = getattr(scope.services, "engine", None)
    contexts = engine.services.contexts if engine is not None else None
    definition = contexts.get(declared) if contexts is not None else None
    if scope.context_holder is None or definition is None or \
            scope.context_type is not definition.context_type:
        raise scope.fail(f"Variable '{name}' defined for use with context '{declared}' can only be "
                         f"accessed within that context")
    return scope.context_holder


@compiles(A.Parens)
def _parens(node: A.Parens, scope: Scope) -> Compiled:
    return compile_expr(node.inner, scope)


@compiles(A.Property)
def _property(node: A.Property, scope: Scope) -> Compiled:
    if len(node.path) == 2 and node.path[0].name == "Math" and node.path[1].name in JM.CONSTANTS \
            and scope.stream_by_alias("Math") is None:
        return constant(JM.CONSTANTS[node.path[1].name], T.DOUBLE)     # Math.PI, Math.E
    if len(node.path) == 2:
        for resolve in TABLE_COLUMN:
            t = resolve(node, scope)
            if t is not None:
                return t
    r = scope.resolve(node)
    if r.kind == "stream":
        stream = scope.streams[r.index]
        g = stream.event_type.getter(r.path)
        i = r.index
        if i == 0 and len(scope.streams) == 1:
            if stream.event_type.representation is Representation.MAP and r.path.isidentifier():
                # one call per read on the hot path: the map lookup itself
                read = lambda eps, _n=r.path: eps[0].underlying.get(_n)  # noqa: E731
                # runtime loops that see this name read `eps[0].underlying.get(name)` inline
                read.map_property = r.path
                return Compiled(read, r.type,
                                on_bean=lambda bean, _n=r.path: bean.underlying.get(_n))
            tagged = _tag_property(stream.event_type, r.path, g)
            if tagged is not None:
                return Compiled(tagged, r.type)
            return Compiled(lambda eps, _g=g: _g(eps[0].underlying), r.type,
                            on_bean=lambda bean, _g=g: _g(bean.underlying))

        def from_stream(eps, _g=g, _i=i):
            b = eps[_i]
            return None if b is None else _g(b.underlying)
        return Compiled(from_stream, r.type)
    if r.kind == "builtin":
        holder = scope.builtins_holder
        return Compiled(lambda eps, _h=holder, _n=r.name: _h.values.get(_n), r.type)
    if r.kind == "variable":
        holder = _context_variable_holder(r.name, scope)
        var = scope.variables.reader(r.name) if holder is None else scope.variables.reader(r.name, holder)
        if r.path:
            path = r.path.split(".")
            if not all(allowed_name(p) for p in path):
                raise scope.fail(f"Failed to resolve property '{node.dotted}': names starting "
                                 f"with '_' are not accessible")

            def read_nested(eps, _v=var, _p=path):
                v = _v()
                for p in _p:
                    v = _step(v, p)
                return v
            return Compiled(read_nested, T.OBJECT)
        return Compiled(lambda eps, _v=var: _v(), r.type)
    if r.kind == "context":
        holder = scope.context_holder
        g = scope.context_type.getter(r.path)
        return Compiled(lambda eps, _h=holder, _g=g: _g(_h.properties), r.type)
    raise scope.fail(f"Cannot resolve '{node.dotted}'")


def _tag_property(et: Any, path: str, g: Callable[[Any], Any]) -> Any:
    """`a.id` on a map type whose `a` holds an event of a map type (a pattern's tag): read in
    one call when the held event is of that very type (what the getter's general steps do
    then), else through the getter."""
    if et.representation is not Representation.MAP:
        return None
    tag, _, name = path.partition(".")
    if not (tag.isidentifier() and name.isidentifier()):
        return None
    pt = et.property_type(tag)
    inner = getattr(pt, "event_type", None) if pt is not None else None
    if pt is None or pt.kind is not EPLType.EVENT or inner is None or \
            inner.representation is not Representation.MAP:
        return None

    def read(eps, _t=tag, _n=name, _et=inner, _g=g, _bean=EventBean):
        u = eps[0].underlying
        b = u.get(_t)
        if b.__class__ is _bean and b.event_type is _et:
            return b.underlying.get(_n)
        return _g(u)
    return read


# -- operators --------------------------------------------------------------------------

_CMP = {A.BinOp.LT: "<", A.BinOp.LE: "<=", A.BinOp.GT: ">", A.BinOp.GE: ">="}


def _check_comparable(l: Compiled, r: Compiled, scope: Scope, op: str) -> None:
    lk, rk = l.type.kind, r.type.kind
    if EPLType.OBJECT in (lk, rk) or (l.is_constant and l.constant is None) or \
            (r.is_constant and r.constant is None):
        return                           # object-typed or the null literal: decided at run time
    if (lk in T.NUMERIC_RANK) != (rk in T.NUMERIC_RANK) or \
            (lk not in T.NUMERIC_RANK and lk != rk and EPLType.OBJECT not in (lk, rk)):
        raise scope.fail(f"Implicit conversion from datatype '{AR.java_type_name(r.type)}' to "
                         f"'{AR.java_type_name(l.type)}' is not allowed for operator '{op}'")


def _compile_compare(node: A.BinaryOp, scope: Scope, l: Compiled, r: Compiled) -> Compiled:
    op = node.op
    lf, rf = l.fn, r.fn
    if op in (A.BinOp.EQ, A.BinOp.NE):
        _check_comparable(l, r, scope, op.value)
        neg = op is A.BinOp.NE
        if r.is_constant and r.constant is not None:
            c = r.constant

            def f(eps):
                a = lf(eps)
                if a is None:
                    return None
                return (a != c) if neg else (a == c)
        else:
            def f(eps):
                a = lf(eps)
                if a is None:
                    return None
                b = rf(eps)
                if b is None:
                    return None
                return (a != b) if neg else (a == b)
        return _fold(f, T.BOOLEAN, [l, r])
    if op in (A.BinOp.IS, A.BinOp.IS_NOT):
        _check_comparable(l, r, scope, op.value)
        neg = op is A.BinOp.IS_NOT
        return _fold(lambda eps: O.is_equal(lf(eps), rf(eps)) != neg, T.BOOLEAN, [l, r])
    error = relational_error(l, r)
    if error is not None:
        raise scope.fail(error)
    _check_comparable(l, r, scope, op.value)
    sym = _CMP[op]
    if r.is_constant and r.constant is not None and sym == ">" and l.type.kind is not EPLType.OBJECT:
        c = r.constant

        def f(eps):
            a = lf(eps)
            return None if a is None else a > c
        return _fold(f, T.BOOLEAN, [l, r])
    return _fold(lambda eps: O.compare(sym, lf(eps), rf(eps)), T.BOOLEAN, [l, r])


def _flatten(node: A.Expr, op: A.BinOp) -> list[A.Expr]:
    """The operands of an `and` / `or` chain, in order; iterative (10,000-term chains)."""
    out: list[A.Expr] = []
    stack = [node]
    while stack:
        n = stack.pop()
        while isinstance(n, A.Parens):
            n = n.inner
        if isinstance(n, A.BinaryOp) and n.op is op:
            stack.append(n.right)
            stack.append(n.left)
        else:
            out.append(n)
    return out


def _compile_logic(node: A.BinaryOp, scope: Scope) -> Compiled:
    sources = _flatten(node, node.op)
    parts = [compile_expr(p, scope) for p in sources]
    for p, src in zip(parts, sources):
        if p.type.kind not in (EPLType.BOOLEAN, EPLType.OBJECT):
            raise scope.fail(f"Incorrect use of '{node.op.value}': expression '{expr_text(src)}' "
                             f"returns '{p.type}', not boolean")
    fns = tuple(p.fn for p in parts)
    if node.op is A.BinOp.AND:
        if len(fns) == 2:
            f1, f2 = fns

            def f(eps):
                a = f1(eps)
                if a is False:
                    return False
                b = f2(eps)
                if b is False:
                    return False
                if a is None or b is None:
                    return None
                return bool(a and b)
        else:
            def f(eps):
                return O.and3(g(eps) for g in fns)
    else:
        def f(eps):
            return O.or3(g(eps) for g in fns)
    return _fold(f, T.BOOLEAN, parts)


@compiles(A.BinaryOp)
def _binary(node: A.BinaryOp, scope: Scope) -> Compiled:
    if node.op in (A.BinOp.AND, A.BinOp.OR):
        return _compile_logic(node, scope)
    # a left-associative chain (`a + b + c ...`) is compiled bottom-up in a loop, not by
    # recursion down its left spine: 10,000-term chains compile
    spine = [node]
    left = node.left
    while isinstance(left, A.BinaryOp) and left.op not in (A.BinOp.AND, A.BinOp.OR):
        spine.append(left)
        left = left.left
    l = compile_expr(left, scope)
    first, steps, nulled = l, [], False
    for n in reversed(spine):
        r = compile_expr(n.right, scope)
        if len(spine) > _FLAT_CHAIN:
            # the step's own operator on two plain values: `step((a, b))`
            hole = _binary_step(n, scope, Compiled(_left_hole, l.type), Compiled(_right_hole, r.type))
            steps.append((hole.fn, r.fn))
        l = _binary_step(n, scope, l, r)
        if scope.null_texts and n is not node and expr_text(n) in scope.null_texts:
            l = constant(None, T.OBJECT)   # what compile_expr does for a rolled-up group key
            nulled = True
    if len(spine) <= _FLAT_CHAIN or l.is_constant or nulled:
        return l
    return Compiled(_flat_chain(first.fn, tuple(steps)), l.type, has_aggregation=l.has_aggregation)


# Chains longer than this evaluate in a loop: nested closures would recurse once per term.
_FLAT_CHAIN = 32


def _left_hole(pair):
    return pair[0]


def _right_hole(pair):
    return pair[1]


def _flat_chain(first: Callable, steps: tuple) -> Callable:
    def chain(eps):
        a = first(eps)
        for op, rf in steps:
            a = op((a, rf(eps)))
        return a
    return chain


def _binary_step(node: A.BinaryOp, scope: Scope, l: Compiled, r: Compiled) -> Compiled:
    op = node.op
    if op in (A.BinOp.ADD, A.BinOp.SUB, A.BinOp.MUL, A.BinOp.DIV, A.BinOp.MOD):
        if l.is_time_period or r.is_time_period:
            return _period_arith(node, scope, l, r)
        return AR.compile_arith(node, scope, l, r)
    if op in (A.BinOp.EQ, A.BinOp.NE, A.BinOp.LT, A.BinOp.LE, A.BinOp.GT, A.BinOp.GE, A.BinOp.IS, A.BinOp.IS_NOT):
        return _compile_compare(node, scope, l, r)
    if op is A.BinOp.CONCAT:
        return AR.compile_concat(node, scope, l, r)
    return AR.compile_bitwise(node, scope, l, r)


# (operator, left is a time period, right is one) -> whether the result is a time period;
# any other mix is refused
_PERIOD_ARITH = {
    (A.BinOp.ADD, True, True): True, (A.BinOp.SUB, True, True): True,
    (A.BinOp.MUL, True, False): True, (A.BinOp.MUL, False, True): True,
    (A.BinOp.DIV, True, False): True, (A.BinOp.DIV, True, True): False,
    (A.BinOp.MOD, True, True): True,
}


def _period_arith(node: A.BinaryOp, scope: Scope, l: Compiled, r: Compiled) -> Compiled:
    """Arithmetic on time periods keeps their unit: `50 msec + 20 msec` is the period 70
    msec and `a.v * 30 msec` 30 msec per unit of v (a period is its milliseconds, so a
    bare number would be read as seconds wherever a period or seconds are taken). Esper
    takes a time period only as a whole parameter; a sum of a period and a plain number has
    no unit and is refused."""
    result = _PERIOD_ARITH.get((node.op, l.is_time_period, r.is_time_period))
    if result is None:
        if l.is_time_period and r.is_time_period:
            hint = "two time periods: multiply a period by a number"
        else:
            hint = "a time period and a number: write the number as a period (for example '5 sec')"
        raise scope.fail(f"Operator '{node.op.value}' cannot combine {hint}")
    c = AR.compile_arith(node, scope, l, r)
    c.is_time_period = result
    return c


@compiles(A.Between)
def _between(node: A.Between, scope: Scope) -> Compiled:
    x, lo, hi = (compile_expr(n, scope) for n in (node.operand, node.low, node.high))
    if (err := between_error((x, lo, hi))) is not None:
        raise scope.fail(err)
    xf, lf, hf, neg = x.fn, lo.fn, hi.fn, node.negated

    def f(eps):
        v, a, b = xf(eps), lf(eps), hf(eps)
        if v is None or a is None or b is None:
            return None
        if a > b:  # Esper accepts the endpoints in either order
            a, b = b, a
        r = a <= v <= b
        return (not r) if neg else r
    return _fold(f, T.BOOLEAN, [x, lo, hi])


@compiles(A.InRange)
def _in_range(node: A.InRange, scope: Scope) -> Compiled:
    x, lo, hi = (compile_expr(n, scope) for n in (node.operand, node.low, node.high))
    if (err := between_error((x, lo, hi))) is not None:
        raise scope.fail(err)
    xf, lf, hf = x.fn, lo.fn, hi.fn
    lc, hc, neg = node.low_closed, node.high_closed, node.negated

    def f(eps):
        v, a, b = xf(eps), lf(eps), hf(eps)
        if v is None or a is None or b is None:
            return None
        if a > b:
            a, b = b, a
        r = (a <= v if lc else a < v) and (v <= b if hc else v < b)
        return (not r) if neg else r
    return _fold(f, T.BOOLEAN, [x, lo, hi])


@compiles(A.InList)
def _in_list(node: A.InList, scope: Scope) -> Compiled:
    x = compile_expr(node.operand, scope)
    items = [compile_expr(i, scope) for i in node.items]
    if (err := in_list_error(x, items)) is not None:
        raise scope.fail(err)
    xf, neg = x.fn, node.negated
    if all(i.is_constant for i in items) and not any(isinstance(i.constant, (list, tuple)) for i in items):
        consts = [i.constant for i in items]
        try:
            lookup = frozenset(c for c in consts if c is not None)
        except TypeError:
            lookup = None
        has_null = any(c is None for c in consts)

        def f(eps):
            v = xf(eps)
            if v is None:
                return None
            hit = (v in lookup) if lookup is not None else (v in consts)
            if not hit and has_null:
                return None
            return (not hit) if neg else hit
        return _fold(f, T.BOOLEAN, [x] + items)
    fns = [i.fn for i in items]

    def g(eps):
        v = xf(eps)
        if v is None:
            return None
        values = []
        for fn in fns:
            iv = fn(eps)
            if isinstance(iv, (list, tuple, set, frozenset)):
                values.extend(iv)
            else:
                values.append(iv)
        hit = v in values
        return (not hit) if neg else hit
    return _fold(g, T.BOOLEAN, [x] + items)


@compiles(A.Like)
def _like(node: A.Like, scope: Scope) -> Compiled:
    x, p = compile_expr(node.operand, scope), compile_expr(node.pattern, scope)
    _check_like_types(x, p, scope)
    esc = compile_expr(node.escape, scope).constant if node.escape is not None else None
    if esc is not None and not isinstance(esc, str):
        esc = None
    xf, pf, neg = x.fn, p.fn, node.negated
    if p.is_constant and p.constant is not None:
        m = RX.like_matcher(p.constant if isinstance(p.constant, str) else RX._text(p.constant), esc)

        def f(eps):
            v = xf(eps)
            if v is None:
                return None
            r = m(v if isinstance(v, str) else RX._text(v))
            return (not r) if neg else r
        return _fold(f, T.BOOLEAN, [x, p])

    def g(eps):
        r = RX.like(xf(eps), pf(eps), esc)
        return None if r is None else ((not r) if neg else r)
    return _fold(g, T.BOOLEAN, [x, p])


def _check_like_types(x: Compiled, p: Compiled, scope: Scope) -> None:
    """Esper's validation of `like`: a string or numeric value, a string pattern."""
    if not (x.type.kind in (EPLType.STRING, EPLType.OBJECT) or x.type.is_numeric):
        raise scope.fail("The 'like' operator requires a String or numeric type left-hand expression")
    if p.type.kind not in (EPLType.STRING, EPLType.OBJECT):
        raise scope.fail("The 'like' operator requires a String-type pattern expression")


@compiles(A.Regexp)
def _regexp(node: A.Regexp, scope: Scope) -> Compiled:
    x, p = compile_expr(node.operand, scope), compile_expr(node.pattern, scope)
    error = regexp_error(x, p)
    if error is not None:
        raise scope.fail(error)
    xf, pf, neg = x.fn, p.fn, node.negated
    if p.is_constant and p.constant is not None:
        try:    # a bad constant pattern is Esper's validation error
            m = RX.regex_matcher(p.constant if isinstance(p.constant, str) else str(p.constant))
        except RX.PatternError as exc:
            raise scope.fail(str(exc)) from None

        def f(eps):
            v = xf(eps)
            if v is None:
                return None
            r = m(v if isinstance(v, str) else RX._text(v))
            return (not r) if neg else r
        return _fold(f, T.BOOLEAN, [x, p])

    RX.load_engines()   # now, not at the first event's first pattern

    def g(eps):
        r = RX.regexp(xf(eps), pf(eps))
        return None if r is None else ((not r) if neg else r)
    return _fold(g, T.BOOLEAN, [x, p])


@compiles(A.IsNull)
def _is_null(node: A.IsNull, scope: Scope) -> Compiled:
    x = compile_expr(node.operand, scope)
    xf = x.fn
    if node.negated:
        return _fold(lambda eps: xf(eps) is not None, T.BOOLEAN, [x])
    return _fold(lambda eps: xf(eps) is None, T.BOOLEAN, [x])


@compiles(A.Case)
def _case(node: A.Case, scope: Scope) -> Compiled:
    operand = compile_expr(node.operand, scope) if node.operand is not None else None
    whens = [(compile_expr(c, scope), compile_expr(r, scope)) for c, r in node.whens]
    other = compile_expr(node.otherwise, scope) if node.otherwise is not None else None
    results = [r for _, r in whens] + ([other] if other else [])
    error = common_type_error(results)
    if error is not None:
        raise scope.fail(error)
    t = results[0].type
    for r in results[1:]:
        if r.constant is None and r.is_constant:
            continue
        if t.is_numeric and r.type.is_numeric:
            t = T.promote(t, r.type)
        elif t.kind is EPLType.OBJECT and t.pyclass is None:
            t = r.type
        elif r.type != t and r.type.kind is not EPLType.OBJECT:
            t = T.OBJECT
    if operand is None:
        for (c, _), src in zip(whens, node.whens):
            if c.type.kind not in (EPLType.BOOLEAN, EPLType.OBJECT):
                raise scope.fail(f"Case node 'when' expressions must return a boolean value: "
                                 f"'{expr_text(src[0])}' returns '{c.type}'")
    # numeric results of different types are all of the promoted type (1 and 2.5: 1.0)
    coerce = None
    if t.kind in (EPLType.DOUBLE, EPLType.FLOAT) and any(r.type.is_integral for r in results):
        coerce = float
    elif t.kind is EPLType.DECIMAL and any(r.type.kind is not EPLType.DECIMAL for r in results):
        coerce = lambda v: v if isinstance(v, Decimal) else Decimal(str(v))  # noqa: E731
    fns = [r.fn for r in results]
    if coerce is not None:
        def coerced(f, _c=coerce):
            return lambda eps: None if (v := f(eps)) is None or isinstance(v, bool) else _c(v)
        fns = [coerced(f) for f in fns]
    pairs = tuple((c.fn, rf) for (c, _), rf in zip(whens, fns))
    of = fns[-1] if other is not None else (lambda eps: None)
    if operand is None:
        def f(eps):
            for cf, rf in pairs:
                if cf(eps) is True:
                    return rf(eps)
            return of(eps)
    else:
        xf = operand.fn

        def f(eps):
            v = xf(eps)
            for cf, rf in pairs:
                if v is not None and v == cf(eps):
                    return rf(eps)
            return of(eps)
    parts = ([operand] if operand else []) + [c for c, _ in whens] + results
    return _fold(f, t, parts)


@compiles(A.Cast)
def _cast(node: A.Cast, scope: Scope) -> Compiled:
    from .casts import cast_type, converter
    from .datetime_methods import DATETIME, time_zone
    x = compile_expr(node.operand, scope)
    t = cast_type(node.type_name)
    if t is None:
        raise scope.fail(f"Unknown type '{node.type_name}' in cast")
    tz = time_zone(scope)
    fmt = None
    parts = [x]
    if node.date_format is not None:
        if not (t.kind in (EPLType.LONG, EPLType.STRING) or t == DATETIME or t.pyclass is not None):
            raise scope.fail(f"Use of the 'dateformat' named parameter requires a date-time or long "
                             f"target type, received '{node.type_name}'")
        fc = compile_expr(node.date_format, scope)
        if not fc.is_constant or not isinstance(fc.constant, str):
            raise scope.fail("The 'dateformat' named parameter requires a constant string pattern")
        from engine.contracts.datetime_format import PatternError, parse_iso, parser
        if fc.constant.lower() == "iso":
            fmt = lambda text, _tz=tz: parse_iso(text, _tz)  # noqa: E731
        else:
            try:
                fmt = parser(fc.constant, tz)
            except PatternError as e:
                raise scope.fail(f"Invalid date format '{fc.constant}': {e}") from None
        if t.kind is EPLType.STRING:   # cast(date, string, dateformat: p): format
            from engine.contracts.datetime_format import formatter
            out = formatter(fc.constant)
            xf0 = x.fn

            def fmt_out(eps):
                d = D.to_local(xf0(eps), tz)
                return None if d is None else out(d)
            return _fold(fmt_out, T.STRING, parts)
    conv = converter(t, fmt, tz)
    xf = x.fn

    def f(eps):
        v = xf(eps)
        if v is None:
            return None
        try:
            return conv(v)
        except (ValueError, TypeError, ArithmeticError):
            return None
    return _fold(f, t, parts)


@compiles(A.InstanceOf)
def _instanceof(node: A.InstanceOf, scope: Scope) -> Compiled:
    from .casts import instance_check
    x = _stream_event(node.operand, scope) or compile_expr(node.operand, scope)
    checks = tuple(instance_check(name, x.type) for name in node.type_names)
    xf = x.fn

    def f(eps):
        v = xf(eps)
        return v is not None and any(c(v) for c in checks)
    return _fold(f, T.BOOLEAN, [x])


def _stream_event(node: A.Expr, scope: Scope) -> Any:
    """A bare stream alias as an expression: that stream's event (None when it is not one)."""
    if isinstance(node, A.Property) and len(node.path) == 1 and node.path[0].index is None \
            and node.path[0].key is None:
        s = scope.stream_by_alias(node.path[0].name)
        if s is not None and s.event_type.property_type(node.path[0].name) is None:
            return Compiled(lambda eps, _i=s.index: eps[_i],
                            PropertyType(EPLType.EVENT, event_type=s.event_type))
    return None


def _typeof(node: A.Call, scope: Scope) -> Compiled:
    from .casts import typeof_fn
    if len(node.args) != 1:
        raise scope.fail(f"Function 'typeof' takes 1 parameter(s), got {len(node.args)}")
    x = _stream_event(node.args[0], scope) or compile_expr(node.args[0], scope)
    fn = typeof_fn(x.type)
    xf = x.fn
    return _fold(lambda eps: fn(xf(eps)), T.STRING, [x])


@compiles(A.ArrayLiteral)
def _array(node: A.ArrayLiteral, scope: Scope) -> Compiled:
    items = [compile_expr(i, scope) for i in node.items]
    fns = tuple(i.fn for i in items)
    elem = items[0].type if items else T.OBJECT
    return _fold(lambda eps: [fn(eps) for fn in fns], T.array_of(elem), items)


# -- calls ------------------------------------------------------------------------------

@compiles(A.Call)
def _call(node: A.Call, scope: Scope) -> Compiled:
    name = node.name
    lname = name.lower()
    from engine.contracts.aggregation import is_aggregation
    plain_args = [a for a in node.args if not isinstance(a, A.NamedArg)]
    single_row_minmax = lname in ("max", "min") and len(plain_args) >= 2
    registry = getattr(scope.aggregations, "user_registry", None) or _engine_aggregations(scope)
    if is_aggregation(lname, registry) and not single_row_minmax:
        if scope.aggregations is None or not scope.allow_aggregation:
            raise scope.fail(f"Aggregation functions are not allowed in this context: '{expr_text(node)}'")
        return scope.aggregations.collect(node, scope)
    if lname in ("grouping", "grouping_id"):
        return _grouping(node, lname, scope)
    if lname == "typeof":
        return _typeof(node, scope)
    if lname == "exists":
        from .dynamic import compile_exists
        return compile_exists(node, scope)
    if lname in ("current_timestamp",):
        services = scope.services
        return Compiled(lambda eps, _s=services: _s.now(), T.LONG)
    if lname in SINGLE_ROW:
        fn, typer, lo, hi = SINGLE_ROW[lname]
        if len(node.args) < lo or (hi is not None and len(node.args) > hi):
            raise scope.fail(f"Function '{name}' takes {'at least ' if hi is None else ''}{lo} parameter(s), got {len(node.args)}")
        args = [compile_expr(a, scope) for a in node.args]
        if lname == "coalesce":
            error = common_type_error(args)
        elif lname in ("max", "min"):
            error = next((e for e in map(numeric_error, args) if e is not None), None)
        else:
            error = None
        if error is not None:
            raise scope.fail(error)
        fns = tuple(a.fn for a in args)
        # a null constant takes any type: coalesce(s, null) is a String, as in Esper
        typed = [a for a in args if not (a.is_constant and a.constant is None)] \
            if lname == "coalesce" else args
        return _fold(lambda eps: fn(*[g(eps) for g in fns]), typer([a.type for a in typed or args]), args)
    if scope.services is not None and hasattr(scope.services, "special_function"):
        special = scope.services.special_function(node, scope)
        if special is not None:
            return special
    user = scope.functions.get(name)
    if user is None:
        raise scope.fail(f"Unknown single-row function, aggregation function or mapped or indexed "
                         f"property named '{name}' could not be resolved")
    args = [compile_expr(a, scope) for a in node.args]
    fns = tuple(a.fn for a in args)
    rtype = getattr(user, "epl_result_type", None) or T.OBJECT

    engine = getattr(scope.services, "engine", None)
    text = expr_text(node)

    expect = _RESULT_CHECKS.get(rtype.kind)

    def call_user(eps):
        args = [g(eps) for g in fns]
        try:
            value = user(*args)
        except Exception as exc:   # deliberate fault isolation: a user function that raises is null (docs/errors.md)
            evaluation_failed(engine, text, exc)
            return None
        if expect is not None and value is not None and (
                not isinstance(value, expect[0]) or type(value) is bool and expect[0] is not bool):
            # a value of another type than the declared result type: null too
            evaluation_failed(engine, text, TypeError(
                f"returned {type(value).__name__} {value!r}, declared {expect[1]}"))
            return None
        return value
    return Compiled(call_user, rtype, has_aggregation=any(a.has_aggregation for a in args))


_NUMBER = ((int, float, Decimal), "a number")
_RESULT_CHECKS = {
    EPLType.INT: ((int,), "an integer"), EPLType.LONG: ((int,), "an integer"),
    EPLType.SHORT: ((int,), "an integer"), EPLType.BYTE: ((int,), "an integer"),
    EPLType.BIGINT: ((int,), "an integer"), EPLType.DOUBLE: _NUMBER, EPLType.FLOAT: _NUMBER,
    EPLType.DECIMAL: _NUMBER, EPLType.STRING: ((str,), "a string"),
    EPLType.BOOLEAN: ((bool,), "a boolean"),
}


def _grouping(node: A.Call, lname: str, scope: Scope) -> Compiled:
    """grouping(e): 1 when the current rollup level aggregates e away, else 0;
    grouping_id(a, b, ...): those bits as an integer, first argument most significant."""
    if scope.grouped_texts is None:
        raise scope.fail(f"The {lname} function requires the group-by clause to specify rollup, cube or grouping sets")
    bits = [0 if expr_text(a) in scope.grouped_texts else 1 for a in node.args]
    if lname == "grouping":
        if len(bits) != 1:
            raise scope.fail("The grouping function takes a single parameter")
        return constant(bits[0], T.INT)
    value = 0
    for b in bits:
        value = value * 2 + b
    return constant(value, T.INT)


def _engine_aggregations(scope: Scope):
    engine = getattr(scope.services, "engine", None)
    return engine.aggregations if engine is not None else None


@compiles(A.Dot)
def _dot(node: A.Dot, scope: Scope) -> Compiled:
    # `Math.abs(x)`: Java's Math as Esper users write it (java_math.py)
    if isinstance(node.target, A.Property) and len(node.target.path) == 1 and \
            node.target.path[0].name == "Math":
        return AR.java_math(node, scope)
    if scope.services is not None and hasattr(scope.services, "special_dot"):
        special = scope.services.special_dot(node, scope)
        if special is not None:
            return special
    target = compile_expr(node.target, scope)
    tf = target.fn
    if node.args is None:  # a property of a computed value: `maxby(price).sym`
        name = node.name
        t = T.OBJECT
        et = target.type.event_type
        if et is not None and et.property_type(name) is not None:
            t = et.property_type(name)
        elif et is not None or target.type.kind in _LEAF_KINDS or (
                not allowed_name(name) and target.type.kind is not EPLType.MAP):
            raise scope.fail(f"Failed to resolve property '{name}' of '{expr_text(node.target)}'")
        return Compiled(lambda eps: _step(tf(eps), name), t, has_aggregation=target.has_aggregation)
    method = METHODS.get(node.name)
    if method is None or not method_applies(node.name, target.type.kind):
        raise scope.fail(f"Failed to resolve method '{node.name}' on '{expr_text(node.target)}'")
    mfn, rt = method
    args = [compile_expr(a, scope) for a in node.args]
    fns = tuple(a.fn for a in args)

    def call_method(eps):
        v = tf(eps)
        if v is None:
            return None
        try:
            return mfn(v, *[g(eps) for g in fns])
        except (TypeError, IndexError, AttributeError, ValueError):
            return None
    return _fold(call_method, rt, [target] + args)


@compiles(A.NamedArg)
def _named(node: A.NamedArg, scope: Scope) -> Compiled:
    raise scope.fail(f"Named parameter '{node.name}:' is only allowed inside an aggregation function")


def compile_predicate(node: A.Expr, scope: Scope) -> Callable[[Any], bool]:
    """A where/filter clause: only True passes (null and false do not)."""
    c = compile_expr(node, scope)
    if c.type.kind not in (EPLType.BOOLEAN, EPLType.OBJECT):
        raise scope.fail(f"The expression '{expr_text(node)}' must return a boolean value, "
                         f"it returns '{c.type}'")
    f = c.fn
    return lambda eps: f(eps) is True


import epl.compiler.arithmetic as AR  # noqa: E402  (its compilers import this module's helpers)
