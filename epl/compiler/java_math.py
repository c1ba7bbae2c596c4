"""java.lang.Math as Esper users call it (`Math.sqrt(x)`): Java's results, never Python's errors.

Every function returns what Java returns for the same arguments: NaN for a domain error
(`Math.sqrt(-1)`, `Math.acos(2)`), signed infinities for poles and overflow (`Math.log(0)`,
`Math.exp(1000)`), int/long overloads that wrap on overflow (`Math.abs(Integer.MIN_VALUE)`),
and null where Java throws an ArithmeticException (`Math.floorDiv(1, 0)`, `Math.addExact`
overflow), since Esper never lets such an exception out of the runtime. A null argument
gives null.
"""
from __future__ import annotations

import math
import random as _random
from fractions import Fraction
from typing import Any, Callable, Optional

import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType

INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1


def wrap_int(v: Any) -> Any:
    """Java's 32-bit two's complement of an integer result (other values unchanged)."""
    if type(v) is int and not INT_MIN <= v <= INT_MAX:
        return ((v - INT_MIN) & 0xFFFFFFFF) + INT_MIN
    return v


def wrap_long(v: Any) -> Any:
    """Java's 64-bit two's complement of an integer result (other values unchanged)."""
    if type(v) is int and not LONG_MIN <= v <= LONG_MAX:
        return ((v - LONG_MIN) & 0xFFFFFFFFFFFFFFFF) + LONG_MIN
    return v


def _d(x: Any) -> float:
    """A Java double argument: ints widen."""
    return x if type(x) is float else float(x)


def _finite(x: float) -> bool:
    return x - x == 0.0


# -- double -> double with Java's special values ----------------------------------------------

def _sqrt(x: Any) -> float:
    x = _d(x)
    return math.sqrt(x) if x >= 0 or x != x else math.nan


def _log(x: Any) -> float:
    x = _d(x)
    if x > 0:
        return math.log(x)
    return -math.inf if x == 0 else math.nan


def _log10(x: Any) -> float:
    x = _d(x)
    if x > 0:
        return math.log10(x)
    return -math.inf if x == 0 else math.nan


def _log1p(x: Any) -> float:
    x = _d(x)
    if x > -1:
        return math.log1p(x)
    return -math.inf if x == -1 else math.nan


def _overflowing(fn: Callable[[float], float], sign_of_input: bool) -> Callable[[Any], float]:
    """exp, expm1, cosh, sinh: overflow is +Infinity (sinh: the input's sign)."""
    def f(x: Any) -> float:
        x = _d(x)
        try:
            return fn(x)
        except OverflowError:
            return math.copysign(math.inf, x) if sign_of_input else math.inf
    return f


def _periodic(fn: Callable[[float], float]) -> Callable[[Any], float]:
    """sin, cos, tan: NaN for infinite arguments."""
    def f(x: Any) -> float:
        x = _d(x)
        return fn(x) if _finite(x) else math.nan
    return f


def _bounded(fn: Callable[[float], float]) -> Callable[[Any], float]:
    """acos, asin: NaN outside [-1, 1]."""
    def f(x: Any) -> float:
        x = _d(x)
        return fn(x) if -1.0 <= x <= 1.0 else math.nan
    return f


def _ceil(x: Any) -> float:
    x = _d(x)
    if not _finite(x) or x == 0:
        return x
    r = float(math.ceil(x))
    return -0.0 if r == 0 and x < 0 else r


def _floor(x: Any) -> float:
    x = _d(x)
    if not _finite(x) or x == 0:
        return x
    return float(math.floor(x))


def _rint(x: Any) -> float:
    x = _d(x)
    if not _finite(x) or x == 0:
        return x
    return math.copysign(float(round(x)), x)   # round() is half-even, as rint


def _round_to(lo: int, hi: int) -> Callable[[Any], int]:
    """Math.round: floor(x + 1/2) computed exactly; NaN is 0; out of range clamps."""
    def f(x: Any) -> int:
        if type(x) is int:
            return x
        x = _d(x)
        if x != x:
            return 0
        if x >= hi:
            return hi
        if x <= lo:
            return lo
        r = math.floor(x)
        return r + 1 if x - r >= 0.5 else r
    return f


def _signum(x: Any) -> float:
    x = _d(x)
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    return x                                    # NaN, 0.0 and -0.0 as they are


def _pow(a: Any, b: Any) -> float:
    a, b = _d(a), _d(b)
    if b == 0:
        return 1.0
    if b != b or (a != a):
        return math.nan
    if abs(a) == 1.0 and not _finite(b):
        return math.nan                         # Java; C's pow gives 1
    odd = _finite(b) and b == math.floor(b) and math.fmod(b, 2.0) != 0
    try:
        return math.pow(a, b)
    except ZeroDivisionError:
        return math.inf
    except ValueError:
        if a == 0:                              # 0 to a negative power: a pole
            return math.copysign(math.inf, a) if odd else math.inf
        return math.nan                         # a negative base, a non-integral power
    except OverflowError:
        return -math.inf if a < 0 and odd else math.inf


