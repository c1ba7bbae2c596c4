"""The enumeration methods of Esper's reference, each compiled once into a closure over the
input collection: `build(name, source, args, scope)`. Null input collections give null;
lambdas take (element), (element, index) or (element, index, size) as Esper allows."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Optional, Sequence

from engine import epl_types as T
from engine.bean import EventBean
from engine.epl_types import EPLType, PropertyType

from ... import ast as A
from ..compiled import Compiled
from ..expressions import compile_expr
from .lambdas import arity, compile_lambda, compile_lambda_parts
from .sources import Source, compile_source

Builder = Callable[[str, Source, Sequence[A.Expr], Any], tuple[Callable[[tuple, Any], Any], PropertyType]]
_INT = T.INT


def build(name: str, src: Source, args: Sequence[A.Expr], scope: Any, text: str) -> Compiled:
    """Compile `source.name(args)`. The closure gets `eps`, evaluates the source once and runs
    the method; lambdas see `eps` extended with their parameters."""
    key = name.lower()
    builder = METHODS[key]
    run, rtype = builder(_CANONICAL[key], src, list(args), scope)
    sfn = src.fn

    def method(eps, _s=sfn, _r=run):
        coll = _s(eps)
        if coll is None:
            return None
        return _r(eps if type(eps) is tuple else tuple(eps), coll)
    return Compiled(method, rtype, has_aggregation=src.has_aggregation)


# -- helpers ----------------------------------------------------------------------------------

def _values(lam: A.Lambda, src: Source, scope: Any, method: str, low: int = 1, high: int = 3):
    """Compile a (element[, index[, size]]) lambda: `each(base, coll)` yields its value per
    element, lazily; also its result type and parameter count."""
    each, t, n, _ = _values_fn(lam, src, scope, method, low, high)
    return each, t, n


def _values_fn(lam: A.Lambda, src: Source, scope: Any, method: str, low: int = 1, high: int = 3):
    """As `_values`, plus the lambda's own closure (on `base + (element,)` when it takes one
    parameter) for the methods' one-parameter fast paths."""
    n = arity(lam, low, high, method, scope)
    c, elem = compile_lambda_parts(lam, [src.elem, _INT, _INT][:n], scope)
    f = c.fn
    each = _each(f, n)
    if elem is not None and src.events:
        # elements are events (sources make them so): the element function applies
        def each(base, coll, _g=elem):
            return map(_g, coll)
        each.elem = elem
    return each, c.type, n, f


def _each(f, n):
    if n == 1:
        def each(base, coll):
            return (f(base + (v,)) for v in coll)
        each.one = f       # methods with a one-parameter fast path call it directly
    elif n == 2:
        def each(base, coll):
            return (f(base + (v, i)) for i, v in enumerate(coll))
    else:
        def each(base, coll):
            s = len(coll)
            return (f(base + (v, i, s)) for i, v in enumerate(coll))
    return each


def _no_args(method: str, args: Sequence[A.Expr], scope: Any, most: int = 0) -> None:
    if len(args) > most:
        raise scope.fail(f"Failed to validate enumeration method '{method}', expected "
                         f"{most} parameter(s) but received {len(args)}")


def _scalar_only(method: str, src: Source, scope: Any) -> None:
    if src.events:
        raise scope.fail(f"Invalid input for built-in enumeration method '{method}' and 0-parameter "
                         f"footprint, expecting collection of values (typically scalar values) as "
                         f"input, received collection of events of type '{src.elem.event_type.name}'")


def _identity(base, coll):
    return iter(coll)


def _each_or_self(method: str, src: Source, args: Sequence[A.Expr], scope: Any):
    """The values a method works on: the lambda's results, or the (scalar) elements."""
    if args:
        _no_args(method, args, scope, 1)
        each, t, _ = _values(args[0], src, scope, method)
        return each, t
    _scalar_only(method, src, scope)
    return _identity, src.elem


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    return v


