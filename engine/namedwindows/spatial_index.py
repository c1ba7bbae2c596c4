"""Spatial indexes on named windows (`create index I on W((px, py) pointregionquadtree(...))`,
`((x, y, w, h) mxcifquadtree(...))`): kept in step with the window like WindowIndex; a lookup
by query rectangle `(x, y, width, height)` returns the candidate rows in insertion order,
which the statement's where-clause then narrows (so results equal a scan's)."""
from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable, Optional, Sequence

from engine.contracts.bean import EventBean

from .quadtree import MXCIFQuadTree, PointRegionQuadTree

# the tree of each kind (epl.plans.namedwindows.SPATIAL_ARITY: the expressions each takes)
TREES = {"pointregionquadtree": PointRegionQuadTree, "mxcifquadtree": MXCIFQuadTree}


class SpatialIndex:
    """Rows of a window by point or rectangle. `columns` is a key no equality lookup can
    ask for: on-actions look it up by `(kind marker, row expressions...)` and a query
    rectangle."""

    __slots__ = ("name", "kind", "columns", "kinds", "unique", "coords", "params", "tree", "seq", "_next")

    spatial = True

    def __init__(self, name: str, kind: str, texts: Sequence[str],
                 coords: Sequence[Callable[[Any], Any]], params: Sequence[float]) -> None:
        self.name = name
        self.kind = kind
        self.columns = (f"<{kind}>",) + tuple(texts)
        self.kinds = (kind,)
        self.unique = False
        self.coords = tuple(coords)
        self.params = tuple(params)
        self.tree: Any = None
        self.seq: dict[int, int] = {}
        self._next = itertools.count()
        self.clear()

    def clear(self) -> None:
        x, y, w, h, *rest = self.params
        self.tree = TREES[self.kind](x, y, w, h, *[int(v) for v in rest])
        self.seq = {}

    def _coords_of(self, bean: EventBean) -> tuple:
        eps = (bean,)
        return tuple(f(eps) for f in self.coords)

    def add(self, beans: Iterable[EventBean]) -> None:
        for b in beans:
            self.seq[id(b)] = next(self._next)
            self.tree.insert(self._coords_of(b), b)

    def remove(self, beans: Iterable[EventBean]) -> None:
        for b in beans:
            if self.seq.pop(id(b), None) is not None:
                self.tree.remove(b)

    def check(self, new: Sequence[EventBean], old: Optional[Sequence[EventBean]] = None) -> None:
        """Spatial indexes are never unique."""

    def get(self, key: tuple) -> list[EventBean]:
        """Candidate rows for the query rectangle `key` = (x, y, width, height)."""
        seq = self.seq
        rows = list(self.tree.query(*key))
        rows.sort(key=lambda b: seq.get(id(b), 0))
        return rows