def _ieee_remainder(a: Any, b: Any) -> float:
    a, b = _d(a), _d(b)
    if a != a or b != b or not _finite(a) or b == 0:
        return math.nan
    if not _finite(b):
        return a
    return math.remainder(a, b)


def _get_exponent(x: Any) -> int:
    x = _d(x)
    if not _finite(x):
        return 1024
    if x == 0 or abs(x) < 2.2250738585072014e-308:
        return -1023
    return math.frexp(x)[1] - 1


def _fma(a: Any, b: Any, c: Any) -> float:
    a, b, c = _d(a), _d(b), _d(c)
    if not (_finite(a) and _finite(b) and _finite(c)):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    try:
        r = float(exact)                        # rounded once, as fma
    except OverflowError:
        return math.copysign(math.inf, exact)
    if r == 0:
        return a * b + c if exact == 0 else math.copysign(0.0, exact)
    return r


def _next_after(a: Any, b: Any) -> float:
    return math.nextafter(_d(a), _d(b))


def _double_max(a: Any, b: Any) -> float:
    a, b = _d(a), _d(b)
    if a != a or b != b:
        return math.nan
    if a == b == 0:
        return b if math.copysign(1, a) < 0 else a     # max(-0.0, 0.0) is 0.0
    return a if a > b else b


def _double_min(a: Any, b: Any) -> float:
    a, b = _d(a), _d(b)
    if a != a or b != b:
        return math.nan
    if a == b == 0:
        return a if math.copysign(1, a) < 0 else b     # min(-0.0, 0.0) is -0.0
    return a if a < b else b


# -- typed overloads ------------------------------------------------------------------------------

def _integral_kind(types: list[PropertyType]) -> Optional[EPLType]:
    """INT or LONG when every argument is integral (Java's int/long overloads), else None."""
    if not all(t.kind in T.INTEGRAL and t.kind is not EPLType.BIGINT for t in types):
        return None
    return EPLType.LONG if any(t.kind is EPLType.LONG for t in types) else EPLType.INT


def _numeric_result(types: list[PropertyType]) -> PropertyType:
    k = _integral_kind(types)
    if k is EPLType.INT:
        return T.INT
    if k is EPLType.LONG:
        return T.LONG
    if all(t.kind is EPLType.FLOAT or t.kind in T.INTEGRAL for t in types):
        return T.FLOAT
    return T.DOUBLE


def _by_kind(int_fn: Callable[..., Any], long_fn: Callable[..., Any],
             double_fn: Callable[..., Any]) -> Callable[[list[PropertyType]], Callable[..., Any]]:
    def choose(types: list[PropertyType]) -> Callable[..., Any]:
        k = _integral_kind(types)
        return int_fn if k is EPLType.INT else long_fn if k is EPLType.LONG else double_fn
    return choose


def _exact(op: Callable[..., int], lo: int, hi: int) -> Callable[..., Optional[int]]:
    """xxxExact: null where Java throws on overflow."""
    def f(*args: Any) -> Optional[int]:
        r = op(*args)
        return r if lo <= r <= hi else None
    return f


def _floor_div(lo: int, hi: int) -> Callable[[int, int], Optional[int]]:
    def f(a: int, b: int) -> Optional[int]:
        if b == 0:
            return None
        r = a // b
        return r if lo <= r <= hi else lo      # MIN_VALUE / -1 overflows to MIN_VALUE
    return f


def _floor_mod(a: int, b: int) -> Optional[int]:
    return None if b == 0 else a % b


def _fixed(fn: Callable[..., Any]) -> Callable[[list[PropertyType]], Callable[..., Any]]:
    return lambda types: fn


def _abs_int(x: int) -> int:
    return wrap_int(abs(x))


def _abs_long(x: int) -> int:
    return wrap_long(abs(x))


def _abs_double(x: Any) -> float:
    return abs(_d(x))


_INT_LIMITS = (INT_MIN, INT_MAX)
_LONG_LIMITS = (LONG_MIN, LONG_MAX)


class MathFunction:
    """One Math.* name: its parameter count, its implementation for the argument types, and
    its result type."""

    __slots__ = ("arity", "choose", "result")

    def __init__(self, arity: int, choose: Callable[[list[PropertyType]], Callable[..., Any]],
                 result: Callable[[list[PropertyType]], PropertyType]) -> None:
        self.arity = arity
        self.choose = choose
        self.result = result


def _double1(fn: Callable[[Any], Any]) -> MathFunction:
    return MathFunction(1, _fixed(fn), lambda ts: T.DOUBLE)


def _double2(fn: Callable[[Any, Any], Any]) -> MathFunction:
    return MathFunction(2, _fixed(fn), lambda ts: T.DOUBLE)


