"""The enumeration methods of Esper's reference, each compiled once into a closure over the
input collection: `build(name, source, args, scope)`. Null input collections give null;
lambdas take (element), (element, index) or (element, index, size) as Esper allows."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Sequence

import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType

import epl.ast as A
from ..compiled import Compiled
from ..expressions import compile_expr
from .lambdas import arity, compile_lambda
from .setmaps import group_by, sequence_equal, set_op, to_map
from .sources import Source
from .values import each_or_self, hashable, identity, less, no_args, scalar_only, values, values_fn

_INT = T.INT


def build(name: str, src: Source, args: Sequence[A.Expr], scope: Any, text: str) -> Compiled:
    """Compile `source.name(args)`. The closure gets `eps`, evaluates the source once and runs
    the method; lambdas see `eps` extended with their parameters."""
    key = name.lower()
    builder = METHODS[key]
    run, rtype = builder(_CANONICAL[key], src, list(args), scope)
    if key in _ARITHMETIC and (src.elem.kind is EPLType.OBJECT or rtype.kind is EPLType.OBJECT):
        run = _null_on_mixed_values(run)
    sfn = src.fn

    def method(eps, _s=sfn, _r=run):
        coll = _s(eps)
        if coll is None:
            return None
        return _r(eps if type(eps) is tuple else tuple(eps), coll)
    return Compiled(method, rtype, has_aggregation=src.has_aggregation)


# Methods that add, compare or convert values: over untyped collections whose values do not
# add or compare (a string among numbers) they give null, never a Python error.
_ARITHMETIC = {"sumof", "average", "min", "max", "minby", "maxby", "orderby", "orderbydesc",
               "take", "takelast", "mostfrequent", "leastfrequent", "aggregate"}


def _null_on_mixed_values(run: Any) -> Any:
    def guarded(base, coll):
        try:
            return run(base, coll)
        except (TypeError, ValueError, ArithmeticError):
            return None
    return guarded


# -- filtering and projection ---------------------------------------------------------------------

def _fused_filter(g: Any) -> Any:
    """`where(v => v.p > c)` on map events as one comprehension (no call per element)."""
    prop = getattr(g, "prop", None)
    op = getattr(g, "op", None)
    if prop is None or op is None:
        return None
    c = g.const
    if op is A.BinOp.GT:
        return lambda base, coll, _n=prop, _c=c: [
            v for v in coll if v is not None and (x := v.underlying.get(_n)) is not None and x > _c]
    if op is A.BinOp.LT:
        return lambda base, coll, _n=prop, _c=c: [
            v for v in coll if v is not None and (x := v.underlying.get(_n)) is not None and x < _c]
    return lambda base, coll, _g=g: [v for v in coll if _g(v) is True]


def _where(name, src, args, scope):
    no_args(name, args, scope, 1)
    if not args:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected a lambda expression")
    each, _, n, f = values_fn(args[0], src, scope, name)
    g = getattr(each, "elem", None)
    fused = _fused_filter(g)
    if fused is not None:
        return fused, T.array_of(src.elem)
    if g is not None:
        return (lambda base, coll: [v for v in coll if g(v) is True]), T.array_of(src.elem)
    if n == 1:
        return (lambda base, coll: [v for v in coll if f(base + (v,)) is True]), T.array_of(src.elem)
    return (lambda base, coll: [v for v, r in zip(coll, each(base, coll)) if r is True]), T.array_of(src.elem)


def _select_from(name, src, args, scope):
    no_args(name, args, scope, 1)
    if not args:
        raise scope.fail(f"Failed to validate enumeration method '{name}', expected a lambda expression")
    each, t, _ = values(args[0], src, scope, name)
    # Esper leaves null results out of the projection
    return (lambda base, coll: [r for r in each(base, coll) if r is not None]), T.array_of(t)


def _count_of(name, src, args, scope):
    no_args(name, args, scope, 1)
    if not args:
        return (lambda base, coll: len(coll)), _INT
    each, _, _ = values(args[0], src, scope, name)
    return (lambda base, coll: sum(1 for r in each(base, coll) if r is True)), _INT


def _all_of(name, src, args, scope):
    no_args(name, args, scope, 1)
    each, _, _ = values(args[0], src, scope, name)

    def all_of(base, coll):
        for r in each(base, coll):
            if r is not True:
                return False
        return True
    return all_of, T.BOOLEAN


def _any_of(name, src, args, scope):
    no_args(name, args, scope, 1)
    each, _, _ = values(args[0], src, scope, name)

    def any_of(base, coll):
        for r in each(base, coll):
            if r is True:
                return True
        return False
    return any_of, T.BOOLEAN


def _first_of(name, src, args, scope):
    no_args(name, args, scope, 1)
    if not args:
        return (lambda base, coll: coll[0] if coll else None), src.elem
    each, _, _ = values(args[0], src, scope, name)

    def first_of(base, coll):
        for v, r in zip(coll, each(base, coll)):
            if r is True:
                return v
        return None
    return first_of, src.elem


def _last_of(name, src, args, scope):
    no_args(name, args, scope, 1)
    if not args:
        return (lambda base, coll: coll[-1] if coll else None), src.elem
    each, _, _ = values(args[0], src, scope, name)

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
        no_args(name, args, scope, 1)
        each, t, _ = values(args[0], src, scope, name)
        return each, t
    return identity, src.elem


# -- aggregates -----------------------------------------------------------------------------------

def _sum_type(t: PropertyType) -> PropertyType:
    if t.kind in (EPLType.BYTE, EPLType.SHORT):
        return _INT
    if t.kind is EPLType.FLOAT:
        return T.DOUBLE
    return t if t.is_numeric else T.OBJECT


def _sum_of(name, src, args, scope):
    each, t = each_or_self(name, src, args, scope)
    _numeric(name, t, scope)
    g = getattr(each, "elem", None)
    prop = getattr(g, "prop", None)
    if prop is not None and getattr(g, "op", None) is None:
        def sum_prop(base, coll, _n=prop):
            # `sumOf(v => v.p)` on map events: the read fused into the loop
            total = None
            for v in coll:
                if v is not None:
                    r = v.underlying.get(_n)
                    if r is not None:
                        total = r if total is None else total + r
            return total
        return sum_prop, _sum_type(t)
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
    each, t = each_or_self(name, src, args, scope)
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
        each, t = each_or_self(name, src, args, scope)

        def extreme(base, coll):
            best = None
            for r in each(base, coll):
                if r is None:
                    continue
                if best is None or (less(best, r) if largest else less(r, best)):
                    best = r
            return best
        return extreme, t
    return build


def _by(largest: bool):
    def build(name, src, args, scope):
        no_args(name, args, scope, 1)
        if not args:
            raise scope.fail(f"Failed to validate enumeration method '{name}', expected a lambda expression")
        each, _, _ = values(args[0], src, scope, name)

        def extreme_by(base, coll):
            best = best_key = None
            for v, k in zip(coll, each(base, coll)):
                if k is None:
                    continue
                if best_key is None or (less(best_key, k) if largest else less(k, best_key)):
                    best, best_key = v, k
            return best
        return extreme_by, src.elem
    return build


def _frequent(most: bool):
    def build(name, src, args, scope):
        each, t = each_or_self(name, src, args, scope)

        def frequent(base, coll):
            counts: dict = {}
            firsts: dict = {}
            for r in each(base, coll):
                h = hashable(r)
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
            no_args(name, args, scope, 1)
            each, _, _ = values(args[0], src, scope, name)
        else:
            scalar_only(name, src, scope)
            each = identity

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
    no_args(name, args, scope)
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
    no_args(name, args, scope, 1)
    each, _, _ = values(args[0], src, scope, name)

    def take_while(base, coll):
        out = []
        for v, r in zip(coll, each(base, coll)):
            if r is not True:
                break
            out.append(v)
        return out
    return take_while, T.array_of(src.elem)


def _take_while_last(name, src, args, scope):
    no_args(name, args, scope, 1)
    each, _, _ = values(args[0], src, scope, name)

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
        no_args(name, args, scope, 1)
        each, _, _ = values(args[0], src, scope, name)
    else:
        each = identity

    def distinct_of(base, coll):
        seen: set = set()
        seen_list: list = []
        out = []
        for v, k in zip(coll, each(base, coll)):
            h = hashable(k)
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


METHODS: dict[str, Callable[..., Any]] = {
    "aggregate": _aggregate, "allof": _all_of, "anyof": _any_of, "arrayof": _array_of,
    "average": _average, "countof": _count_of, "distinctof": _distinct_of,
    "except": set_op("except"), "firstof": _first_of, "groupby": group_by,
    "intersect": set_op("intersect"), "lastof": _last_of, "leastfrequent": _frequent(False),
    "max": _min_max(True), "maxby": _by(True), "min": _min_max(False), "minby": _by(False),
    "mostfrequent": _frequent(True), "orderby": _order(False), "orderbydesc": _order(True),
    "reverse": _reverse, "selectfrom": _select_from, "sequenceequal": sequence_equal,
    "sumof": _sum_of, "take": _take, "takelast": _take_last, "takewhile": _take_while,
    "takewhilelast": _take_while_last, "tomap": to_map, "union": set_op("union"),
    "where": _where,
}

# Esper's spelling of each method, for messages
_CANONICAL = {n.lower(): n for n in (
    "aggregate", "allOf", "anyOf", "arrayOf", "average", "countOf", "distinctOf", "except",
    "firstOf", "groupBy", "intersect", "lastOf", "leastFrequent", "max", "maxBy", "min", "minBy",
    "mostFrequent", "orderBy", "orderByDesc", "reverse", "selectFrom", "sequenceEqual", "sumOf",
    "take", "takeLast", "takeWhile", "takeWhileLast", "toMap", "union", "where")}
