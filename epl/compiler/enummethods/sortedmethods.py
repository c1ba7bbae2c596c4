"""The `sorted(...)` aggregation's methods (Esper's navigable-map view of the sorted events):
`firstKey`, `lastKey`, `ceilingKey`, `floorKey`, `higherKey`, `lowerKey` and their `...Event`
(the first event of that key) and `...Events` (all events of that key) forms, `firstEvent(s)`,
`lastEvent(s)`, `minBy`, `maxBy`, `getEvent(s)`, `containsKey`, `countEvents`, `countKeys`,
`eventsBetween`, `subMap`, `navigableMapReference` and `sorted`. Keys are computed from the
aggregated events with the aggregation's own criteria when the method runs."""
from __future__ import annotations

import bisect
from typing import Any, Callable, Optional

import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType

import epl.ast as A
from ..compiled import Compiled
from ..expressions import compile_expr
from ..scope import StreamInfo

# lower-case method name -> canonical name
NAMES = {n.lower(): n for n in (
    "firstKey", "lastKey", "ceilingKey", "floorKey", "higherKey", "lowerKey",
    "firstEvent", "lastEvent", "firstEvents", "lastEvents", "ceilingEvent", "floorEvent",
    "higherEvent", "lowerEvent", "ceilingEvents", "floorEvents", "higherEvents", "lowerEvents",
    "minBy", "maxBy", "getEvent", "getEvents", "containsKey", "countEvents", "countKeys",
    "eventsBetween", "subMap", "navigableMapReference", "sorted")}

_KEYED = {"ceilingkey", "floorkey", "higherkey", "lowerkey", "ceilingevent", "floorevent",
          "higherevent", "lowerevent", "ceilingevents", "floorevents", "higherevents",
          "lowerevents", "getevent", "getevents", "containskey"}


def is_sorted_method(node: A.Dot, scope: Any = None) -> bool:
    if node.name.lower() not in NAMES:
        return False
    t = node.target
    while isinstance(t, A.Parens):
        t = t.inner
    if isinstance(t, A.Call) and t.name.lower() == "sorted":
        return True
    return scope is not None and _table_sorted_column(t, scope) is not None


def _table_sorted_column(t: A.Expr, scope: Any) -> Optional[tuple]:
    """(column's declared call, its event type) when `t` is a table's `sorted(...) @type(E)`
    column: `MyTable.col` (table without key) or `MyTable[key].col`."""
    if isinstance(t, A.TableAccess) and t.column is not None:
        table_name, col = t.table, t.column
    elif isinstance(t, A.Property) and len(t.path) == 2 and scope.stream_by_alias(t.path[0].name) is None:
        table_name, col = t.path[0].name, t.path[1].name
    else:
        return None
    engine = getattr(scope.services, "engine", None)
    svc = engine.services.named_windows if engine is not None else None
    table = svc.get(table_name) if svc is not None else None
    declared = (getattr(table, "typed_columns", None) or {}).get(col)
    if declared is None or declared[0].name.lower() != "sorted" or declared[1] is None:
        return None
    return declared


def compile_sorted_method(node: A.Dot, scope: Any) -> Compiled:
    target = node.target
    while isinstance(target, A.Parens):
        target = target.inner
    name = node.name.lower()
    canonical = NAMES[name]
    args = list(node.args or ())
    from dataclasses import replace
    column = None if isinstance(target, A.Call) else _table_sorted_column(target, scope)
    if column is not None:
        # a table column: its events, keyed by the criteria of its declaration
        from .sources import compile_source
        src = compile_source(target, scope)
        events = Compiled(src.fn, T.array_of(PropertyType(EPLType.EVENT, event_type=column[1])))
        et = column[1]
        criteria = [a for a in column[0].args if not isinstance(a, (A.NamedArg, A.Wildcard))]
        plain = replace(scope, streams=[StreamInfo(0, et, None, et.name)], allow_aggregation=False,
                        aggregations=None)
    else:
        if len(scope.streams) < 1:
            raise scope.fail("The sorted aggregation requires a stream")
        events = compile_expr(target, scope)
        et = scope.streams[0].event_type
        criteria = [a for a in target.args if not isinstance(a, (A.NamedArg, A.Wildcard))]
        plain = replace(scope, allow_aggregation=False, aggregations=None)
    crit_fns = [compile_expr(c, plain) for c in criteria]
    key_type = crit_fns[0].type if len(crit_fns) == 1 else T.OBJECT
    fns = tuple(c.fn for c in crit_fns)
    if len(fns) == 1:
        f0 = fns[0]
        key_of: Callable[[Any], Any] = lambda b: f0((b,))  # noqa: E731
    else:
        key_of = lambda b: tuple(f((b,)) for f in fns)  # noqa: E731
    ev = PropertyType(EPLType.EVENT, event_type=et)
    arg_fns = [compile_expr(a, scope).fn for a in args]

    expected = 4 if name in ("eventsbetween", "submap") else (1 if name in _KEYED else 0)
    if len(args) != expected:
        what = "an expression providing the key value" if expected == 1 else \
            ("no parameters" if expected == 0 else "four parameters")
        raise scope.fail(f"Parameters mismatch for aggregation method '{canonical}', the method "
                         f"requires {what}")
    evf = events.fn

    def groups(eps) -> Optional[tuple[list, list]]:
        beans = evf(eps)
        if not beans:
            return None
        keys: list = []
        lists: list = []
        for b in beans:
            k = key_of(b)
            if keys and keys[-1] == k:
                lists[-1].append(b)
            else:
                keys.append(k)
                lists.append([b])
        return keys, lists

    run, rtype = _METHODS[name](key_type, ev)

    def method(eps, _g=groups, _r=run, _a=tuple(arg_fns)):
        g = _g(eps)
        params = [f(eps) for f in _a]
        if g is None:
            return 0 if name in ("countevents", "countkeys") else (False if name == "containskey" else None)
        try:
            return _r(g[0], g[1], params)
        except TypeError:        # keys that do not compare with the given key
            return None
    return Compiled(method, rtype, has_aggregation=True)