def _int_or_long(int_fn: Callable[..., Any], long_fn: Callable[..., Any], arity: int) -> MathFunction:
    """Java has only int and long overloads: doubles are refused at compile time."""
    def result(ts: list[PropertyType]) -> PropertyType:
        return T.INT if _integral_kind(ts) is EPLType.INT else T.LONG
    return MathFunction(arity, _by_kind(int_fn, long_fn, long_fn), result)


def _exact_pair(op: Callable[..., int], arity: int) -> MathFunction:
    return _int_or_long(_exact(op, *_INT_LIMITS), _exact(op, *_LONG_LIMITS), arity)


FUNCTIONS: dict[str, MathFunction] = {
    "abs": MathFunction(1, _by_kind(_abs_int, _abs_long, _abs_double), _numeric_result),
    "max": MathFunction(2, _by_kind(max, max, _double_max), _numeric_result),
    "min": MathFunction(2, _by_kind(min, min, _double_min), _numeric_result),
    "acos": _double1(_bounded(math.acos)),
    "asin": _double1(_bounded(math.asin)),
    "atan": _double1(lambda x: math.atan(_d(x))),
    "atan2": _double2(lambda y, x: math.atan2(_d(y), _d(x))),
    "cbrt": _double1(lambda x: math.cbrt(_d(x))),
    "ceil": _double1(_ceil),
    "floor": _double1(_floor),
    "rint": _double1(_rint),
    "cos": _double1(_periodic(math.cos)),
    "sin": _double1(_periodic(math.sin)),
    "tan": _double1(_periodic(math.tan)),
    "cosh": _double1(_overflowing(math.cosh, False)),
    "sinh": _double1(_overflowing(math.sinh, True)),
    "tanh": _double1(lambda x: math.tanh(_d(x))),
    "exp": _double1(_overflowing(math.exp, False)),
    "expm1": _double1(_overflowing(math.expm1, False)),
    "log": _double1(_log),
    "log10": _double1(_log10),
    "log1p": _double1(_log1p),
    "sqrt": _double1(_sqrt),
    "pow": _double2(_pow),
    "hypot": _double2(lambda a, b: math.hypot(_d(a), _d(b))),
    "IEEEremainder": _double2(_ieee_remainder),
    "signum": MathFunction(1, _fixed(_signum),
                           lambda ts: T.FLOAT if ts[0].kind is EPLType.FLOAT else T.DOUBLE),
    "toDegrees": _double1(lambda x: math.degrees(_d(x))),
    "toRadians": _double1(lambda x: math.radians(_d(x))),
    "ulp": _double1(lambda x: math.ulp(_d(x)) if _d(x) == _d(x) else math.nan),
    "nextUp": _double1(lambda x: math.nextafter(_d(x), math.inf)),
    "nextDown": _double1(lambda x: math.nextafter(_d(x), -math.inf)),
    "nextAfter": _double2(_next_after),
    "copySign": _double2(lambda a, b: math.copysign(_d(a), _d(b))),
    "scalb": _double2(lambda x, n: _overflowing(lambda v: math.ldexp(v, int(n)), True)(x)),
    "getExponent": MathFunction(1, _fixed(_get_exponent), lambda ts: T.INT),
    "fma": MathFunction(3, _fixed(_fma), lambda ts: T.DOUBLE),
    "round": MathFunction(1, lambda ts: _round_to(*_INT_LIMITS) if ts[0].kind is EPLType.FLOAT
                          else _round_to(*_LONG_LIMITS),
                          lambda ts: T.INT if ts[0].kind is EPLType.FLOAT else T.LONG),
    "random": MathFunction(0, _fixed(_random.random), lambda ts: T.DOUBLE),
    "floorDiv": _int_or_long(_floor_div(*_INT_LIMITS), _floor_div(*_LONG_LIMITS), 2),
    "floorMod": _int_or_long(_floor_mod, _floor_mod, 2),
    "addExact": _exact_pair(lambda a, b: a + b, 2),
    "subtractExact": _exact_pair(lambda a, b: a - b, 2),
    "multiplyExact": _exact_pair(lambda a, b: a * b, 2),
    "negateExact": _exact_pair(lambda a: -a, 1),
    "incrementExact": _exact_pair(lambda a: a + 1, 1),
    "decrementExact": _exact_pair(lambda a: a - 1, 1),
    "absExact": _exact_pair(abs, 1),
    "toIntExact": MathFunction(1, _fixed(_exact(lambda a: a, *_INT_LIMITS)), lambda ts: T.INT),
}

# Names whose parameters are int/long only in Java.
INTEGRAL_ONLY = frozenset({"floorDiv", "floorMod", "addExact", "subtractExact", "multiplyExact",
                           "negateExact", "incrementExact", "decrementExact", "absExact",
                           "toIntExact"})

CONSTANTS: dict[str, float] = {"PI": math.pi, "E": math.e}
