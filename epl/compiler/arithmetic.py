"""Arithmetic, bitwise, unary, concatenation and java.lang.Math compilers: Java's results
and Esper's compile-time type errors (docs/numbers.md)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.faults import evaluation_failed

import epl.ast as A
import epl.compiler.java_math as JM
import epl.compiler.operators as O
from .compiled import Compiled, constant
from epl.compiler.core import _fold, _str, compile_expr, compiles, expr_text
from .scope import Scope
from .typechecks import not_error


def _arith_type(op: A.BinOp, lt: PropertyType, rt: PropertyType, scope: Scope, node) -> PropertyType:
    for t in (lt, rt):
        if t.kind not in T.NUMERIC_RANK and t.kind is not EPLType.OBJECT:
            raise scope.fail(f"Implicit conversion from datatype '{java_type_name(t)}' to numeric "
                             f"is not allowed for operator '{op.value}'")
    if op is A.BinOp.DIV:
        if T.DECIMAL in (lt, rt):
            return T.DECIMAL
        return T.DOUBLE
    return T.promote(lt, rt)


_PY_OPS = {A.BinOp.ADD: lambda a, b: a + b, A.BinOp.SUB: lambda a, b: a - b,
           A.BinOp.MUL: lambda a, b: a * b, A.BinOp.DIV: O.divide, A.BinOp.MOD: O.modulo}


def _wrapper(t: PropertyType) -> Any:
    """Java's overflow for an integral result type: int (byte and short widen to int) and long
    wrap in two's complement; BigInteger and the floating types do not."""
    if t.kind in (EPLType.INT, EPLType.SHORT, EPLType.BYTE):
        return JM.wrap_int
    if t.kind is EPLType.LONG:
        return JM.wrap_long
    return None


def _to_decimal(v: Any) -> Decimal:
    if type(v) is Decimal:
        return v
    if isinstance(v, float):
        return Decimal(repr(v))
    return Decimal(v)


def compile_arith(node: A.BinaryOp, scope: Scope, l: Compiled, r: Compiled) -> Compiled:
    """+ - * / % with Esper's semantics (operators.py): null in, null out; `/` is a double
    division (x/0 is +-Infinity or NaN); int and long results wrap as Java's."""
    op = node.op
    t = _arith_type(op, l.type, r.type, scope, node)
    lf, rf = l.fn, r.fn
    if t.kind in (EPLType.BYTE, EPLType.SHORT):
        t = T.INT                       # Java's binary numeric promotion
    wrap = _wrapper(t) if op is not A.BinOp.DIV else None
    if t.kind is EPLType.DECIMAL:
        # BigDecimal arithmetic: both operands as decimal.Decimal (Python refuses Decimal
        # with float); a double converts through its shortest decimal form, as
        # BigDecimal.valueOf does
        pyop = _PY_OPS[op]

        def f(eps):
            a = lf(eps)
            if a is None:
                return None
            b = rf(eps)
            if b is None:
                return None
            try:
                return pyop(_to_decimal(a), _to_decimal(b))
            except (TypeError, ValueError, ArithmeticError):
                return None
        return _fold(f, T.DECIMAL, [l, r])
    if EPLType.OBJECT in (l.type.kind, r.type.kind):
        # an object-typed operand may hold anything: a non-number makes the result null
        pyop = _PY_OPS[op]
        engine = getattr(scope.services, "engine", None)
        text = expr_text(node)

        def f(eps):
            a = lf(eps)
            if a is None:
                return None
            b = rf(eps)
            if b is None:
                return None
            try:
                return pyop(a, b)
            except (TypeError, ValueError, ArithmeticError) as exc:
                evaluation_failed(engine, text, exc)
                return None
        return _fold(f, t, [l, r])
    if op is A.BinOp.ADD:
        def f(eps):
            a = lf(eps)
            if a is None:
                return None
            b = rf(eps)
            return None if b is None else a + b
    elif op is A.BinOp.SUB:
        def f(eps):
            a = lf(eps)
            if a is None:
                return None
            b = rf(eps)
            return None if b is None else a - b
    elif op is A.BinOp.MUL:
        def f(eps):
            a = lf(eps)
            if a is None:
                return None
            b = rf(eps)
            return None if b is None else a * b
    elif op is A.BinOp.DIV:
        def f(eps):
            a = lf(eps)
            if a is None:
                return None
            b = rf(eps)
            return None if b is None else O.divide(a, b)
    else:  # MOD
        def f(eps):
            a = lf(eps)
            if a is None:
                return None
            b = rf(eps)
            return None if b is None else O.modulo(a, b)
    if wrap is not None:
        f = _wrapped(op, lf, rf, f, wrap)
    return _fold(f, t, [l, r])


