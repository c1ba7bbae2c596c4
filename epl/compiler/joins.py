"""Join planning at compile time: the where/on conditions are split into conjuncts, each
marked with the streams it reads; equalities between two streams become hash-index
lookups, comparisons and `between` become sorted-index range lookups, and a stream with no
usable condition is scanned. Subqueries use the same analysis for their correlation."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from engine.contracts.epl_types import EPLType
from engine.contracts.frozen import frozen_dataclass
from epl.plans.joins import (Access, IndexSpec, InnerPlan, JoinPlan, OuterPlan, Predicate,
                             Step)

import epl.ast as A
from ..ast.walk import children
from engine.contracts.errors import EPLValidationError
from .expressions import compile_expr, compile_predicate, expr_text
from .scope import Scope, StreamInfo

_MIRROR = {A.BinOp.LT: A.BinOp.GT, A.BinOp.LE: A.BinOp.GE,
           A.BinOp.GT: A.BinOp.LT, A.BinOp.GE: A.BinOp.LE}


# -- condition analysis ---------------------------------------------------------------------

def conjuncts(node: Optional[A.Expr]) -> list[A.Expr]:
    """The `and`-ed parts of a condition (parentheses dropped)."""
    if node is None:
        return []
    from ..ast.walk import operands
    return operands(node, A.BinOp.AND)


class _Unknown(Exception):
    pass


def stream_refs(node: A.Expr, scope: Scope) -> Optional[frozenset[int]]:
    """The streams an expression reads; None when that cannot be told (a subquery inside,
    or a name the scope does not resolve), so the expression is evaluated last."""
    refs: set[int] = set()

    def visit(n: Any) -> None:
        if isinstance(n, (A.Subquery, A.Exists, A.InSubquery)):
            raise _Unknown
        if isinstance(n, A.Property):
            segs = n.path
            if len(segs) == 1 and segs[0].index is None and segs[0].key is None:
                s = scope.stream_by_alias(segs[0].name)
                if s is not None and s.event_type.property_type(segs[0].name) is None:
                    refs.add(s.index)
                    return
            try:
                r = scope.resolve(n)
            except EPLValidationError:
                raise _Unknown from None
            if r.kind == "stream":
                refs.add(r.index)
            return
        for c in children(n):
            stack.append(c)
    stack = [node]
    try:
        while stack:    # iterative: 10,000-term conditions
            visit(stack.pop())
    except _Unknown:
        return None
    return frozenset(refs)


@frozen_dataclass
class Range:
    """A range condition on `key` (an expression of stream `target` alone), bounded by
    expressions of other streams: `low`/`high` (either may be None)."""

    target: int
    key: A.Expr
    low: Optional[A.Expr]
    low_incl: bool
    high: Optional[A.Expr]
    high_incl: bool
    value_refs: frozenset[int]
    swap: bool = False


@dataclass
class Condition:
    """One conjunct: its streams, its compiled predicate, and what indexes it allows."""

    node: A.Expr
    refs: Optional[frozenset[int]]
    pred: Predicate
    eq: Optional[tuple[tuple[int, A.Expr], tuple[int, A.Expr]]] = None
    ranges: tuple[Range, ...] = ()


def _single(refs: Optional[frozenset[int]]) -> Optional[int]:
    return next(iter(refs)) if refs is not None and len(refs) == 1 else None


def analyze(nodes: Sequence[A.Expr], scope: Scope) -> list[Condition]:
    out = []
    for node in nodes:
        refs = stream_refs(node, scope)
        cond = Condition(node, refs, compile_predicate(node, scope))
        inner = node
        if isinstance(inner, A.BinaryOp) and refs is not None and len(refs) >= 2:
            lr, rr = stream_refs(inner.left, scope), stream_refs(inner.right, scope)
            li, ri = _single(lr), _single(rr)
            if li is not None and ri is not None and li != ri:
                if inner.op is A.BinOp.EQ:
                    cond.eq = ((li, inner.left), (ri, inner.right))
                elif inner.op in _MIRROR:
                    cond.ranges = (_range(li, inner.left, inner.op, inner.right, rr),
                                   _range(ri, inner.right, _MIRROR[inner.op], inner.left, lr))
        elif isinstance(inner, A.Between) and not inner.negated and refs is not None:
            oi = _single(stream_refs(inner.operand, scope))
            lo_refs, hi_refs = stream_refs(inner.low, scope), stream_refs(inner.high, scope)
            if oi is not None and lo_refs is not None and hi_refs is not None \
                    and oi not in lo_refs and oi not in hi_refs:
                cond.ranges = (Range(oi, inner.operand, inner.low, True, inner.high, True,
                                     lo_refs | hi_refs, swap=True),)
        out.append(cond)
    return out


def _range(target: int, key: A.Expr, op: A.BinOp, value: A.Expr, value_refs) -> Range:
    """`key op value` as bounds on key."""
    if op in (A.BinOp.GT, A.BinOp.GE):
        return Range(target, key, value, op is A.BinOp.GE, None, True, value_refs)
    return Range(target, key, None, True, value, op is A.BinOp.LE, value_refs)


# -- index and access planning ------------------------------------------------------------------

class IndexRegistry:
    """The indexes a plan needs, shared between lookups that key the same stream on the
    same expressions."""

    def __init__(self, scope: Scope, stream_count: int) -> None:
        self.scope = scope
        self.n = stream_count
        self.specs: list[IndexSpec] = []
        self._by_key: dict[tuple, int] = {}

    def index(self, kind: str, stream: int, keys: Sequence[A.Expr]) -> int:
        texts = tuple(expr_text(k) for k in keys)
        ident = (kind, stream, texts)
        found = self._by_key.get(ident)
        if found is not None:
            return found
        fns = tuple(compile_expr(k, self.scope).fn for k in keys)
        pre, post = (None,) * stream, (None,) * (self.n - stream - 1)
        if len(fns) == 1:
            f0 = fns[0]

            def key_of(bean, _f=f0, _pre=pre, _post=post):
                return _f(_pre + (bean,) + _post)
        else:
            def key_of(bean, _fs=fns, _pre=pre, _post=post):
                eps = _pre + (bean,) + _post
                return tuple(f(eps) for f in _fs)
        self.specs.append(IndexSpec(kind, stream, ", ".join(texts), key_of))
        self._by_key[ident] = len(self.specs) - 1
        return len(self.specs) - 1


def _sortable(node: A.Expr, scope: Scope) -> bool:
    t = compile_expr(node, scope).type
    return t.is_numeric or t.kind is EPLType.STRING


def plan_access(target: int, bound: frozenset[int], conds: Sequence[Condition],
                registry: IndexRegistry, scope: Scope) -> tuple[Access, int]:
    """The best way to find `target`'s events for rows binding `bound`, and its score
    (hash > two-sided range > one-sided range > scan)."""
    pairs: dict[str, tuple[A.Expr, A.Expr]] = {}
    for c in conds:
        if c.eq is None:
            continue
        (li, ln), (ri, rn) = c.eq
        if li == target and ri in bound:
            pairs.setdefault(expr_text(ln), (ln, rn))
        elif ri == target and li in bound:
            pairs.setdefault(expr_text(rn), (rn, ln))
    if pairs:
        keys = [pairs[k] for k in sorted(pairs)]
        idx = registry.index("hash", target, [k for k, _ in keys])
        vfns = tuple(compile_expr(v, scope).fn for _, v in keys)
        if len(vfns) == 1:
            value = vfns[0]
        else:
            def value(row, _fs=vfns):
                return tuple(f(row) for f in _fs)
        text = " and ".join(f"{expr_text(k)} = {expr_text(v)}" for k, v in keys)
        return Access(target, "hash", idx, value=value, text=text), 100 + len(keys)
    groups: dict[str, list[Range]] = {}
    for c in conds:
        for r in c.ranges:
            if r.target == target and r.value_refs <= bound:
                groups.setdefault(expr_text(r.key), []).append(r)
    best: Optional[tuple[Access, int]] = None
    for key_text, ranges in groups.items():
        key = ranges[0].key
        if not _sortable(key, scope):
            continue
        low = next((r for r in ranges if r.low is not None), None)
        high = next((r for r in ranges if r.high is not None), None)
        swap = False
        if low is not None and low.swap:          # a `between`: both bounds from it
            high, swap = low, True
        idx = registry.index("sorted", target, [key])
        acc = Access(target, "sorted", idx,
                     low=compile_expr(low.low, scope).fn if low is not None else None,
                     low_incl=low.low_incl if low is not None else True,
                     high=compile_expr(high.high, scope).fn if high is not None else None,
                     high_incl=high.high_incl if high is not None else True,
                     swap=swap, text=f"range of {key_text}")
        score = 50 if (low is not None and high is not None) else 40
        if best is None or score > best[1]:
            best = (acc, score)
    if best is not None:
        return best
    return Access(target, "scan", text=""), 0


# -- inner and outer join plans ------------------------------------------------------------------

def plan_inner(n: int, conds: Sequence[Condition], registry: IndexRegistry,
               scope: Scope) -> InnerPlan:
    """For each starting stream: bind the stream with the best access next, apply each
    condition as soon as the streams it reads are bound (unknown ones last)."""
    all_starts, all_steps = [], []
    for start in range(n):
        bound = frozenset((start,))
        pending = list(conds)
        start_filters = tuple(c.pred for c in pending if c.refs is not None and c.refs <= bound)
        pending = [c for c in pending if not (c.refs is not None and c.refs <= bound)]
        steps = []
        remaining = [j for j in range(n) if j != start]
        while remaining:
            choice = None
            for j in remaining:
                acc, score = plan_access(j, bound, conds, registry, scope)
                if choice is None or score > choice[1]:
                    choice = (acc, score, j)
            acc, _, j = choice
            remaining.remove(j)
            bound = bound | {j}
            done = [c for c in pending if c.refs is not None and c.refs <= bound]
            pending = [c for c in pending if c not in done]
            if not remaining:
                done += pending
            steps.append(Step(acc, tuple(c.pred for c in done)))
        all_starts.append(start_filters)
        all_steps.append(tuple(steps))
    return InnerPlan(tuple(all_starts), tuple(all_steps))


_KINDS = {A.JoinKind.INNER: "inner", A.JoinKind.LEFT: "left", A.JoinKind.RIGHT: "right",
          A.JoinKind.FULL: "full"}


def plan_outer(n: int, joins: Sequence[Optional[A.OuterJoin]], where: Optional[Predicate],
               registry: IndexRegistry, scope: Scope, streams: Sequence[StreamInfo]) -> OuterPlan:
    kinds = ["inner"]
    on_filters: list[tuple] = [()]
    extend: list[Optional[Access]] = [None]
    left: list[Optional[Access]] = [None]
    for k in range(1, n):
        j = joins[k - 1] if k - 1 < len(joins) else None
        kinds.append(_KINDS[j.kind] if j is not None else "inner")
        conds = analyze(conjuncts(j.on if j is not None else None), scope)
        for c in conds:
            if c.refs is not None and any(r > k for r in c.refs):
                later = streams[max(c.refs)]
                raise scope.fail(
                    f"Outer join on-clause '{expr_text(c.node)}' refers to stream "
                    f"'{later.alias or later.type_name}', which is joined later in the from clause")
        preds = tuple(c.pred for c in conds)
        if j is not None and j.on is None and k > 1:
            # without an on-clause stream k hangs off stream k-1 (Esper's outer join graph):
            # it is reached through that stream's event, none when that stream has none
            preds += (lambda row, _p=k - 1: row[_p] is not None,)
        on_filters.append(preds)
        extend.append(plan_access(k, frozenset(range(k)), conds, registry, scope)[0])
        best = None
        for e in range(k):
            acc, score = plan_access(e, frozenset((k,)), conds, registry, scope)
            if score > 0 and (best is None or score > best[1]):
                best = (acc, score)
        left.append(best[0] if best is not None else None)
    return OuterPlan(tuple(kinds), tuple(on_filters), tuple(extend), tuple(left), where)


def compile_join(node: A.SelectStatement, streams: Sequence[StreamInfo], stream_plans: Sequence[Any],
                 where: Optional[Predicate], scope: Scope, text: str) -> JoinPlan:
    """`engine.features.join_compiler`: the join plan of a multi-stream select (the runtime's
    JoinExecutor runs it per statement instance)."""
    n = len(streams)
    from_ = node.from_
    joins = tuple(from_.joins) if from_ is not None else ()
    tables = tuple(sp.named_window if getattr(getattr(sp, "named_window", None), "is_table", False)
                   else None for sp in stream_plans)
    has_table = any(t is not None for t in tables)
    # with a table in the join, a stream without a data window only triggers lookups
    uni = tuple(i for i, sp in enumerate(stream_plans) if sp.unidirectional
                or (has_table and tables[i] is None and not sp.views
                    and getattr(sp, "named_window", None) is None))
    for info, sp in zip(streams, stream_plans):
        if not sp.views and not sp.unidirectional and getattr(sp, "named_window", None) is None \
                and not has_table:
            raise EPLValidationError(
                "Joins require that at least one view is specified for each stream, no view "
                f"was specified for {info.type_name or info.alias}", text)
    kinds = [j.kind if j is not None else A.JoinKind.INNER for j in joins]
    if has_table and joins:
        # a table joined by an outer join contributes only its matching rows (as Esper
        # reports: a stream event without a table row yields no row)
        joins = tuple(None if j is None else
                      (j if tables[k + 1] is None and tables[0] is None
                       else A.OuterJoin(A.JoinKind.INNER, j.on, j.span))
                      for k, j in enumerate(joins))
        kinds = [j.kind if j is not None else A.JoinKind.INNER for j in joins]
    outer = any(k is not A.JoinKind.INNER for k in kinds)
    if len(uni) > 1 and not (outer and all(k is A.JoinKind.FULL for k in kinds)):
        raise EPLValidationError(
            "The unidirectional keyword can only apply to one stream in a join, unless all "
            "streams are joined by full outer joins", text)
    registry = IndexRegistry(scope, n)
    if outer:
        strategy: Any = plan_outer(n, joins, where, registry, scope, streams)
    else:
        nodes = conjuncts(node.where)
        for j in joins:
            if j is not None:
                nodes += conjuncts(j.on)
        strategy = plan_inner(n, analyze(nodes, scope), registry, scope)
    filters = tuple(sp.filter if getattr(sp, "pattern", None) is None
                    and getattr(sp, "named_window", None) is None else None for sp in stream_plans)
    return JoinPlan(n, tuple(registry.specs), strategy, uni, filters,
                    tuple(sp.event_type for sp in stream_plans), tables,
                    any(sp.unidirectional for sp in stream_plans))
