"""`match_recognize` to a runtime plan: the row pattern to an automaton, defines to
predicates over the variables' events (with `prev` over the partition's rows), measures to
a row builder (singleton variables as events, group variables as lists, aggregations over
one group variable), and Esper's validation messages."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.event_types import EventType, Representation
import views.match_recognize_nfa as N
from views.match_recognize import MatchRecognizeFactory
from views.match_recognize_plan import PAST_LAST_ROW, PrevHolder, RowRecogPlan

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from .expressions import compile_expr, compile_predicate, expr_text
from .rowrecog_exprs import (
    _contains_aggregation, _fail, _first_wins, _hashable, _MeasureAggregations, _properties,
    _RowRecogServices, _var_events,
)
from .scope import Scope, StreamInfo

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

_SKIP = {None: PAST_LAST_ROW, A.SkipMode.PAST_LAST_ROW: PAST_LAST_ROW,
         A.SkipMode.TO_NEXT_ROW: "to next row", A.SkipMode.TO_CURRENT_ROW: "to current row"}


def _visible(nfa: Any, vi: int) -> set[int]:
    """The variables a define of variable `vi` may name: itself and those that can match
    before it in a match."""
    back: dict[int, list[int]] = {}
    for q, fs in enumerate(nfa.follow):
        for p in fs:
            back.setdefault(p, []).append(q)
    seen: set[int] = set()
    stack = [p for p, v in enumerate(nfa.var_of) if v == vi]
    while stack:
        for q in back.get(stack.pop(), ()):
            if q not in seen:
                seen.add(q)
                stack.append(q)
    return {nfa.var_of[q] for q in seen} | {vi}


# -- the pattern ----------------------------------------------------------------------------

def _repeats(q: Optional[A.RowQuantifier]) -> bool:
    if q is None:
        return False
    if q.kind in (A.RowQuantKind.STAR, A.RowQuantKind.PLUS):
        return True
    return q.kind is A.RowQuantKind.REPEAT and (q.high is None or q.high > 1)


def _tree(p: Any, variables: list[str], counts: dict[str, int], multi: set[str],
          repeated: bool) -> Any:
    """The AST pattern as the automaton builder's tree; records variables in order of first
    appearance and which of them may match several events (group variables)."""
    q = getattr(p, "quantifier", None)
    r = getattr(p, "repeat", None)
    inner_repeated = repeated or _repeats(q) or _repeats(r)
    if isinstance(p, A.RowVar):
        if p.name not in variables:
            variables.append(p.name)
        counts[p.name] = counts.get(p.name, 0) + 1
        if inner_repeated:
            multi.add(p.name)
        base: Any = ("var", p.name)
    elif isinstance(p, A.RowNested):
        base = _tree(p.inner, variables, counts, multi, inner_repeated)
    elif isinstance(p, A.RowPermute):
        base = N.permute([_tree(i, variables, counts, multi, inner_repeated) for i in p.items])
    elif isinstance(p, A.RowConcat):
        return ("cat", tuple(_tree(i, variables, counts, multi, repeated) for i in p.items))
    elif isinstance(p, A.RowAlt):
        return ("alt", tuple(_tree(i, variables, counts, multi, repeated) for i in p.items))
    else:
        raise TypeError(type(p).__name__)
    if q is not None and q.kind is A.RowQuantKind.REPEAT:     # `A{2}` without a quantifier
        q, r = None, q
    greedy = not q.reluctant if q is not None else True
    one = _quantified(base, q)
    if r is None:
        return one
    # Esper's repetition equivalences: `X{n}` is n copies of X; `X{n,m}` adds m-n optional
    # copies, `X{n,}` one `X*`, `X{,m}` m optional copies; an optional copy of `X+` or `X*`
    # is `X*`, of `X` or `X?` it is `X?`; reluctance carries over
    loose_kind = "star" if q is not None and q.kind in (A.RowQuantKind.STAR, A.RowQuantKind.PLUS) else "opt"
    loose = (loose_kind, base, greedy)
    if r.exact:
        items = [one] * r.low
    elif r.high is None:
        items = [one] * (r.low or 0) + [("star", base, greedy)]
    elif r.low is None:
        items = [loose] * r.high
    else:
        items = [one] * r.low + [loose] * (r.high - r.low)
    return items[0] if len(items) == 1 else ("cat", tuple(items))


def _max_occurrences(tree: Any) -> dict[str, int]:
    """How many rows each variable can match in one match, capped at 2: a variable in two
    branches of an alternation is still a singleton."""
    kind = tree[0]
    if kind == "var":
        return {tree[1]: 1}
    if kind in ("cat", "alt"):
        out: dict[str, int] = {}
        for item in tree[1]:
            for v, c in _max_occurrences(item).items():
                out[v] = min(2, out.get(v, 0) + c) if kind == "cat" else max(out.get(v, 0), c)
        return out
    inner = _max_occurrences(tree[1])
    if kind in ("star", "plus"):
        return {v: 2 for v in inner}
    return inner


def _quantified(base: Any, q: Optional[A.RowQuantifier]) -> Any:
    if q is None:
        return base
    greedy = not q.reluctant
    kind = {A.RowQuantKind.STAR: "star", A.RowQuantKind.PLUS: "plus", A.RowQuantKind.QUESTION: "opt"}[q.kind]
    return (kind, base, greedy)


def _check_repeat(p: Any, scope: Scope) -> None:
    for r in (getattr(p, "quantifier", None), getattr(p, "repeat", None)):
        if r is None or r.kind is not A.RowQuantKind.REPEAT:
            continue
        bounds = [(r.low, 1 if r.exact else 0), (None if r.exact else r.high, 1)]
        for v, least in bounds:
            if v is not None and v < least:
                raise _fail(scope, f"Invalid pattern quantifier value {v}, expecting a minimum of 1", r)
        if r.low is not None and r.high is not None and r.low > r.high:
            raise _fail(scope, f"Invalid pattern quantifier value {r.low}, expecting a minimum of 1 "
                        f"and maximum of {r.high}", r)
    if hasattr(p, "inner"):
        _check_repeat(p.inner, scope)
    for item in getattr(p, "items", ()):
        _check_repeat(item, scope)


def _quant_text(q: A.RowQuantifier) -> str:
    from ..printer._rowrecog import RowRecogPrinter
    return RowRecogPrinter._row_quant(q)


# -- the clause -----------------------------------------------------------------------------

def compile_match_recognize(mr: A.MatchRecognize, info: StreamInfo, scope: Scope,
                            statement_name: str) -> tuple[MatchRecognizeFactory, EventType]:
    """The view factory that ends the stream's view chain, and the type of its match rows."""
    et = info.event_type
    _check_repeat(mr.pattern, scope)
    variables: list[str] = []
    counts: dict[str, int] = {}
    multi: set[str] = set()
    tree = _tree(mr.pattern, variables, counts, multi, False)
    multi |= {v for v, c in _max_occurrences(tree).items() if c > 1}
    nfa = N.build(tree, variables)
    group_vars = {v: i for i, v in enumerate(variables) if v in multi}

    # defines: one stream per variable, its event the variable's (last) event
    holder = PrevHolder()
    services = _RowRecogServices(scope.services, holder, len(variables), group_vars)
    var_streams = [StreamInfo(i, et, v, v) for i, v in enumerate(variables)]
    define_scope = Scope(streams=var_streams, functions=scope.functions, variables=scope.variables,
                         epl=scope.epl, services=services, context_type=scope.context_type,
                         context_holder=scope.context_holder)
    preds: list[Any] = [None] * len(variables)
    seen: set[str] = set()
    for d in mr.defines:
        if d.name in seen:
            raise _fail(scope, f"Variable '{d.name}' has already been defined", d)
        seen.add(d.name)
        if d.name not in variables:
            raise _fail(scope, f"Variable '{d.name}' does not occur in pattern", d)
        own = variables.index(d.name)
        visible = _visible(nfa, own)
        for prop, _ in _properties(d.expr):
            first = prop.path[0].name
            if first in variables and variables.index(first) not in visible and (len(prop.path) > 1 or prop.path[0].index is not None):
                raise _fail(scope, f"Failed to validate condition expression for variable '{d.name}': "
                            f"Failed to validate match-recognize define expression '{expr_text(d.expr)}': "
                            f"Failed to find a stream named '{first}' (did you mean '{d.name}'?)", prop)
        if _contains_aggregation(d.expr):
            raise _fail(scope, f"Failed to validate condition expression for variable '{d.name}': "
                        "An aggregate function may not appear in a DEFINE clause", d.expr)
        # an unqualified property in a define reads the event of the variable it defines
        try:
            preds[variables.index(d.name)] = compile_predicate(
                _var_events(d.expr, variables, group_vars), _first_wins(define_scope, variables.index(d.name)))
        except EPLValidationError as e:
            raise EPLValidationError(
                f"Failed to validate condition expression for variable '{d.name}': {e.message}",
                scope.epl) from None

    # measures: one stream, the match, whose properties are the variables
    props: dict[str, PropertyType] = {}
    for v in variables:
        ev = PropertyType(EPLType.EVENT, event_type=et)
        props[v] = T.array_of(ev) if v in group_vars else ev
    match_type = EventType(f"{statement_name}_match", Representation.MAP, props)
    mservices = _RowRecogServices(scope.services, None, len(variables), group_vars)
    agg_var_scope = Scope(streams=var_streams, functions=scope.functions, variables=scope.variables,
                          epl=scope.epl, services=mservices, context_type=scope.context_type,
                          context_holder=scope.context_holder)
    measure_scope = Scope(streams=[StreamInfo(0, match_type, None, match_type.name)],
                          functions=scope.functions, variables=scope.variables, epl=scope.epl,
                          services=mservices, allow_aggregation=True,
                          aggregations=_MeasureAggregations(agg_var_scope, variables, group_vars),
                          context_type=scope.context_type, context_holder=scope.context_holder)
    names: list[str] = []
    fns: list[Any] = []
    out_props: dict[str, PropertyType] = {}
    for m in mr.measures:
        if m.alias is None:
            raise _fail(scope, "The measures clause requires that each expression utilizes the "
                        "AS keyword to assign a column name", m)
        for prop, in_agg in _properties(m.expr):
            first = prop.path[0]
            text = prop.dotted
            if len(prop.path) > 1 and first.name in group_vars and first.index is None and not in_agg:
                raise _fail(scope, f"Failed to validate match-recognize measure expression '{expr_text(m.expr)}': "
                            f"Failed to resolve property '{text}' (property '{first.name}' is an indexed "
                            "property and requires an index or enumeration method to access values)", prop)
            if len(prop.path) > 1 and first.name not in variables and not in_agg and \
                    match_type.property_type(text) is None and first.name != "context" and \
                    not (scope.variables is not None and scope.variables.has(first.name)):
                raise _fail(scope, f"Failed to validate match-recognize measure expression '{expr_text(m.expr)}': "
                            f"Failed to resolve property '{text}' to a stream or nested property in a stream", prop)
        try:
            c = compile_expr(m.expr, measure_scope)
        except EPLValidationError as e:
            if e.message.startswith("Aggregation functions in the measure-clause"):
                raise
            raise EPLValidationError(f"Failed to validate match-recognize measure expression "
                                     f"'{expr_text(m.expr)}': {e.message}", scope.epl) from None
        if m.alias in out_props:
            raise _fail(scope, f"Column name '{m.alias}' appears more than once in the measures clause", m)
        names.append(m.alias)
        fns.append(c.fn)
        out_props[m.alias] = c.type
    out_type = EventType(f"{statement_name}_matchrecog", Representation.MAP, out_props)
    cols = tuple(zip(names, fns))

    def make_row(values: dict, _mt=match_type, _ot=out_type, _cols=cols) -> EventBean:
        eps = (EventBean(_mt, values),)
        return EventBean(_ot, {n: f(eps) for n, f in _cols})

    # partition by: over the stream's events
    key_of = None
    if mr.partition_by:
        single = Scope(streams=[StreamInfo(0, et, info.alias, info.type_name)],
                       functions=scope.functions, variables=scope.variables, epl=scope.epl,
                       services=scope.services)
        compiled = [compile_expr(e, single) for e in mr.partition_by]
        kfns = tuple(c.fn for c in compiled)
        if len(kfns) == 1:
            k0 = kfns[0]
            key_of = compiled[0].on_bean or (lambda bean, _k=k0: _k((bean,)))  # noqa: E731
        else:
            key_of = lambda bean, _k=kfns: tuple(f((bean,)) for f in _k)  # noqa: E731
        if any(c.type.kind in (EPLType.ARRAY, EPLType.OBJECT, EPLType.MAP) for c in compiled):
            # arrays (and values that may be lists) partition by their contents
            raw = key_of
            key_of = lambda bean, _r=raw: _hashable(_r(bean))  # noqa: E731

    interval = None
    months = 0
    iv = mr.interval
    if isinstance(iv, A.TimePeriod) and any(u in (A.TimeUnit.MONTH, A.TimeUnit.YEAR) for _, u in iv.parts):
        # calendar months are counted from each match's first row, not as 30 days
        rest = []
        for amount, unit in iv.parts:
            if unit in (A.TimeUnit.MONTH, A.TimeUnit.YEAR) and isinstance(amount, A.Literal) \
                    and isinstance(amount.value, int):
                months += amount.value * (12 if unit is A.TimeUnit.YEAR else 1)
            else:
                rest.append((amount, unit))
        iv = A.TimePeriod(tuple(rest), iv.span) if rest else A.Literal(0, A.LiteralKind.INT)
        interval = 0
    if mr.interval is not None:
        c = compile_expr(iv, scope)
        if not c.is_constant or not isinstance(c.constant, (int, float)):
            raise _fail(scope, "The interval of match_recognize must be a constant time period", mr.interval)
        ms = c.constant if c.is_time_period or months else c.constant * 1000.0
        interval = int(ms) if float(ms).is_integer() else ms

    plan = RowRecogPlan(nfa=nfa, preds=tuple(preds), key_of=key_of,
                        group_vars=frozenset(group_vars.values()), make_row=make_row,
                        out_type=out_type, all_matches=mr.all_matches, skip=_SKIP[mr.skip],
                        interval=interval, or_terminated=mr.or_terminated,
                        prev_depth=services.prev_depth, interval_months=months,
                        tracked=tuple(sorted(services.tracked.items())),
                        prev_holder=holder if services.prev_depth else None)
    return MatchRecognizeFactory(plan), out_type


def check_match_recognize_stream(node: A.SelectStatement, streams: list, engine: "Runtime", text: str) -> None:
    """match_recognize reads one stream of events (Esper's limitations)."""
    if len(node.from_.streams) != 1:
        raise EPLValidationError("Joins are not allowed when using match-recognize", text)
    spec = node.from_.streams[0]
    if not isinstance(spec, A.FilterStream):
        raise EPLValidationError("Match-recognize requires a filter stream in the from-clause", text)
    nw = engine.services.named_windows
    if nw is not None and hasattr(nw, "get_table") and nw.get_table(spec.event_filter.type_name) is not None:
        raise EPLValidationError("Tables cannot be used in the from-clause with match-recognize", text)