def _lt(a: Any, b: Any) -> bool:
    try:
        return a < b
    except TypeError:
        return False


# -- filtering and projection ---------------------------------------------------------------------

def _where(name, src, args, scope):
    _no_args(name, args, scope, 1)
    if not args:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected a lambda expression")
    each, _, n, f = _values_fn(args[0], src, scope, name)
    g = getattr(each, "elem", None)
    if g is not None:
        return (lambda base, coll: [v for v in coll if g(v) is True]), T.array_of(src.elem)
    if n == 1:
        return (lambda base, coll: [v for v in coll if f(base + (v,)) is True]), T.array_of(src.elem)
    return (lambda base, coll: [v for v, r in zip(coll, each(base, coll)) if r is True]), T.array_of(src.elem)


def _select_from(name, src, args, scope):
    _no_args(name, args, scope, 1)
    if not args:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected a lambda expression")
    each, t, _ = _values(args[0], src, scope, name)
    # Esper leaves null results out of the projection
    return (lambda base, coll: [r for r in each(base, coll) if r is not None]), T.array_of(t)


def _count_of(name, src, args, scope):
    _no_args(name, args, scope, 1)
    if not args:
        return (lambda base, coll: len(coll)), _INT
    each, _, _ = _values(args[0], src, scope, name)
    return (lambda base, coll: sum(1 for r in each(base, coll) if r is True)), _INT


def _all_of(name, src, args, scope):
    _no_args(name, args, scope, 1)
    each, _, _ = _values(args[0], src, scope, name)

    def all_of(base, coll):
        for r in each(base, coll):
            if r is not True:
                return False
        return True
    return all_of, T.BOOLEAN


def _any_of(name, src, args, scope):
    _no_args(name, args, scope, 1)
    each, _, _ = _values(args[0], src, scope, name)

    def any_of(base, coll):
        for r in each(base, coll):
            if r is True:
                return True
        return False
    return any_of, T.BOOLEAN


def _first_of(name, src, args, scope):
    _no_args(name, args, scope, 1)
    if not args:
        return (lambda base, coll: coll[0] if coll else None), src.elem
    each, _, _ = _values(args[0], src, scope, name)

    def first_of(base, coll):
        for v, r in zip(coll, each(base, coll)):
            if r is True:
                return v
        return None
    return first_of, src.elem


def _last_of(name, src, args, scope):
    _no_args(name, args, scope, 1)
    if not args:
        return (lambda base, coll: coll[-1] if coll else None), src.elem
    each, _, _ = _values(args[0], src, scope, name)

    def last_of(base, coll):
        found = None
        for v, r in zip(coll, each(base, coll)):
            if r is True:
                found = v
        return found
    return last_of, src.elem


def _array_of(name, src, args, scope):
    each, t = _each_or_self_any(name, src, args, scope)
    return (lambda base, coll: list(each(base, coll))), T.array_of(t)


def _each_or_self_any(name, src, args, scope):
    if args:
        _no_args(name, args, scope, 1)
        each, t, _ = _values(args[0], src, scope, name)
        return each, t
    return _identity, src.elem


# -- aggregates -----------------------------------------------------------------------------------

def _sum_type(t: PropertyType) -> PropertyType:
    if t.kind in (EPLType.BYTE, EPLType.SHORT):
        return _INT
    if t.kind is EPLType.FLOAT:
        return T.DOUBLE
    return t if t.is_numeric else T.OBJECT


def _sum_of(name, src, args, scope):
    each, t = _each_or_self(name, src, args, scope)
    _numeric(name, t, scope)
    g = getattr(each, "elem", None)
    if g is not None:
        def sum_elem(base, coll):
            total = None
            for r in map(g, coll):
                if r is not None:
                    total = r if total is None else total + r
            return total
        return sum_elem, _sum_type(t)
    f = getattr(each, "one", None)
    if f is not None:
        def sum_one(base, coll):
            total = None
            for v in coll:
                r = f(base + (v,))
                if r is not None:
                    total = r if total is None else total + r
            return total
        return sum_one, _sum_type(t)

    def sum_of(base, coll):
        total = None
        for r in each(base, coll):
            if r is None:
                continue
            total = r if total is None else total + r
        return total
    return sum_of, _sum_type(t)


