"""Quadtrees for the spatial indexes of named windows: a point-region quadtree (points, split
into four quadrants when a leaf passes its capacity) and an MX-CIF quadtree (rectangles, each
kept at the smallest quadrant that contains it whole). Queries return candidates: every item
that may lie in (or intersect) the query rectangle, a superset the caller's predicate then
narrows, so results equal a scan's. Items outside the tree's bounds (or without numeric
coordinates) are kept aside and always returned as candidates."""
from __future__ import annotations

from typing import Any, Iterator, Optional


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


class _Node:
    __slots__ = ("x", "y", "w", "h", "depth", "items", "kids")

    def __init__(self, x: float, y: float, w: float, h: float, depth: int) -> None:
        self.x, self.y, self.w, self.h, self.depth = x, y, w, h, depth
        self.items: list[tuple[tuple, Any]] = []      # (coordinates, item)
        self.kids: Optional[tuple["_Node", ...]] = None

    def split(self) -> None:
        hw, hh, d = self.w / 2, self.h / 2, self.depth + 1
        x, y = self.x, self.y
        self.kids = (_Node(x, y, hw, hh, d), _Node(x + hw, y, hw, hh, d),
                     _Node(x, y + hh, hw, hh, d), _Node(x + hw, y + hh, hw, hh, d))

    def kid_for_point(self, px: float, py: float) -> "_Node":
        assert self.kids is not None
        right = px >= self.x + self.w / 2
        below = py >= self.y + self.h / 2
        return self.kids[(2 if below else 0) + (1 if right else 0)]

    def kid_containing(self, r: tuple) -> Optional["_Node"]:
        assert self.kids is not None
        for k in self.kids:
            if k.x <= r[0] and k.y <= r[1] and r[0] + r[2] < k.x + k.w and r[1] + r[3] < k.y + k.h:
                return k
        return None

    def meets(self, qx: float, qy: float, qx2: float, qy2: float) -> bool:
        # inclusive on every edge: a candidate too many is narrowed by the predicate
        return not (qx2 < self.x or qy2 < self.y or qx > self.x + self.w or qy > self.y + self.h)


class _Tree:
    """Shared by both kinds: bounds, capacity, height, the items kept aside, and where each
    item is (its node, for removal)."""

    def __init__(self, x: float, y: float, w: float, h: float, capacity: int = 4,
                 max_height: int = 20) -> None:
        self.root = _Node(x, y, w, h, 1)
        self.capacity = max(1, capacity)
        self.max_height = max(1, max_height)
        self.outside: list[tuple[tuple, Any]] = []
        self.where: dict[int, Any] = {}              # id(item) -> the list holding it

    def remove(self, item: Any) -> None:
        holder = self.where.pop(id(item), None)
        if holder is None:
            return
        for i, (_, it) in enumerate(holder):
            if it is item:
                del holder[i]
                return

    def query(self, qx: Any, qy: Any, qw: Any, qh: Any) -> Iterator[Any]:
        for _, it in self.outside:
            yield it
        if not (_num(qx) and _num(qy) and _num(qw) and _num(qh)):
            return
        qx2, qy2 = qx + qw, qy + qh
        stack = [self.root]
        while stack:
            n = stack.pop()
            if not n.meets(qx, qy, qx2, qy2):
                continue
            for _, it in n.items:
                yield it
            if n.kids is not None:
                stack.extend(n.kids)

    def _aside(self, coords: tuple, item: Any) -> None:
        self.outside.append((coords, item))
        self.where[id(item)] = self.outside


class PointRegionQuadTree(_Tree):
    """Points `(px, py)`; a leaf splits past `capacity` items until `max_height`."""

    def insert(self, coords: tuple, item: Any) -> None:
        px, py = coords
        r = self.root
        if not (_num(px) and _num(py) and r.x <= px < r.x + r.w and r.y <= py < r.y + r.h):
            self._aside(coords, item)
            return
        n = r
        while n.kids is not None:
            n = n.kid_for_point(px, py)
        n.items.append((coords, item))
        self.where[id(item)] = n.items
        if len(n.items) > self.capacity and n.depth < self.max_height:
            self._split(n)

    def _split(self, n: _Node) -> None:
        items, n.items = n.items, []
        n.split()
        for coords, it in items:
            k = n.kid_for_point(*coords)
            k.items.append((coords, it))
            self.where[id(it)] = k.items
        for k in n.kids or ():
            if len(k.items) > self.capacity and k.depth < self.max_height:
                self._split(k)


class MXCIFQuadTree(_Tree):
    """Rectangles `(x, y, width, height)`, each at the smallest node containing it whole; a
    node splits past `capacity` items until `max_height`, pushing down what fits a quadrant."""

    def insert(self, coords: tuple, item: Any) -> None:
        r = self.root
        if not all(_num(v) for v in coords) or coords[2] < 0 or coords[3] < 0 or not (
                r.x <= coords[0] and r.y <= coords[1] and coords[0] + coords[2] < r.x + r.w
                and coords[1] + coords[3] < r.y + r.h):
            self._aside(coords, item)
            return
        n = r
        while n.kids is not None:
            k = n.kid_containing(coords)
            if k is None:
                break
            n = k
        n.items.append((coords, item))
        self.where[id(item)] = n.items
        if n.kids is None and len(n.items) > self.capacity and n.depth < self.max_height:
            self._split(n)

    def _split(self, n: _Node) -> None:
        n.split()
        stay = []
        for coords, it in n.items:
            k = n.kid_containing(coords)
            if k is None:
                stay.append((coords, it))
                continue
            k.items.append((coords, it))
            self.where[id(it)] = k.items
        n.items[:] = stay
        for coords, it in stay:
            self.where[id(it)] = n.items
        for k in n.kids or ():
            if len(k.items) > self.capacity and k.depth < self.max_height:
                self._split(k)
