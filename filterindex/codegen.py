"""Generated matching code for the filter tree: each node, and each event type's route over
its trees, becomes one Python function in which the small part of the tree below it is
inlined (single-entry indexes become plain `if`s) and the rest is called through the child
nodes' own functions.

Why generated code: the route of an event through the tree is the engine's hottest path;
one flat function with locals beats a chain of closures by several calls per event.

What the code of a node depends on, and when it must be rebuilt (see filterindex/tree.py):
- its handles' shape: none, one (inlined as a constant), several (read from the live dict);
- its indexes (kind, property) and each index's shape: no live entry (nothing emitted),
  one (the constant and the child are inlined), several (the index object is consulted
  at run time, so adding a third, fourth... entry needs no rebuild);
- the code of every child it inlined (children are flagged `inlined`, and a change below
  propagates up through inlined nodes).
Generated source names only locals, constants `c0, c1, ...` (the function's globals) and,
in batch scanners, placeholder literals for strings and numbers whose values are put into
the compiled code's constants (see _Gen.const): no property name or value ever becomes
source text. Compiled code is cached by source, so a tree that changes back and forth
between the same shapes compiles once.
"""
from __future__ import annotations

import weakref
from types import CodeType, FunctionType
from typing import Any, Callable, Optional

from .indexes import (
    BoolExprIndex,
    EqIndex,
    Index,
    InKeysIndex,
    InListIndex,
    IsIndex,
    IsNotIndex,
    NeIndex,
    NotInListIndex,
    NotRangeIndex,
    RangeIndex,
    ThresholdIndex,
)
from .spec import FilterOp

# The `one` of a node that is not a leaf with exactly one handle.
NOT_ONE = object()

MAX_INLINE = 16      # inlined child nodes per generated function
MAX_DEPTH = 8        # nesting of inlined children (Python limits indentation depth)
_MAX_CODE = 4096

_NAMESPACE: dict[str, Any] = {
    "__builtins__": {}, "list": list, "len": len, "TypeError": TypeError,
    "AttributeError": AttributeError, "range": range, "iter": iter, "enumerate": enumerate,
    "_stale": False,
    # a scanner counts positions (its dense loop) after two wanted events at most
    # DENSE_HIT apart, and stops counting after more than DENSE_GAP unwanted ones
    "DENSE_HIT": 8, "DENSE_GAP": 64}
_CODE: dict[str, Any] = {}         # source -> compiled module code (defining `_f`)
# a generated function's code -> its source, for engine/lean_send.py's inlining (`source_of`)
_SOURCE: "weakref.WeakKeyDictionary[CodeType, str]" = weakref.WeakKeyDictionary()

# constants that generated code loads as constants (see _Gen.const)
_LITERAL_TYPES = (str, int, float)

_CMP = {FilterOp.LT: "<", FilterOp.LE: "<=", FilterOp.GT: ">", FilterOp.GE: ">="}


class _Gen:
    __slots__ = ("lines", "consts", "_ids", "_n", "budget", "scan", "literals", "unguarded")

    def __init__(self, scan: bool = False) -> None:
        self.lines: list[str] = []
        self.consts: list[Any] = []
        self._ids: dict[int, int] = {}
        self._n = 0
        self.budget = MAX_INLINE
        # a batch scanner's `bean` is a probe whose underlying is set only right before
        # code that reads it (a child's function, a predicate): most events reach none
        self.scan = scan
        self.literals: dict[str, Any] = {}      # placeholder -> the constant it stands for
        # a scanner's value whose set test runs unguarded (see _emit_eq)
        self.unguarded: Optional[str] = None

    def probe(self, ind: int) -> None:
        """Before a statement that passes `bean` on: in a scanner, swap the event in."""
        if self.scan:
            self.emit(ind, "bean.underlying = u")

    def const(self, obj: Any) -> str:
        """How generated source names `obj`: a global `cN`. In a batch scanner, a string
        or a number (a property name, a compared value) is a placeholder string literal,
        replaced by the value itself in the compiled code's constants (a constant load is
        cheaper than a global's, and the value never becomes source text), and any other
        constant the local its prologue copies the global to. Placeholders stand only where
        any object may (operands, arguments, attribute owners), never where the compiler
        checks what a literal can do (`is`, called). Route functions keep plain globals:
        engine/lean_send.py inlines their source."""
        i = self._ids.get(id(obj))
        if i is None:
            i = self._ids[id(obj)] = len(self.consts)
            self.consts.append(obj)
        if self.scan and type(obj) in _LITERAL_TYPES:
            key = f"\x00c{i}"
            self.literals[key] = obj
            return repr(key)
        if self.scan:
            return f"k{i}"
        return f"c{i}"

    def var(self, prefix: str) -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def make(self, signature: str, head: list[str], tail: list[str]) -> Callable:
        src = "\n".join([f"def _f({signature}):", *("    " + h for h in head), *self.lines,
                         *("    " + t for t in tail), ""])
        code = _CODE.get(src)
        if code is None:
            if len(_CODE) >= _MAX_CODE:
                _CODE.clear()
            code = _CODE[src] = compile(src, "<filterindex>", "exec")
        code = next(c for c in code.co_consts if isinstance(c, CodeType))
        if not self.literals:
            _SOURCE[code] = src
        if self.literals:
            lit = self.literals
            code = code.replace(co_consts=tuple(
                lit.get(c, c) if type(c) is str else c for c in code.co_consts))
        # the other constants are the function's globals, not closure cells: a closure
        # copies all its cells into the frame on every call, a global load is cached
        ns = dict(_NAMESPACE)
        ns.update((f"c{i}", c) for i, c in enumerate(self.consts))
        return FunctionType(code, ns, "_f")