def _numeric(name: str, t: PropertyType, scope: Any) -> None:
    if not t.is_numeric and t.kind is not EPLType.OBJECT:
        raise scope.fail(f"Invalid input for built-in enumeration method '{name}', expecting "
                         f"collection of numeric values as input, received {t}")


def _average(name, src, args, scope):
    each, t = _each_or_self(name, src, args, scope)
    _numeric(name, t, scope)
    if t.kind is EPLType.DECIMAL:
        def average_decimal(base, coll):
            total, n = Decimal(0), 0
            for r in each(base, coll):
                if r is not None:
                    total += r if isinstance(r, Decimal) else Decimal(str(r))
                    n += 1
            return total / n if n else None
        return average_decimal, T.DECIMAL

    def average(base, coll):
        total, n = 0.0, 0
        for r in each(base, coll):
            if r is not None:
                total += float(r)     # Esper adds as doubles, in order
                n += 1
        return total / n if n else None
    return average, T.DOUBLE


def _min_max(largest: bool):
    def build(name, src, args, scope):
        each, t = _each_or_self(name, src, args, scope)

        def extreme(base, coll):
            best = None
            for r in each(base, coll):
                if r is None:
                    continue
                if best is None or (_lt(best, r) if largest else _lt(r, best)):
                    best = r
            return best
        return extreme, t
    return build


def _by(largest: bool):
    def build(name, src, args, scope):
        _no_args(name, args, scope, 1)
        if not args:
            raise scope.fail(f"Failed to validate enumeration method '{name}', expected a lambda expression")
        each, _, _ = _values(args[0], src, scope, name)

        def extreme_by(base, coll):
            best = best_key = None
            for v, k in zip(coll, each(base, coll)):
                if k is None:
                    continue
                if best_key is None or (_lt(best_key, k) if largest else _lt(k, best_key)):
                    best, best_key = v, k
            return best
        return extreme_by, src.elem
    return build


def _frequent(most: bool):
    def build(name, src, args, scope):
        each, t = _each_or_self(name, src, args, scope)

        def frequent(base, coll):
            counts: dict = {}
            firsts: dict = {}
            for r in each(base, coll):
                h = _hashable(r)
                counts[h] = counts.get(h, 0) + 1
                firsts.setdefault(h, r)
            best, best_n = None, None
            for h, n in counts.items():      # first seen wins ties (insertion order)
                if best_n is None or (n > best_n if most else n < best_n):
                    best, best_n = firsts[h], n
            return best
        return frequent, t
    return build


def _aggregate(name, src, args, scope):
    if len(args) != 2:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected an initial "
                         f"value and a lambda expression")
    seed = compile_expr(args[0], scope)
    if seed.is_constant and seed.constant is None:
        raise scope.fail("Initialization value is null-typed")
    n = arity(args[1], 2, 4, name, scope)
    c = compile_lambda(args[1], [seed.type, src.elem, _INT, _INT][:n], scope)
    f, sf = c.fn, seed.fn
    rtype = seed.type
    if rtype.is_numeric and c.type.is_numeric:
        rtype = T.promote(rtype, c.type)

    def aggregate(base, coll):
        result = sf(base)
        s = len(coll)
        for i, v in enumerate(coll):
            ext = (result, v, i, s)[:n]
            result = f(base + ext)
        return result
    return aggregate, rtype


# -- ordering and slicing -----------------------------------------------------------------------

def _sort_key(k: Any) -> tuple:
    # null sorts first; values of one kind compare as themselves
    if k is None:
        return (0, 0)
    if k != k:
        return (2, 0)
    return (1, k)