def _index(kind: str) -> Callable[[list, Any], Optional[int]]:
    def ceiling(keys, k):
        i = bisect.bisect_left(keys, k)
        return i if i < len(keys) else None

    def floor(keys, k):
        i = bisect.bisect_right(keys, k) - 1
        return i if i >= 0 else None

    def higher(keys, k):
        i = bisect.bisect_right(keys, k)
        return i if i < len(keys) else None

    def lower(keys, k):
        i = bisect.bisect_left(keys, k) - 1
        return i if i >= 0 else None

    def exact(keys, k):
        i = bisect.bisect_left(keys, k)
        return i if i < len(keys) and keys[i] == k else None
    return {"ceiling": ceiling, "floor": floor, "higher": higher, "lower": lower, "get": exact}[kind]


def _keyed(kind: str, what: str):
    find = _index(kind)

    def build(key_type, ev):
        def run(keys, lists, params):
            k = params[0]
            if k is None:
                return None
            i = find(keys, k)
            if i is None:
                return None
            if what == "key":
                return keys[i]
            if what == "event":
                return lists[i][0]
            return list(lists[i])
        return run, {"key": key_type, "event": ev, "events": T.array_of(ev)}[what]
    return build


def _end(last: bool, what: str):
    def build(key_type, ev):
        def run(keys, lists, params):
            i = -1 if last else 0
            if what == "key":
                return keys[i]
            if what == "event":
                return lists[i][0]
            return list(lists[i])
        return run, {"key": key_type, "event": ev, "events": T.array_of(ev)}[what]
    return build


def _contains(key_type, ev):
    find = _index("get")
    return (lambda keys, lists, params: params[0] is not None and find(keys, params[0]) is not None), T.BOOLEAN


def _count_events(key_type, ev):
    return (lambda keys, lists, params: sum(len(x) for x in lists)), T.INT


def _count_keys(key_type, ev):
    return (lambda keys, lists, params: len(keys)), T.INT


def _between(as_map: bool):
    def build(key_type, ev):
        def run(keys, lists, params):
            lo, lo_incl, hi, hi_incl = params
            if lo is None or hi is None:
                return None
            start = bisect.bisect_left(keys, lo) if lo_incl else bisect.bisect_right(keys, lo)
            end = bisect.bisect_right(keys, hi) if hi_incl else bisect.bisect_left(keys, hi)
            if as_map:
                return {keys[i]: list(lists[i]) for i in range(start, max(start, end))}
            return [b for i in range(start, max(start, end)) for b in lists[i]]
        return run, (T.MAP if as_map else T.array_of(ev))
    return build


def _all_map(key_type, ev):
    return (lambda keys, lists, params: {k: list(v) for k, v in zip(keys, lists)}), T.MAP


def _all_sorted(key_type, ev):
    return (lambda keys, lists, params: [b for x in lists for b in x]), T.array_of(ev)


_METHODS: dict[str, Callable[[PropertyType, PropertyType], tuple]] = {
    "firstkey": _end(False, "key"), "lastkey": _end(True, "key"),
    "firstevent": _end(False, "event"), "lastevent": _end(True, "event"),
    "firstevents": _end(False, "events"), "lastevents": _end(True, "events"),
    "minby": _end(False, "event"), "maxby": _end(True, "event"),
    "ceilingkey": _keyed("ceiling", "key"), "floorkey": _keyed("floor", "key"),
    "higherkey": _keyed("higher", "key"), "lowerkey": _keyed("lower", "key"),
    "ceilingevent": _keyed("ceiling", "event"), "floorevent": _keyed("floor", "event"),
    "higherevent": _keyed("higher", "event"), "lowerevent": _keyed("lower", "event"),
    "ceilingevents": _keyed("ceiling", "events"), "floorevents": _keyed("floor", "events"),
    "higherevents": _keyed("higher", "events"), "lowerevents": _keyed("lower", "events"),
    "getevent": _keyed("get", "event"), "getevents": _keyed("get", "events"),
    "containskey": _contains, "countevents": _count_events, "countkeys": _count_keys,
    "eventsbetween": _between(False), "submap": _between(True),
    "navigablemapreference": _all_map, "sorted": _all_sorted,
}