def _wrapped(op: A.BinOp, lf: Any, rf: Any, plain: Any, wrap: Any) -> Any:
    """An int/long operation that wraps as Java's; + - * inline the range check (one chained
    comparison in the common case), % (in range unless MIN % -1, which Python gets right)
    keeps its plain form behind one."""
    lo, hi = (JM.INT_MIN, JM.INT_MAX) if wrap is JM.wrap_int else (JM.LONG_MIN, JM.LONG_MAX)
    if op is A.BinOp.ADD:
        def f(eps):
            a = lf(eps)
            if a is None:
                return None
            b = rf(eps)
            if b is None:
                return None
            v = a + b
            return v if lo <= v <= hi else wrap(v)
    elif op is A.BinOp.SUB:
        def f(eps):
            a = lf(eps)
            if a is None:
                return None
            b = rf(eps)
            if b is None:
                return None
            v = a - b
            return v if lo <= v <= hi else wrap(v)
    elif op is A.BinOp.MUL:
        def f(eps):
            a = lf(eps)
            if a is None:
                return None
            b = rf(eps)
            if b is None:
                return None
            v = a * b
            return v if lo <= v <= hi else wrap(v)
    else:
        def f(eps):
            v = plain(eps)
            return v if v is None or lo <= v <= hi else wrap(v)
    return f


_BITWISE = {A.BinOp.BAND: lambda a, b: a & b, A.BinOp.BOR: lambda a, b: a | b,
            A.BinOp.BXOR: lambda a, b: a ^ b}


def compile_bitwise(node: A.BinaryOp, scope: Scope, l: Compiled, r: Compiled) -> Compiled:
    """& | ^ as Esper validates them: boolean or integral operands of one and the same type."""
    sym = {A.BinOp.BAND: "&", A.BinOp.BOR: "|", A.BinOp.BXOR: "^"}[node.op]
    for c in (l, r):
        k = c.type.kind
        if k is not EPLType.OBJECT and k is not EPLType.BOOLEAN and not c.type.is_numeric:
            raise scope.fail(f"Invalid datatype for binary operator, "
                             f"{java_type_name(c.type)} is not allowed")
    kinds = {l.type.kind, r.type.kind} - {EPLType.OBJECT}
    if kinds & {EPLType.FLOAT, EPLType.DOUBLE, EPLType.DECIMAL}:
        raise scope.fail(f"Invalid type for bitwise {sym} operator")
    if len(kinds) > 1:
        raise scope.fail(f"Bitwise expressions must be of the same type for bitwise {sym} operator")
    bit = _BITWISE[node.op]
    lf, rf = l.fn, r.fn
    guarded = EPLType.OBJECT in (l.type.kind, r.type.kind)
    engine = getattr(scope.services, "engine", None)
    text = expr_text(node)

    def bitwise(eps):
        a, b = lf(eps), rf(eps)
        if a is None or b is None:
            return None
        if not guarded:
            return bit(a, b)
        try:
            return bit(a, b)
        except TypeError as exc:        # an object-typed operand holding a non-integer
            evaluation_failed(engine, text, exc)
            return None
    t = l.type if l.type.kind is not EPLType.OBJECT else r.type
    return _fold(bitwise, t, [l, r])


def compile_concat(node: A.BinaryOp, scope: Scope, l: Compiled, r: Compiled) -> Compiled:
    """`a || b`: strings only, as Esper validates it; a null operand gives null."""
    lf, rf = l.fn, r.fn
    for c in (l, r):
        if c.type.kind not in (EPLType.STRING, EPLType.OBJECT) and not (c.is_constant and c.constant is None):
            raise scope.fail(f"Implicit conversion from datatype '{java_type_name(c.type)}' "
                             f"to string is not allowed")

    def concat(eps):
        a = lf(eps)
        if a is None:
            return None                 # Esper: null || 'x' is null
        b = rf(eps)
        return None if b is None else _str(a) + _str(b)
    return _fold(concat, T.STRING, [l, r])


