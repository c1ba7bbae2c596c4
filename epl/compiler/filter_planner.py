"""The filter planner: a stream filter expression (epl.ast) to a FilterTemplate
(filterindex/planner.py) whose `bind(bindings)` gives the FilterSpec paths to register.

What becomes an indexed parameter: a comparison, `is [not] null`, `[not] between`,
`[not] in [a:b]` (and the open forms) or `[not] in (...)` between a property of the
filtered type (optionally `alias.property`) and values known when the filter is registered
(`resolve_value` says which: a Constant, or a Bound computed from a pattern's earlier tags or
a context's properties). `value op property` is turned around. `and` nests parameters in
one path, `or` splits paths (distributed: `(a or b) and c` is `[a, c], [b, c]`); past
MAX_PATHS paths the whole filter is one boolean-expression leaf. Everything else (`not`,
functions, property-to-property comparisons, ...) is a BOOL_EXPR leaf.

The planner does not depend on the compiler; the compiler passes three callbacks:
- `resolve_value(expr) -> Constant | Bound | None` (None: not known at registration);
- `compile_predicate(expr) -> fn(bean, bindings)`: truthy when the event satisfies the
  expression; `bindings` is what `FilterTemplate.bind` received (None for plain streams);
- `key_of(expr) -> str`: canonical text, the identity under which identical leaves share.
A leaf reading bound values gets a key made at bind time that also names those values, so
leaves of different pattern instances share only when they would evaluate alike.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import epl.ast as A
from filterindex.planner import (MAX_PATHS, Bound, Constant, FilterTemplate, Predicate,
                                 ValueSource)
# the parameter templates are the planner's vocabulary, private to the two modules
from filterindex.planner import (_LIST, _RANGE, _SCALAR, _ParamTemplate, _PredicateParam,
                                 _ValueParam, _template)
from filterindex.spec import FilterOp

_COMPARE = {
    A.BinOp.EQ: FilterOp.EQ, A.BinOp.NE: FilterOp.NE, A.BinOp.IS: FilterOp.IS,
    A.BinOp.IS_NOT: FilterOp.IS_NOT, A.BinOp.LT: FilterOp.LT, A.BinOp.LE: FilterOp.LE,
    A.BinOp.GT: FilterOp.GT, A.BinOp.GE: FilterOp.GE,
}
_REVERSED = {FilterOp.LT: FilterOp.GT, FilterOp.GT: FilterOp.LT,
             FilterOp.LE: FilterOp.GE, FilterOp.GE: FilterOp.LE}
_RANGE_OPS = {  # (low closed, high closed) -> (in, not in)
    (True, True): (FilterOp.RANGE_CLOSED, FilterOp.NOT_RANGE_CLOSED),
    (False, False): (FilterOp.RANGE_OPEN, FilterOp.NOT_RANGE_OPEN),
    (True, False): (FilterOp.RANGE_HALF_OPEN, FilterOp.NOT_RANGE_HALF_OPEN),
    (False, True): (FilterOp.RANGE_HALF_CLOSED, FilterOp.NOT_RANGE_HALF_CLOSED),
}


# -- planning --------------------------------------------------------------------------
def plan_filter(expr: Optional[A.Expr], event_type: Any, *, stream_alias: Optional[str],
                resolve_value: Callable[[A.Expr], Optional[ValueSource]],
                compile_predicate: Callable[[A.Expr], Predicate],
                key_of: Callable[[A.Expr], str]) -> FilterTemplate:
    """Plan the filter `expr` of a stream of `event_type` (None: every event)."""
    planner = _Planner(event_type, stream_alias, resolve_value, compile_predicate, key_of)
    if expr is None:
        return _template(event_type, ((),))
    conjunctions = _dnf(expr)
    if conjunctions is None:
        return _template(event_type, ((planner.predicate(expr),),))
    return _template(event_type, tuple(tuple(planner.atom(a) for a in c) for c in conjunctions))


def _strip(e: A.Expr) -> A.Expr:
    while isinstance(e, A.Parens):
        e = e.inner
    return e


def _dnf(e: A.Expr) -> Optional[list[list[A.Expr]]]:
    """The filter as an `or` of conjunctions of atoms; None past MAX_PATHS conjunctions.
    An `and` / `or` chain is opened in a loop (10,000-term chains do not recurse per term)."""
    e = _strip(e)
    if isinstance(e, A.BinaryOp) and e.op in (A.BinOp.AND, A.BinOp.OR):
        out: Optional[list[list[A.Expr]]] = None
        for term in _operands(e, e.op):
            part = _dnf(term)
            if part is None:
                return None
            if out is None:
                out = part
            else:
                out = out + part if e.op is A.BinOp.OR else [a + b for a in out for b in part]
            if len(out) > MAX_PATHS:
                return None
        return out
    return [[e]]


def _operands(e: A.Expr, op: A.BinOp) -> list[A.Expr]:
    """The operands of a chain of `op`, in order, parentheses seen through."""
    out: list[A.Expr] = []
    stack = [e]
    while stack:
        n = _strip(stack.pop())
        if isinstance(n, A.BinaryOp) and n.op is op:
            stack.append(n.right)
            stack.append(n.left)
        else:
            out.append(n)
    return out


class _Planner:
    def __init__(self, event_type: Any, alias: Optional[str],
                 resolve_value: Callable[[A.Expr], Optional[ValueSource]],
                 compile_predicate: Callable[[A.Expr], Predicate],
                 key_of: Callable[[A.Expr], str]) -> None:
        self.event_type = event_type
        self.alias = alias
        self.resolve_value = resolve_value
        self.compile_predicate = compile_predicate
        self.key_of = key_of

    def atom(self, e: A.Expr) -> _ParamTemplate:
        return self.indexed(e) or self.predicate(e)

    def indexed(self, e: A.Expr) -> Optional[_ValueParam]:
        if isinstance(e, A.BinaryOp) and e.op in _COMPARE:
            op = _COMPARE[e.op]
            return (self.param(e.left, op, (e.right,), _SCALAR)
                    or self.param(e.right, _REVERSED.get(op, op), (e.left,), _SCALAR))
        if isinstance(e, A.IsNull):
            return self.param(e.operand, FilterOp.IS_NOT if e.negated else FilterOp.IS,
                              (), _SCALAR, (Constant(None),))
        if isinstance(e, A.Between):
            op = FilterOp.NOT_RANGE_CLOSED if e.negated else FilterOp.RANGE_CLOSED
            return self.param(e.operand, op, (e.low, e.high), _RANGE)
        if isinstance(e, A.InRange):
            inside, outside = _RANGE_OPS[(e.low_closed, e.high_closed)]
            return self.param(e.operand, outside if e.negated else inside, (e.low, e.high), _RANGE)
        if isinstance(e, A.InList):
            return self.param(e.operand, FilterOp.NOT_IN_LIST if e.negated else FilterOp.IN_LIST,
                              e.items, _LIST)
        return None

    def param(self, operand: A.Expr, op: FilterOp, values: tuple, form: str,
              sources: tuple = ()) -> Optional[_ValueParam]:
        lookup = self.lookup(operand)
        if lookup is None:
            return None
        if not sources:
            resolved = [self.resolve_value(_strip(v)) for v in values]
            if any(s is None for s in resolved):
                return None
            sources = tuple(resolved)
        return _ValueParam(lookup, op, self.event_type.getter(lookup), sources, form)

    def lookup(self, operand: A.Expr) -> Optional[str]:
        """The property path an operand names on the filtered type, or None."""
        operand = _strip(operand)
        if not isinstance(operand, A.Property):
            return None
        segs = operand.path
        candidates = []
        first = segs[0]
        if (self.alias and len(segs) > 1 and first.name == self.alias
                and first.index is None and first.key is None):
            candidates.append(segs[1:])
        candidates.append(segs)
        for c in candidates:
            path = ".".join(_seg_text(s) for s in c)
            if self.event_type.property_type(path) is not None:
                return path
        return None

    def predicate(self, e: A.Expr) -> _PredicateParam:
        deps = []
        for prop in _properties(e):
            src = self.resolve_value(prop)
            if isinstance(src, Bound):
                deps.append(src)
        return _PredicateParam(self.compile_predicate(e), self.key_of(e), tuple(deps))


def _seg_text(s: A.PropSeg) -> str:
    if s.index is not None:
        return f"{s.name}[{s.index}]"
    if s.key is not None:
        return f"{s.name}('{s.key}')"
    return s.name


def _properties(e: Any) -> list[A.Property]:
    """Every Property node inside an expression (plan time only)."""
    out: list[A.Property] = []
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Property):
            out.append(n)
            continue
        if isinstance(n, tuple):
            stack.extend(reversed(n))
            continue
        for name in getattr(n, "__dataclass_fields__", ()):
            if name != "span":
                v = getattr(n, name)
                if isinstance(v, (A.Node, tuple)):
                    stack.append(v)
    return out
