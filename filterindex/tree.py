"""FilterIndex: per event type a tree of filter nodes, routing each event to the handles
(statements, pattern sub-expressions, context partitions) whose filters it satisfies.

A node holds the handles whose filter paths end there and a list of indexes, one per
(property, operator) (filterindex/indexes.py); each index entry leads to a child node.
Registrations with identical parameters share entries and nodes; removing the last
registration under an entry removes it and every node or index left empty.

Matching runs generated code (filterindex/codegen.py), rebuilt lazily after a change: a
change marks the node's function stale, and its parent's too when the parent's code
inlined it, up to the routes of the event types that see the tree.

Not thread-safe: the engine serializes `add`, `remove` and `match`.
"""
from __future__ import annotations

import itertools
import re
from typing import Any, Callable, Iterator, Optional, Sequence

from engine.contracts.epoch import EPOCH

from .codegen import STALE, NOT_ONE, build_match_fn, build_node_fn, build_route_fn, build_scan_fn, retire
from .indexes import INDEX_KINDS, Index
from ._preprocess import Preprocessor, preprocessed_route, preprocessed_scan
from .spec import FilterOp, FilterParam, FilterSpec

# Returned by `match` when nothing matches, to avoid allocating: callers must not mutate it.
NO_MATCH: tuple = ()

MATCH_INLINED_TYPES = 3     # event types whose routes `match` holds inline

# Most selective first, so that the first levels of a tree cut deepest (Esper's order).
_OP_RANK = {op: i for i, op in enumerate((
    FilterOp.EQ, FilterOp.IS, FilterOp.IN_LIST,
    FilterOp.RANGE_CLOSED, FilterOp.RANGE_OPEN, FilterOp.RANGE_HALF_OPEN,
    FilterOp.RANGE_HALF_CLOSED, FilterOp.GT, FilterOp.GE, FilterOp.LT, FilterOp.LE,
    FilterOp.NE, FilterOp.IS_NOT, FilterOp.NOT_IN_LIST,
    FilterOp.NOT_RANGE_CLOSED, FilterOp.NOT_RANGE_OPEN, FilterOp.NOT_RANGE_HALF_OPEN,
    FilterOp.NOT_RANGE_HALF_CLOSED, FilterOp.IN_KEYS, FilterOp.BOOL_EXPR))}

_EQ = FilterOp.EQ
_BOOL = FilterOp.BOOL_EXPR
_IDENT = re.compile(r"[A-Za-z_$][\w$]*\Z")
_slots = itertools.count()