@compiles(A.UnaryOp)
def _unary(node: A.UnaryOp, scope: Scope) -> Compiled:
    c = compile_expr(node.operand, scope)
    f0 = c.fn
    if node.op is A.UnOp.NOT:
        error = not_error(c)
        if error is not None:
            raise scope.fail(error)
        return _fold(lambda eps: O.not3(f0(eps)), T.BOOLEAN, [c])
    if node.op is A.UnOp.NEG:
        k = c.type.kind
        if not c.type.is_numeric and k is not EPLType.OBJECT:
            raise scope.fail(f"Implicit conversion from datatype '{java_type_name(c.type)}' to "
                             f"numeric is not allowed for operator '-'")
        wrap = _wrapper(c.type)
        t = T.INT if k in (EPLType.BYTE, EPLType.SHORT) else c.type
        if k is EPLType.OBJECT:
            engine = getattr(scope.services, "engine", None)
            text = expr_text(node)

            def neg(eps):
                v = f0(eps)
                if v is None:
                    return None
                try:
                    return -v
                except TypeError as exc:
                    evaluation_failed(engine, text, exc)
                    return None
        elif wrap is not None:
            def neg(eps):
                v = f0(eps)
                return None if v is None else wrap(-v)     # -MIN_VALUE is MIN_VALUE
        else:
            def neg(eps):
                v = f0(eps)
                return None if v is None else -v
        return _fold(neg, t, [c])
    if node.op is A.UnOp.POS:
        return c
    # ~x: Java's bitwise complement, integral operands only
    if not (c.type.is_integral or c.type.kind is EPLType.OBJECT):
        raise scope.fail(f"Invalid type for bitwise ~ operator: {java_type_name(c.type)}")

    def complement(eps):
        v = f0(eps)
        if v is None:
            return None
        try:
            return ~v
        except TypeError:
            return None
    return _fold(complement, c.type, [c])


def java_math(node: A.Dot, scope: Scope) -> Compiled:
    if node.args is None:
        if node.name in JM.CONSTANTS:
            return constant(JM.CONSTANTS[node.name], T.DOUBLE)
        raise scope.fail(f"Failed to resolve property 'Math.{node.name}': no such public static "
                         f"field in class 'java.lang.Math'")
    args = [compile_expr(a, scope) for a in node.args]
    types = [a.type for a in args]
    spec = JM.FUNCTIONS.get(node.name)
    bad = spec is None or spec.arity != len(args) or any(
        not (t.is_numeric or t.kind is EPLType.OBJECT) for t in types) or (
        node.name in JM.INTEGRAL_ONLY and any(t.kind in (EPLType.FLOAT, EPLType.DOUBLE,
                                                         EPLType.DECIMAL) for t in types))
    if bad:
        raise scope.fail(f"Failed to resolve method 'Math.{node.name}': Could not find static "
                         f"method named '{node.name}' in class 'java.lang.Math' with matching "
                         f"parameter number and expected parameter type(s) "
                         f"'{', '.join(java_type_name(t) for t in types)}'")
    fn = spec.choose(types)
    fns = tuple(a.fn for a in args)
    text = expr_text(node)

    def math_call(eps):
        vals = [g(eps) for g in fns]
        for v in vals:
            if v is None:
                return None
        try:
            return fn(*vals)
        except (TypeError, ValueError, OverflowError, ArithmeticError) as exc:
            # only an object-typed argument holding a non-number gets here
            evaluation_failed(getattr(scope.services, "engine", None), text, exc)
            return None
    if node.name == "random":
        return Compiled(math_call, spec.result(types))
    return _fold(math_call, spec.result(types), args)


def java_type_name(t: PropertyType) -> str:
    return {EPLType.STRING: "String", EPLType.INT: "Integer", EPLType.LONG: "Long",
            EPLType.DOUBLE: "Double", EPLType.FLOAT: "Float", EPLType.BOOLEAN: "Boolean",
            EPLType.OBJECT: "Object", EPLType.DECIMAL: "BigDecimal", EPLType.BIGINT: "BigInteger",
            EPLType.SHORT: "Short", EPLType.BYTE: "Byte"}.get(t.kind, str(t))