def source_of(fn: Callable) -> Optional[str]:
    """The source of a function this module generated (its body can be inlined elsewhere:
    engine/lean_send.py), None for any other or one whose constants were swapped in."""
    code = getattr(fn, "__code__", None)
    return None if code is None else _SOURCE.get(code)


def retire(fn: Callable) -> None:
    """Make a generated route or match function forward to its owner's current one."""
    ns = getattr(fn, "__globals__", None)
    if ns is not None and ns.get("_stale") is False:
        ns["_stale"] = True


def build_node_fn(node: Any) -> Callable:
    """`fn(u, bean, out) -> out` collecting the handles of `node`'s subtree."""
    g = _Gen()
    _node(g, node, 1, {}, 0)
    return g.make("u, bean, out", [], ["return out"])


def build_route_fn(route: Any, roots: tuple, owner: Any, empty: Any,
                   dedup: Callable[[list], list]) -> Callable:
    """`fn(bean) -> list | empty` over the trees of an event type and its supertypes. Once
    `retire`d (the route changed) it forwards to the current one, so a matcher handed out
    earlier stays correct."""
    g = _Gen()
    r, x, e, d = g.const(route), g.const(owner), g.const(empty), g.const(dedup)
    for root in roots:
        _node(g, root, 1, {}, 0)
    head = ["if _stale:", f"    return {r}.fn(bean)", "u = bean.underlying", "out = None"]
    tail = ["if out is None:", f"    return {e}",
            f"if {x}._multi and len(out) > 1:", f"    return {d}(out)", "return out"]
    return g.make("bean", head, tail)


STALE = object()   # a scan generator was retired: continue with the index's current one