def _order(descending: bool):
    def build(name, src, args, scope):
        if args:
            _no_args(name, args, scope, 1)
            each, _, _ = _values(args[0], src, scope, name)
        else:
            _scalar_only(name, src, scope)
            each = _identity

        def order(base, coll):
            keyed = [(_sort_key(k), v) for k, v in zip(each(base, coll), coll)]
            try:
                keyed.sort(key=lambda kv: kv[0], reverse=descending)   # stable both ways
            except TypeError:
                return list(coll)
            return [v for _, v in keyed]
        return order, T.array_of(src.elem)
    return build


def _reverse(name, src, args, scope):
    _no_args(name, args, scope)
    return (lambda base, coll: list(reversed(coll))), T.array_of(src.elem)


def _count_arg(name, args, scope):
    if len(args) != 1:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected 1 parameter(s) "
                         f"but received {len(args)}")
    c = compile_expr(args[0], scope)
    if c.is_constant and c.constant is None:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected a non-null "
                         f"result for expression parameter 0 but received a null-typed expression")
    return c.fn


def _take(name, src, args, scope):
    nf = _count_arg(name, args, scope)

    def take(base, coll):
        n = nf(base)
        if n is None:
            return None
        n = int(n)
        return list(coll[:n]) if n > 0 else []
    return take, T.array_of(src.elem)


def _take_last(name, src, args, scope):
    nf = _count_arg(name, args, scope)

    def take_last(base, coll):
        n = nf(base)
        if n is None:
            return None
        n = int(n)
        return list(coll[-n:]) if n > 0 else []
    return take_last, T.array_of(src.elem)


def _take_while(name, src, args, scope):
    _no_args(name, args, scope, 1)
    each, _, _ = _values(args[0], src, scope, name)

    def take_while(base, coll):
        out = []
        for v, r in zip(coll, each(base, coll)):
            if r is not True:
                break
            out.append(v)
        return out
    return take_while, T.array_of(src.elem)


def _take_while_last(name, src, args, scope):
    _no_args(name, args, scope, 1)
    each, _, _ = _values(args[0], src, scope, name)

    def take_while_last(base, coll):
        # the index counts from the last element (Esper walks the collection backwards)
        backwards = list(reversed(coll))
        n = 0
        for r in each(base, backwards):
            if r is not True:
                break
            n += 1
        return list(coll[len(coll) - n:]) if n else []
    return take_while_last, T.array_of(src.elem)


def _distinct_of(name, src, args, scope):
    if args:
        _no_args(name, args, scope, 1)
        each, _, _ = _values(args[0], src, scope, name)
    else:
        each = _identity

    def distinct_of(base, coll):
        seen: set = set()
        seen_list: list = []
        out = []
        for v, k in zip(coll, each(base, coll)):
            h = _hashable(k)
            try:
                if h in seen:
                    continue
                seen.add(h)
            except TypeError:
                if h in seen_list:
                    continue
                seen_list.append(h)
            out.append(v)
        return out
    return distinct_of, T.array_of(src.elem)


# -- set logic ------------------------------------------------------------------------------------

def _other(name, src, args, scope) -> Source:
    if len(args) != 1:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected 1 parameter(s) "
                         f"but received {len(args)}")
    other = compile_source(args[0], scope)
    if other is None:
        what = f"events of type '{src.elem.event_type.name}'" if src.events else \
            f"values of type '{src.elem}'"
        raise scope.fail(f"Enumeration method '{name}' requires an expression yielding a "
                         f"collection of {what} as input parameter")
    if src.events and other.events and other.elem.event_type is not src.elem.event_type and \
            not other.elem.event_type.is_subtype_of(src.elem.event_type):
        raise scope.fail(f"Enumeration method '{name}' expects event type "
                         f"'{src.elem.event_type.name}' but receives event type "
                         f"'{other.elem.event_type.name}'")
    return other