class FilterNode:
    """One node of a filter tree. `fn(u, bean, out) -> out` collects the handles of its
    subtree for an event (u is the underlying object); it is rebuilt lazily."""

    __slots__ = ("handles", "indexes", "by_key", "parent", "key", "fn", "_stale",
                 "inlined", "routes", "one")

    def __init__(self, parent: Optional[Index], key: Any) -> None:
        self.handles: dict[int, Any] = {}           # slot -> handle, insertion order
        self.indexes: list[Index] = []
        self.by_key: dict[tuple, Index] = {}        # (lookup, op) -> index
        self.parent = parent                        # the index whose entry leads here
        self.key = key                              # that entry's key
        self.inlined = False                        # inlined in the parent's code (sticky)
        self.routes: list[_Route] = []              # roots only: routes through this tree
        self.one: Any = NOT_ONE                     # the handle of a one-handle leaf
        self._stale = self._build_and_run
        self.fn: Callable = self._stale

    def _build_and_run(self, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        fn = self.fn = build_node_fn(self)
        return fn(u, bean, out)

    def is_empty(self) -> bool:
        return not self.handles and not self.indexes

    def invalidate(self) -> None:
        """Called on every change of the node's handles or indexes that its code sees."""
        h = self.handles
        if self.indexes:
            self.one = NOT_ONE
            self.fn = self._stale
        else:
            # a leaf needs no generated code of its own: its handles are all it collects
            self.one = next(iter(h.values())) if len(h) == 1 else NOT_ONE
            self.fn = self._collect
        node = self
        while True:
            parent = node.parent
            if parent is None:
                for r in node.routes:
                    r.invalidate()
                return
            if not node.inlined:
                return
            node = parent.owner
            node.fn = node._stale

    def _collect(self, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        """The code of a leaf (no indexes)."""
        if out is None:
            return list(self.handles.values())
        out.extend(self.handles.values())
        return out


class _Route:
    """Routing of one concrete event type over the trees of it and its supertypes."""

    __slots__ = ("owner", "event_type", "ancestors", "roots", "fn", "in_match", "scan", "pre", "inner")

    def __init__(self, owner: "FilterIndex", event_type: Any, ancestors: tuple) -> None:
        self.owner = owner
        self.event_type = event_type
        self.ancestors = ancestors
        self.roots: tuple[FilterNode, ...] = ()
        self.fn: Callable[[Any], Sequence] = _discard
        self.in_match = False                       # its code is inlined in owner.match
        self.scan: Optional[Callable] = None        # batch routing, built on demand
        self.pre: Optional[Preprocessor] = None     # see FilterIndex.set_preprocessor
        self.inner: Optional[Callable] = None       # the generated route a preprocessor wraps

    def set_roots(self, roots: tuple) -> None:
        for r in self.roots:
            r.routes.remove(self)
        self.roots = roots
        for r in roots:
            r.routes.append(self)
        # the hot table holds False for a type nothing filters: discarded on one lookup
        self.owner._hot[self.event_type] = self if roots or self.pre is not None else False
        self.owner._invalidate_match()
        self.invalidate()

    def invalidate(self) -> None:
        # (the roots or a root's handles changed: batch loops that trust a snapshot of
        # the routing look again, see engine/contracts/epoch.py)
        EPOCH.n += 1
        retire(self.fn)
        if getattr(self.fn, "stale", None) is False:     # a preprocessed route
            self.fn.stale = True                          # type: ignore[attr-defined]
        if self.inner is not None:
            retire(self.inner)
            self.inner = None
        if self.scan is not None:
            retire(self.scan)
            self.scan = None
        self.fn = self._build_and_run if self.roots or self.pre is not None else _discard
        if self.in_match:
            self.owner._invalidate_match()

    def build(self) -> Optional[Callable[[Any], Sequence]]:
        if self.pre is not None:
            if self.fn == self._build_and_run:
                self.inner = build_route_fn(self, self.roots, self.owner, NO_MATCH, _dedup) \
                    if self.roots else None
                self.fn = preprocessed_route(self, self.pre, self.inner or _discard, NO_MATCH)
            return self.fn
        if not self.roots:
            return None
        if self.fn == self._build_and_run:
            self.fn = build_route_fn(self, self.roots, self.owner, NO_MATCH, _dedup)
        return self.fn

    def _build_and_run(self, bean: Any) -> Sequence:
        return self.build()(bean)

    def scanner(self) -> Callable:
        if self.scan is None and self.pre is not None:
            self.scan = preprocessed_scan(self)
        if self.scan is None:
            self.scan = build_scan_fn(self.roots, self.owner, _dedup, self) if self.roots else _scan_discard
        return self.scan


def _scan_discard(events: Any, i: int, n: int, bean: Any) -> Iterator[tuple]:
    """Nothing filters the type: every event of the batch is discarded."""
    return iter(())


def _discard(bean: Any) -> Sequence:
    return NO_MATCH


def _dedup(out: list) -> list:
    """Each handle once (a handle registered with several paths of an `or`)."""
    seen: set[int] = set()
    res = []
    for h in out:
        i = id(h)
        if i not in seen:
            seen.add(i)
            res.append(h)
    return res


class _Registration:
    """The token `add` returns: where the registration's paths end, to remove them."""

    __slots__ = ("owner", "handle", "spec", "leaves")

    def __init__(self, owner: "FilterIndex", handle: Any, spec: FilterSpec) -> None:
        self.owner = owner
        self.handle = handle
        self.spec = spec
        self.leaves: Optional[list[tuple[FilterNode, int]]] = []

    def __repr__(self) -> str:
        state = "removed" if self.leaves is None else f"{len(self.leaves)} path(s)"
        return f"<filter registration {self.handle!r} on {self.spec.event_type!r}: {state}>"


class FilterIndex:
    """All active filters of an engine, per event type.

    `match(bean)` returns the handles whose filters the event satisfies (filters on its
    type and on every supertype), each once; when none does it returns the shared constant
    `NO_MATCH` (an empty tuple, never to be mutated), otherwise a fresh list. Order: tree
    order, Esper's (a node's indexes in creation order, a range or comparison index's
    entries by ascending bound, then the node's handles in registration order; supertype
    trees after the type's own), not registration order. Changes made while the
    caller processes a result only affect later calls: `match` has collected everything
    before it returns.
    """

    match: Callable[[Any], Sequence]

    def __init__(self) -> None:
        self._trees: dict[Any, FilterNode] = {}     # event type -> root
        self._routes: dict[Any, _Route] = {}         # concrete event type -> route
        self._hot: dict[Any, Any] = {}              # the same, False when nothing filters it
        self._filters = 0
        self._nodes = 0                              # nodes + indexes + entries
        self._handle_paths: dict[int, int] = {}      # id(handle) -> paths registered
        self._multi = 0                              # handles with more than one path
        self._stale_match = self._build_match_and_run
        self.match = self._stale_match              # the hot path, see "matching" below

    # -- registration ---------------------------------------------------------------
    def add(self, spec: FilterSpec, handle: object) -> object:
        """Register `handle` for events satisfying `spec`; returns the token for `remove`."""
        t = spec.event_type
        paths = spec.paths
        if len(paths) == 1:                 # the common case: no `or`, nothing to dedupe
            unique: Sequence[tuple] = (self._normalize_one(paths[0], t),)
        else:
            unique = []
            seen: list[tuple] = []
            for p in (self._normalize_one(path, t) for path in paths):
                ident = tuple((_ikey(q), k) for q, k in p)
                if ident not in seen:       # `a=1 or a=1`: one path is enough
                    seen.append(ident)
                    unique.append(p)
        reg = _Registration(self, handle, spec)
        if not unique:
            self._filters += 1
            return reg
        root = self._trees.get(t)
        if root is None:
            root = self._trees[t] = FilterNode(None, t)
            self._nodes += 1
            self._trees_changed(t)
        leaves = reg.leaves
        counts = self._handle_paths
        hid = id(handle)
        for path in unique:
            node = root
            if len(path) == 1:
                node = self._descend(node, path[0][0], path[0][1], t)
            else:
                remaining = list(path)
                while remaining:
                    param, key = remaining.pop(_placed(node, remaining))
                    node = self._descend(node, param, key, t)
            slot = next(_slots)
            handles = node.handles
            handles[slot] = handle
            if len(handles) < 3:            # 0 -> 1 or 1 -> 2: the node's code changes
                node.invalidate()
            leaves.append((node, slot))
            n = counts.get(hid, 0) + 1
            counts[hid] = n
            if n == 2:
                self._multi += 1
        self._filters += 1
        return reg

    def remove(self, token: object) -> None:
        """Remove a registration; removing it twice is a no-op."""
        if not isinstance(token, _Registration) or token.owner is not self:
            raise ValueError(f"not a registration of this filter index: {token!r}")
        leaves = token.leaves
        if leaves is None:
            return
        counts = self._handle_paths
        for node, slot in leaves:
            handles = node.handles
            handle = handles.pop(slot)
            if len(handles) < 2:
                if handles or node.indexes:
                    node.invalidate()
                else:
                    self._prune(node)
            hid = id(handle)
            n = counts[hid] - 1
            if n:
                counts[hid] = n
                if n == 1:
                    self._multi -= 1
            else:
                del counts[hid]
        token.leaves = None
        self._filters -= 1

    def _normalize_one(self, path: tuple, t: Any) -> tuple:
        """`_normalize`, short-cut for the common lone equality with its getter."""
        if len(path) == 1:
            p = path[0]
            if p.op is _EQ and p.getter is not None:
                key = p.value
                try:
                    hash(key)
                except TypeError:
                    pass
                else:
                    return ((p, key),)
        return self._normalize(path, t)

    def _normalize(self, path: tuple, t: Any) -> tuple:
        """Parameters most selective first, each with its getter and hashable entry key;
        duplicates dropped. Validates everything before the tree is touched."""
        out: list[tuple[FilterParam, Any]] = []
        for p in path:
            if not isinstance(p.op, FilterOp):
                raise TypeError(f"not a FilterOp: {p.op!r}")
            try:
                key = INDEX_KINDS[p.op].entry_key(p.value, p.key)
                hash(key)
            except TypeError:
                p, key = _as_predicate(p, t), None
                key = INDEX_KINDS[FilterOp.BOOL_EXPR].entry_key(p.value, p.key)
            except ValueError as e:
                raise ValueError(f"bad value for {p.op.name} on '{p.lookup}': {p.value!r}") from e
            if p.op is not FilterOp.BOOL_EXPR and p.getter is None:
                p = FilterParam(p.lookup, p.op, p.value, t.getter(p.lookup), p.key)
            if not out or not any(q.op is p.op and _ikey(q) == _ikey(p) and k == key for q, k in out):
                out.append((p, key))
        if len(out) > 1:
            # by operator only, as Esper: parameters of one operator keep their written order
            out.sort(key=lambda pk: _OP_RANK[pk[0].op])
        return tuple(out)

    def _descend(self, node: FilterNode, p: FilterParam, key: Any, t: Any) -> FilterNode:
        op = p.op
        ikey = (None, "BOOL_EXPR") if op is _BOOL else (p.lookup, op._name_)     # _ikey(p)
        idx = node.by_key.get(ikey)
        if idx is None:
            idx = INDEX_KINDS[p.op](node, p.lookup, p.op, p.getter, _inline_name(p, t))
            node.by_key[ikey] = idx
            node.indexes.append(idx)
            self._nodes += 1
            node.invalidate()
        child = idx.entries.get(key)
        if child is None:
            child = FilterNode(idx, key)
            before = idx.shape()
            idx.add(key, p.value, child)
            self._nodes += 2                     # the entry and its node
            if idx.shape() != before:
                node.invalidate()
        return child

    def _prune(self, node: FilterNode) -> None:
        while node.is_empty():
            idx = node.parent
            node.fn = node._stale = None         # break cycles of the removed node
            if idx is None:
                t = node.key
                del self._trees[t]
                self._nodes -= 1
                self._trees_changed(t)
                return
            parent = idx.owner
            before = idx.shape()
            idx.remove(node.key)
            self._nodes -= 2
            if not idx.entries:
                parent.indexes.remove(idx)
                del parent.by_key[_ikey(idx)]
                self._nodes -= 1
                parent.invalidate()
            elif idx.shape() != before:
                parent.invalidate()
            node = parent

    def _trees_changed(self, t: Any) -> None:
        for route in self._routes.values():
            if t in route.ancestors:
                route.set_roots(self._roots_for(route.ancestors))

    def _roots_for(self, ancestors: tuple) -> tuple:
        return tuple(self._trees[a] for a in ancestors if a in self._trees)

    # -- matching -------------------------------------------------------------------
    # `match` is an instance attribute holding generated code that inlines the routes of
    # the first few filtered event types (one call per event, not two) and looks the
    # others up; it is rebuilt lazily after a change. An instance attribute rather than a
    # method: a method of the same name would slow every attribute lookup of it down.
    # A reference to an outdated version forwards to the current one (a little slower:
    # look `index.match` up per call, as attribute access, to stay on the fast path).
    def _invalidate_match(self) -> None:
        if self.match is not self._stale_match:
            for r in self._routes.values():
                r.in_match = False
            retire(self.match)
            self.match = self._stale_match

    def _build_match_and_run(self, bean: Any) -> Sequence:
        fn = self.match
        if fn is self._stale_match:
            routes = [r for r in self._routes.values()
                      if r.roots and r.pre is None][:MATCH_INLINED_TYPES]
            for r in routes:
                r.in_match = True
            fn = self.match = build_match_fn(self, routes, NO_MATCH, _dedup)
        return fn(bean)

    def matcher(self, event_type: Any) -> Optional[Callable[[Any], Sequence]]:
        """The routing function for events of `event_type`: `fn(bean)` is `match(bean)`
        without the type lookup, and stays correct as filters are added and removed. None
        when nothing filters the type or its supertypes (a snapshot: ask again after `add`)."""
        return self._route(event_type).build()

    def set_preprocessor(self, event_type: Any, pre: Optional[Preprocessor]) -> None:
        """Events of exactly `event_type` pass `pre(bean)` before any filter sees them: it
        returns the bean (unchanged), a replacement bean that the filters and the matched
        handles then take, or None to drop the event. None removes the preprocessor."""
        route = self._route(event_type)
        route.pre = pre
        route.set_roots(route.roots)

    def match_filters(self, bean: Any) -> Sequence:
        """`match(bean)` without the type's preprocessor: the handles whose filters the
        event as it is satisfies."""
        route = self._route(bean.event_type)
        fn = route.build()
        if route.pre is not None:
            fn = route.inner
        return fn(bean) if fn is not None else NO_MATCH

    def router(self, event_type: Any) -> Any:
        """The routing of `event_type`'s events as an object whose attribute `fn` is always the
        current `fn(bean)` (match without the type lookup; an empty tuple when nothing wants the
        event): read `fn` per event, never keep it. One object per type for the index's life."""
        return self._route(event_type)

    def scanner(self, event_type: Any) -> Callable:
        """Batch routing for dict events of `event_type`: `fn(events, i, n, probe)` yields
        `(j, handles)` per wanted event (see codegen.build_scan_fn); (j, STALE) asks for the
        current scanner."""
        return self._route(event_type).scanner()

    def _route(self, t: Any) -> _Route:
        route = self._routes.get(t)
        if route is None:
            ancestors = tuple(t.ancestors()) if hasattr(t, "ancestors") else (t,)
            route = self._routes[t] = _Route(self, t, ancestors)
            route.set_roots(self._roots_for(ancestors))
        return route

    # -- introspection --------------------------------------------------------------
    def filter_count(self) -> int:
        """Live registrations."""
        return self._filters

    def node_count(self) -> int:
        """Live nodes, indexes and index entries (0 when no filter is registered)."""
        return self._nodes

    def event_types(self) -> list:
        """The event types that have a tree."""
        return list(self._trees)


def _placed(node: FilterNode, remaining: list) -> int:
    """Which of a path's remaining parameters goes under `node` next (Esper's tree builder):
    the first that fits one of the node's indexes, in the indexes' order; else the first
    remaining one (most selective first), which gets a new index. So a filter joins the
    layout earlier filters made, and the order in which the tree hands out handles follows
    that layout."""
    if node.indexes:
        for idx in node.indexes:
            ik = _ikey(idx)
            for j, (q, _k) in enumerate(remaining):
                if _ikey(q) == ik:
                    return j
    return 0


def _ikey(p: Any) -> tuple:
    """Which index of a node a parameter (or an index) belongs to: predicates share one.
    The operator by name: hashing an enum member runs Python code, hashing its name not."""
    op = p.op
    return (None, "BOOL_EXPR") if op is _BOOL else (p.lookup, op._name_)


def _inline_name(p: FilterParam, t: Any) -> Optional[str]:
    """The property name when generated code may read it as `u.get(name)`: a simple
    property of a map type read through the type's own getter."""
    rep = getattr(getattr(t, "representation", None), "value", None)
    if rep != "map" or not _IDENT.match(p.lookup):
        return None
    own = t.getter(p.lookup)     # an identifier of a map type: its getter always compiles
    return p.lookup if p.getter is own else None


def _as_predicate(p: FilterParam, t: Any) -> FilterParam:
    """A parameter whose constant is unhashable (a list, say) cannot key an index: it is
    evaluated as a predicate instead, with the index's own semantics."""
    from .semantics import param_predicate
    getter = p.getter if p.getter is not None else t.getter(p.lookup)
    return FilterParam(p.lookup, FilterOp.BOOL_EXPR, param_predicate(p.op, p.value, getter))