def build_scan_fn(roots: tuple, owner: Any, dedup: Callable[[list], list], route: Any) -> Callable:
    """`fn(events, i, n, bean)`: a generator routing a batch of mapping events of one type in
    one generated loop, from `i` to `n`. It yields `(j, handles)` for each event some filter
    wants and `(j, None)` for an event that is not a mapping (the caller routes it the slow
    way, which reports it); it ends after the last event. Filters change only while the
    caller holds a yielded event (user code runs then): a retired generator yields
    `(j, STALE)` on resuming, j being the next event, and ends. `bean` is a probe whose
    underlying is swapped in when a filter leaf evaluates an expression; `route` the type's
    route (its `fn` routes one event: an unhashable value's retry, see _emit_eq).
    A generator because resuming one costs less than calling a function per wanted event.

    The loop is what an event nothing wants pays for, so it holds the least per event: a
    list iterator and no index, `out` None on entry to every event (reset after a yield,
    not set per event), the probe set only before code that reads it. An event's position
    is worked out when it is yielded, from the iterator's remaining length; that costs
    more than counting when most events are wanted, so the same body runs in two loops
    over the one iterator: the sparse one (no count) and, once two wanted events come
    close together, the dense one (enumerate), which hands back after a long run of
    events nothing wants."""
    g = _Gen(scan=True)
    x, d, st = g.const(owner), g.const(dedup), g.const(STALE)
    for root in roots:
        _node(g, root, 4, {}, 0)
    body = g.lines or ["    " * 4 + "pass"]     # only dead entries (`x = null`)

    def loop(at: Optional[str], gap: Optional[str]) -> list[str]:
        """A loop's tail after the body: yield what is wanted, stop when stale. `at` is
        the position of the event just read (None: `j` is counted already); `gap` the
        test on the distance from the last wanted event that ends this loop for the
        other."""
        find = [f"        j = {at}"] if at else []
        miss = ["        if out is None:"]
        if at is None:      # dense: a long run of unwanted events goes back to sparse
            miss += ["            if j - last > DENSE_GAP:", "                break"]
        retry = []
        if g.unguarded is not None:
            # the unguarded set test met an unhashable value (else the error is not
            # ours): the event again through the route's own code, which guards it
            retry = ["    except TypeError:",
                     f"        if _hashable({g.unguarded}):", "            raise",
                     "        bean.underlying = u",
                     f"        out = {g.const(route)}.fn(bean) or None",
                     "        if out is None:", "            continue",
                     *find,
                     "        h = out",
                     "        out = None",
                     "        if j >= n:",
                     "            return",
                     "        yield j, h"]
        return ["    except AttributeError:", *find,    # not a mapping (no `get`)
                "        out = None",
                "        if j >= n:",          # `events` grew while an event was held
                "            return",
                "        yield j, None",
                *retry,
                "    else:", *miss,
                "            continue",
                f"        if {x}._multi and len(out) > 1:", f"            out = {d}(out)",
                *find,
                "        h = out",
                "        out = None",
                "        if j >= n:",
                "            return",
                "        yield j, h",
                "    if _stale:", f"        yield j + 1, {st}", "        return",
                *([f"    if {gap}:", "        last = j", "        break"] if gap else []),
                "    last = j"]

    def indented(lines: list[str], ind: int) -> list[str]:
        return ["    " * ind + line for line in lines]

    # the iterator's index less one
    sparse = indented(loop("len(src) - it.__length_hint__() - 1", "j - last <= DENSE_HIT"), 2)
    dense = indented(loop(None, None), 2)
    g.lines = [
        # every constant now registered: the locals the loops read
        *(f"    k{i} = c{i}" for i, c in enumerate(g.consts) if type(c) not in _LITERAL_TYPES),
        "    if _stale:", f"        yield i, {st}", "        return",
        "    src = _source(events, n)", "    it = iter(src)", "    if i:",
        "        it.__setstate__(i)",
        "    out = None",
        *([f"    {g.unguarded} = None"] if g.unguarded else []),
        "    last = j = i - DENSE_GAP - 1",
        "    while True:",
        "        for u in it:", "            try:", *body, *sparse,
        "        else:", "            return",
        "        for j, u in enumerate(it, j + 1):", "            try:", *body, *dense,
        "        else:", "            return"]
    return g.make("events, i, n, bean", [], [])


def _source(events: Any, n: int) -> Any:
    """What a scanner iterates: `events` itself when it is a list or tuple ending at `n`
    (their iterators can start at an index and tell how many items remain), else a list
    of its first `n` items."""
    if type(events) is list or type(events) is tuple:
        return events if len(events) == n else events[:n]
    return [events[k] for k in range(n)]


def _hashable(v: Any) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


_NAMESPACE["_source"] = _source
_NAMESPACE["_hashable"] = _hashable


def build_match_fn(owner: Any, routes: list, empty: Any,
                   dedup: Callable[[list], list]) -> Callable:
    """`owner.match`: `fn(bean)` with the routes of `routes`' event types inlined behind
    identity tests of the event type, the others looked up in `owner._hot`."""
    g = _Gen()
    x, e, d, hot = g.const(owner), g.const(empty), g.const(dedup), g.const(owner._hot)
    g.emit(1, "if _stale:")
    g.emit(2, f"return {x}.match(bean)")
    g.emit(1, "t = bean.event_type")
    for route in routes:
        g.emit(1, f"if t is {g.const(route.event_type)}:")
        g.emit(2, "u = bean.underlying")
        g.emit(2, "out = None")
        for root in route.roots:
            _node(g, root, 2, {}, 0)
        g.emit(2, "if out is None:")
        g.emit(3, f"return {e}")
        g.emit(2, f"if {x}._multi and len(out) > 1:")
        g.emit(3, f"return {d}(out)")
        g.emit(2, "return out")
    tail = [f"r = {hot}.get(t)", "if r:", "    return r.fn(bean)", "if r is False:",
            f"    return {e}", f"return {x}._route(t).fn(bean)"]
    return g.make("bean", [], tail)