def _same(a: Any, b: Any) -> bool:
    """Events are the same event (or have equal underlying objects); values are equal."""
    if a is b:
        return True
    if isinstance(a, EventBean) and isinstance(b, EventBean):
        return a.underlying is b.underlying or a.underlying == b.underlying
    return a == b


def _contains(items: Sequence[Any], v: Any) -> bool:
    for x in items:
        if _same(v, x):
            return True
    return False


def _set_op(kind: str):
    def build(name, src, args, scope):
        other = _other(name, src, args, scope).fn
        keep_null = src.events     # Esper keeps null events in an intersection, not null values

        def set_op(base, coll):
            o = other(base)
            if not o or not coll:       # Esper returns the input as it is then
                return list(coll) if kind != "union" or not o else list(o)
            if kind == "union":
                return list(coll) + list(o)
            if kind == "except":
                return [v for v in coll if not _contains(o, v)]
            return [v for v in coll if (keep_null and v is None) or _contains(o, v)]
        return set_op, T.array_of(src.elem)
    return build


def _sequence_equal(name, src, args, scope):
    other = _other(name, src, args, scope).fn

    def sequence_equal(base, coll):
        o = other(base)
        if o is None or len(o) != len(coll):
            return False
        return all(_same(a, b) for a, b in zip(coll, o))
    return sequence_equal, T.BOOLEAN


# -- maps -----------------------------------------------------------------------------------------

def _group_by(name, src, args, scope):
    if not 1 <= len(args) <= 2:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected a key selector "
                         f"and an optional value selector")
    keys, _, _ = _values(args[0], src, scope, name)
    vals = _values(args[1], src, scope, name)[0] if len(args) == 2 else _identity

    def group_by(base, coll):
        out: dict = {}
        for k, v in zip(keys(base, coll), vals(base, coll)):
            h = _hashable(k)
            group = out.get(h)
            if group is None:
                out[h] = [v]
            else:
                group.append(v)
        return out
    return group_by, T.MAP


def _to_map(name, src, args, scope):
    if len(args) != 2:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected a key selector "
                         f"and a value selector")
    keys, _, _ = _values(args[0], src, scope, name)
    vals, _, _ = _values(args[1], src, scope, name)

    def to_map(base, coll):
        return {_hashable(k): v for k, v in zip(keys(base, coll), vals(base, coll))}
    return to_map, T.MAP


METHODS: dict[str, Callable[..., Any]] = {
    "aggregate": _aggregate, "allof": _all_of, "anyof": _any_of, "arrayof": _array_of,
    "average": _average, "countof": _count_of, "distinctof": _distinct_of,
    "except": _set_op("except"), "firstof": _first_of, "groupby": _group_by,
    "intersect": _set_op("intersect"), "lastof": _last_of, "leastfrequent": _frequent(False),
    "max": _min_max(True), "maxby": _by(True), "min": _min_max(False), "minby": _by(False),
    "mostfrequent": _frequent(True), "orderby": _order(False), "orderbydesc": _order(True),
    "reverse": _reverse, "selectfrom": _select_from, "sequenceequal": _sequence_equal,
    "sumof": _sum_of, "take": _take, "takelast": _take_last, "takewhile": _take_while,
    "takewhilelast": _take_while_last, "tomap": _to_map, "union": _set_op("union"),
    "where": _where,
}

# Esper's spelling of each method, for messages
_CANONICAL = {n.lower(): n for n in (
    "aggregate", "allOf", "anyOf", "arrayOf", "average", "countOf", "distinctOf", "except",
    "firstOf", "groupBy", "intersect", "lastOf", "leastFrequent", "max", "maxBy", "min", "minBy",
    "mostFrequent", "orderBy", "orderByDesc", "reverse", "selectFrom", "sequenceEqual", "sumOf",
    "take", "takeLast", "takeWhile", "takeWhileLast", "toMap", "union", "where")}