def _node(g: _Gen, node: Any, ind: int, known: dict[str, str], depth: int) -> None:
    # Esper asks a node's indexes before it adds the node's own handles: a pattern's more
    # specific filter (deeper) sees an event before a broader one of the same statement
    for idx in node.indexes:
        if idx.shape():
            _EMITTERS[type(idx)](g, idx, ind, known, depth)
    handles = node.handles
    if len(handles) == 1:
        h = g.const(next(iter(handles.values())))
        g.emit(ind, "if out is None:")
        g.emit(ind + 1, f"out = [{h}]")
        g.emit(ind, "else:")
        g.emit(ind + 1, f"out.append({h})")
    elif handles:
        h = g.const(handles)
        g.emit(ind, "if out is None:")
        g.emit(ind + 1, f"out = list({h}.values())")
        g.emit(ind, "else:")
        g.emit(ind + 1, f"out.extend({h}.values())")


def _child(g: _Gen, child: Any, ind: int, known: dict[str, str], depth: int) -> None:
    if g.budget > 0 and depth < MAX_DEPTH:
        g.budget -= 1
        child.inlined = True     # sticky: a change below must rebuild this code too
        before = len(g.lines)
        _node(g, child, ind, dict(known), depth + 1)
        if len(g.lines) == before:
            g.emit(ind, "pass")
    else:
        g.probe(ind)
        g.emit(ind, f"out = {g.const(child)}.fn(u, bean, out)")


def _read(g: _Gen, idx: Index, ind: int, known: dict[str, str]) -> str:
    """The event's value of the index's property, read once per generated block."""
    v = known.get(idx.lookup)
    if v is None:
        v = known[idx.lookup] = g.var("v")
        if idx.inline_name is not None:
            g.emit(ind, f"{v} = u.get({g.const(idx.inline_name)})")
        else:
            g.emit(ind, f"{v} = {g.const(idx.getter)}(u)")
    return v


def _dynamic(g: _Gen, idx: Index, ind: int, v: str) -> None:
    g.probe(ind)
    g.emit(ind, f"out = {g.const(idx)}.match({v}, u, bean, out)")


def _guarded(g: _Gen, ind: int, expr: str, on_error: str) -> str:
    """`m = expr`, where a TypeError (incomparable types) means `on_error`."""
    m = g.var("m")
    g.emit(ind, "try:")
    g.emit(ind + 1, f"{m} = {expr}")
    g.emit(ind, "except TypeError:")
    g.emit(ind + 1, f"{m} = {on_error}")
    return m


def _emit_eq(g: _Gen, idx: EqIndex, ind: int, known: dict[str, str], depth: int) -> None:
    v = _read(g, idx, ind, known)
    if idx.shape() == 1:
        k, child = idx.single()
        g.emit(ind, f"if {v} is None:" if k is None else f"if {v} == {g.const(k)}:")
        _child(g, child, ind + 1, known, depth)
        return
    # most events miss every constant: a set membership test (no call, the set's table
    # probed in place), then the dict for a hit; `keys` and `live` are never replaced
    m, n = g.var("m"), g.var("n")
    if g.scan and g.unguarded is None and idx.inline_name is not None \
            and len(g.lines) == 1 and g.lines[0].lstrip().startswith(f"{v} = "):
        # the first thing a scanner does for an event (after reading the value): a
        # TypeError (unhashable value) goes to the scanner's handler, which routes the
        # event again through the guarded per-event code; the guard costs the scanner's
        # hottest path more than the lookup's own difference from one `==`
        g.unguarded = v
        g.emit(ind, f"if {v} in {g.const(idx.keys)}:")
    else:
        g.emit(ind, "try:")
        g.emit(ind + 1, f"{m} = {v} in {g.const(idx.keys)}")
        g.emit(ind, "except TypeError:")        # unhashable value: equal to no constant
        g.emit(ind + 1, f"{m} = False")
        g.emit(ind, f"if {m}:")
    g.emit(ind + 1, f"{n} = {g.const(idx.live)}[{v}]")
    # a leaf child holding one handle (a pattern's or a partition's filter, say) is
    # collected here rather than through a call
    h = g.var("h")
    g.emit(ind + 1, f"{h} = {n}.one")
    g.emit(ind + 1, f"if {h} is not {g.const(NOT_ONE)}:")
    g.emit(ind + 2, "if out is None:")
    g.emit(ind + 3, f"out = [{h}]")
    g.emit(ind + 2, "else:")
    g.emit(ind + 3, f"out.append({h})")
    g.emit(ind + 1, "else:")
    g.probe(ind + 2)
    g.emit(ind + 2, f"out = {n}.fn(u, bean, out)")


def _emit_ne(g: _Gen, idx: NeIndex, ind: int, known: dict[str, str], depth: int) -> None:
    v = _read(g, idx, ind, known)
    if idx.shape() > 1:
        _dynamic(g, idx, ind, v)
        return
    k, child = idx.single()
    if isinstance(idx, IsNotIndex):
        g.emit(ind, f"if {v} is not None:" if k is None
               else f"if {v} is None or {v} != {g.const(k)}:")
    else:
        g.emit(ind, f"if {v} is not None and {v} != {g.const(k)}:")
    _child(g, child, ind + 1, known, depth)


def _emit_threshold(g: _Gen, idx: ThresholdIndex, ind: int, known: dict[str, str], depth: int) -> None:
    v = _read(g, idx, ind, known)
    if idx.shape() > 1:
        _dynamic(g, idx, ind, v)
        return
    t, child = idx.single()
    g.emit(ind, f"if {v} is not None:")
    m = _guarded(g, ind + 1, f"{v} {_CMP[idx.op]} {g.const(t)}", "False")
    g.emit(ind + 1, f"if {m}:")
    _child(g, child, ind + 2, known, depth)


def _emit_range(g: _Gen, idx: RangeIndex, ind: int, known: dict[str, str], depth: int) -> None:
    v = _read(g, idx, ind, known)
    if idx.shape() > 1:
        _dynamic(g, idx, ind, v)
        return
    (low, high), child = idx.single()
    lo, hi = g.const(low), g.const(high)
    if isinstance(idx, NotRangeIndex):
        below = f"{v} < {lo}" if idx.low_included else f"{v} <= {lo}"
        above = f"{v} > {hi}" if idx.high_included else f"{v} >= {hi}"
        expr = f"{below} or {above}"
    else:
        expr = (f"{lo} {'<=' if idx.low_included else '<'} {v} "
                f"{'<=' if idx.high_included else '<'} {hi}")
    g.emit(ind, f"if {v} is not None:")
    m = _guarded(g, ind + 1, expr, "False")
    g.emit(ind + 1, f"if {m}:")
    _child(g, child, ind + 2, known, depth)


def _emit_in(g: _Gen, idx: "InListIndex | InKeysIndex", ind: int, known: dict[str, str], depth: int) -> None:
    """`in (...)`, and `in keys of` a live container: the one container is a constant of
    the code while its keys change without the code changing."""
    v = _read(g, idx, ind, known)
    if idx.shape() > 1:
        _dynamic(g, idx, ind, v)
        return
    members, child = idx.single()
    m = _guarded(g, ind, f"{v} in {g.const(members)}", "False")
    g.emit(ind, f"if {m}:")
    _child(g, child, ind + 1, known, depth)


def _emit_not_in(g: _Gen, idx: NotInListIndex, ind: int, known: dict[str, str], depth: int) -> None:
    v = _read(g, idx, ind, known)
    if idx.shape() > 1:
        _dynamic(g, idx, ind, v)
        return
    members, child = idx.single()
    g.emit(ind, f"if {v} is not None:")
    m = _guarded(g, ind + 1, f"{v} not in {g.const(members)}", "True")
    g.emit(ind + 1, f"if {m}:")
    _child(g, child, ind + 2, known, depth)


def _emit_bool(g: _Gen, idx: BoolExprIndex, ind: int, known: dict[str, str], depth: int) -> None:
    if idx.shape() > 1:
        _dynamic(g, idx, ind, "None")
        return
    pred, child = idx.single()
    g.probe(ind)
    g.emit(ind, f"if {g.const(pred)}(bean):")
    _child(g, child, ind + 1, known, depth)


_EMITTERS: dict[type, Callable[..., None]] = {
    EqIndex: _emit_eq,
    IsIndex: _emit_eq,
    NeIndex: _emit_ne,
    IsNotIndex: _emit_ne,
    ThresholdIndex: _emit_threshold,
    RangeIndex: _emit_range,
    NotRangeIndex: _emit_range,
    InListIndex: _emit_in,
    NotInListIndex: _emit_not_in,
    BoolExprIndex: _emit_bool,
    InKeysIndex: _emit_in,
}
