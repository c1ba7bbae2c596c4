"""The index kinds of a filter node: each maps the constants of one (property, operator) to
child nodes and finds the children an event value satisfies.

Every index keeps `entries` (entry key -> child node, insertion order) and a kind-specific
"live" structure holding only the entries that can ever match: `None` never satisfies a
comparison, so `price > null` is kept (its registrations must stay removable) but is dead.

`match(v, u, bean, out)` is the dynamic path used by generated code when an index has
several live entries; it calls `child.fn(u, bean, out)` for each satisfied entry and returns
`out` (None until the first handle is collected). `shape()` is 0, 1 or 2+ live entries; the
generated code depends only on it while it stays at 2 (see filterindex/codegen.py).
"""
from __future__ import annotations

import numbers
from decimal import Decimal
from operator import itemgetter
from typing import Any, Callable, Optional

from sortedcontainers import SortedKeyList, SortedList

from .spec import FilterOp

# Values are ordered only within a domain: numbers with numbers, strings with strings, any
# other type with itself. An event value of another domain satisfies no threshold (no
# TypeError escapes), which is what `'abc' > 5` means for a filter: no match.
_NUM = "num"
_STR = "str"
_FAST_DOMAINS: dict[type, object] = {int: _NUM, float: _NUM, bool: _NUM, str: _STR}


def domain(value: Any) -> object:
    d = _FAST_DOMAINS.get(type(value))
    if d is not None:
        return d
    if isinstance(value, (numbers.Real, Decimal)):
        return _NUM
    if isinstance(value, str):
        return _STR
    return type(value)


def _orderable(value: Any) -> bool:
    """A usable range endpoint: not null and not NaN (NaN compares false with everything)."""
    return value is not None and value == value


class Index:
    """Base of the index kinds. `owner` is the node holding this index."""

    __slots__ = ("owner", "lookup", "op", "getter", "inline_name", "entries")

    def __init__(self, owner: Any, lookup: str, op: FilterOp,
                 getter: Optional[Callable[[Any], Any]], inline_name: Optional[str]) -> None:
        self.owner = owner
        self.lookup = lookup
        self.op = op
        self.getter = getter
        self.inline_name = inline_name   # map property readable as `u.get(name)` in generated code
        self.entries: dict[Any, Any] = {}

    @staticmethod
    def entry_key(value: Any, key: Optional[str]) -> Any:
        """What identical parameters share; must be hashable."""
        return value

    def add(self, entry_key: Any, value: Any, child: Any) -> None:
        self.entries[entry_key] = child
        self._link(entry_key, value, child)

    def remove(self, entry_key: Any) -> None:
        child = self.entries.pop(entry_key)
        self._unlink(entry_key, child)

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        raise NotImplementedError

    def _unlink(self, entry_key: Any, child: Any) -> None:
        raise NotImplementedError

    def shape(self) -> int:
        raise NotImplementedError

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        raise NotImplementedError


class EqIndex(Index):
    """`=`: a dict from constant to child. `x = null` is dead: null never equals anything.
    `keys` mirrors `live`'s keys: generated code asks the set first, because most events
    miss every constant and a set's miss is cheaper than a dict's (its table is probed in
    place, a dict's through an index into a separate entry array)."""

    __slots__ = ("live", "keys")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.live: dict[Any, Any] = {}
        self.keys: set[Any] = set()

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        if entry_key is not None:
            self.live[entry_key] = child
            self.keys.add(entry_key)

    def _unlink(self, entry_key: Any, child: Any) -> None:
        self.live.pop(entry_key, None)
        self.keys.discard(entry_key)

    def shape(self) -> int:
        return min(len(self.live), 2)

    def single(self) -> tuple[Any, Any]:
        return next(iter(self.live.items()))

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        try:
            n = self.live.get(v)
        except TypeError:          # unhashable event value: equals no constant
            return out
        if n is not None:
            out = n.fn(u, bean, out)
        return out


class IsIndex(EqIndex):
    """`is`: null-safe equality, so `x is null` matches a null value."""

    __slots__ = ()

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        self.live[entry_key] = child
        self.keys.add(entry_key)


class NeIndex(Index):
    """`!=`: every entry except the one equal to the value; null matches nothing."""

    __slots__ = ("live",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.live: dict[Any, Any] = {}

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        if entry_key is not None:
            self.live[entry_key] = child

    def _unlink(self, entry_key: Any, child: Any) -> None:
        self.live.pop(entry_key, None)

    def shape(self) -> int:
        return min(len(self.live), 2)

    def single(self) -> tuple[Any, Any]:
        return next(iter(self.live.items()))

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        if v is None:
            return out
        try:
            skip = self.live.get(v)
        except TypeError:
            skip = None
        for n in self.live.values():
            if n is not skip:
                out = n.fn(u, bean, out)
        return out


class IsNotIndex(NeIndex):
    """`is not`: null-safe inequality (`x is not null` matches every non-null value)."""

    __slots__ = ()

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        self.live[entry_key] = child

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        try:
            skip = self.live.get(v)
        except TypeError:
            skip = None
        for n in self.live.values():
            if n is not skip:
                out = n.fn(u, bean, out)
        return out


class _SortedByDomain(Index):
    """Entries kept in one sorted list per domain of comparable values (numbers with
    numbers, strings with strings), so that comparing across domains never happens."""

    __slots__ = ("sorted", "alive")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.sorted: dict[object, Any] = {}
        self.alive: dict[Any, object] = {}        # live entry key -> its domain

    def _new_list(self) -> Any:
        raise NotImplementedError

    def _store(self, entry_key: Any, d: object) -> None:
        sl = self.sorted.get(d)
        if sl is None:
            sl = self.sorted[d] = self._new_list()
        try:
            sl.add(entry_key)
        except TypeError:          # an unordered type: it can never be satisfied
            if not sl:
                del self.sorted[d]
            return
        self.alive[entry_key] = d

    def _unlink(self, entry_key: Any, child: Any) -> None:
        if entry_key not in self.alive:
            return
        d = self.alive.pop(entry_key)
        sl = self.sorted[d]
        sl.remove(entry_key)
        if not sl:
            del self.sorted[d]

    def shape(self) -> int:
        return min(len(self.alive), 2)

    def single(self) -> tuple[Any, Any]:
        k = next(iter(self.alive))
        return k, self.entries[k]


class ThresholdIndex(_SortedByDomain):
    """`<`, `<=`, `>`, `>=`: thresholds sorted per domain; the thresholds an event value
    satisfies are a prefix or suffix found by bisection, O(log n + k)."""

    __slots__ = ("_prefix", "_right")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        op = self.op
        # v > t holds for the thresholds below v (a prefix); v < t for those above (a suffix)
        self._prefix = op in (FilterOp.GT, FilterOp.GE)
        # where the equal thresholds fall: `v >= t` and `v < t` cut to the right of them
        self._right = op in (FilterOp.GE, FilterOp.LT)

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        if _orderable(entry_key):
            self._store(entry_key, domain(entry_key))

    def _new_list(self) -> SortedList:
        return SortedList()

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        if v is None or v != v:
            return out
        d = _FAST_DOMAINS.get(type(v))
        sl = self.sorted.get(d if d is not None else domain(v))
        if sl is None:
            return out
        try:
            i = sl.bisect_right(v) if self._right else sl.bisect_left(v)
        except TypeError:
            return out
        entries = self.entries
        for t in (sl[:i] if self._prefix else sl[i:]):
            out = entries[t].fn(u, bean, out)
        return out


_LOW_INCLUDED = {FilterOp.RANGE_CLOSED, FilterOp.RANGE_HALF_OPEN,
                 FilterOp.NOT_RANGE_CLOSED, FilterOp.NOT_RANGE_HALF_OPEN}
_HIGH_INCLUDED = {FilterOp.RANGE_CLOSED, FilterOp.RANGE_HALF_CLOSED,
                  FilterOp.NOT_RANGE_CLOSED, FilterOp.NOT_RANGE_HALF_CLOSED}


def _range_domain(low: Any, high: Any) -> Optional[object]:
    """The domain of a usable range, or None when no value can ever be compared with both."""
    if not (_orderable(low) and _orderable(high)):
        return None
    d = domain(low)
    return d if domain(high) == d else None


class RangeIndex(_SortedByDomain):
    """`between`, `in [a:b]` and the half-open forms: ranges sorted by low end per domain;
    the candidates are those whose low end the value passes (bisection), then the high end
    is checked. Value and entry key: (low, high)."""

    __slots__ = ("low_included", "high_included")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.low_included = self.op in _LOW_INCLUDED
        self.high_included = self.op in _HIGH_INCLUDED

    @staticmethod
    def entry_key(value: Any, key: Optional[str]) -> Any:
        low, high = value
        return (low, high)

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        d = _range_domain(*entry_key)
        if d is not None:
            self._store(entry_key, d)

    def _new_list(self) -> SortedKeyList:
        return SortedKeyList(key=itemgetter(0))

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        if v is None or v != v:
            return out
        d = _FAST_DOMAINS.get(type(v))
        sl = self.sorted.get(d if d is not None else domain(v))
        if sl is None:
            return out
        entries = self.entries
        try:
            i = sl.bisect_key_right(v) if self.low_included else sl.bisect_key_left(v)
            if self.high_included:
                hits = [k for k in sl[:i] if v <= k[1]]
            else:
                hits = [k for k in sl[:i] if v < k[1]]
        except TypeError:
            return out
        for k in hits:
            out = entries[k].fn(u, bean, out)
        return out


class NotRangeIndex(Index):
    """`not between`, `not in [a:b]`: the value lies below the low end or above the high
    end. Entries are scanned per domain (the outside of ranges is not one interval)."""

    __slots__ = ("live", "alive", "low_included", "high_included")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.live: dict[object, dict[tuple, Any]] = {}
        self.alive: dict[tuple, object] = {}
        self.low_included = self.op in _LOW_INCLUDED
        self.high_included = self.op in _HIGH_INCLUDED

    entry_key = RangeIndex.entry_key

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        d = _range_domain(*entry_key)
        if d is None:
            return
        self.live.setdefault(d, {})[entry_key] = child
        self.alive[entry_key] = d

    def _unlink(self, entry_key: Any, child: Any) -> None:
        d = self.alive.pop(entry_key, None)
        if d is None:
            return
        entries = self.live[d]
        del entries[entry_key]
        if not entries:
            del self.live[d]

    def shape(self) -> int:
        return min(len(self.alive), 2)

    def single(self) -> tuple[Any, Any]:
        k = next(iter(self.alive))
        return k, self.entries[k]

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        if v is None:
            return out
        d = _FAST_DOMAINS.get(type(v))
        entries = self.live.get(d if d is not None else domain(v))
        if entries is None:
            return out
        lo_in, hi_in = self.low_included, self.high_included
        hits = []
        try:
            for (low, high), n in entries.items():
                below = v < low if lo_in else v <= low
                above = v > high if hi_in else v >= high
                if below or above:
                    hits.append(n)
        except TypeError:
            return out
        for n in hits:
            out = n.fn(u, bean, out)
        return out


def _members(values: tuple) -> Optional[tuple]:
    """The distinct non-null members of an `in` list, or None when it holds a null."""
    if any(x is None for x in values):
        return None
    return tuple(dict.fromkeys(values))


class InListIndex(Index):
    """`in (a, b, c)`: a dict from each listed value to the children of the lists holding
    it. Null members are skipped (null is in no list)."""

    __slots__ = ("by_value", "members")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.by_value: dict[Any, list] = {}
        self.members: dict[tuple, tuple] = {}      # live entry -> its distinct members

    @staticmethod
    def entry_key(value: Any, key: Optional[str]) -> Any:
        return tuple(value)

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        members = tuple(dict.fromkeys(x for x in entry_key if x is not None))
        if not members:
            return
        self.members[entry_key] = members
        for x in members:
            self.by_value.setdefault(x, []).append(child)

    def _unlink(self, entry_key: Any, child: Any) -> None:
        members = self.members.pop(entry_key, None)
        for x in members or ():
            children = self.by_value[x]
            children.remove(child)
            if not children:
                del self.by_value[x]

    def shape(self) -> int:
        return min(len(self.members), 2)

    def single(self) -> tuple[Any, Any]:
        k, members = next(iter(self.members.items()))
        return frozenset(members), self.entries[k]

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        try:
            children = self.by_value.get(v)
        except TypeError:
            return out
        if children:
            for n in children:
                out = n.fn(u, bean, out)
        return out


class NotInListIndex(Index):
    """`not in (a, b, c)`: each list is a set; a list holding null matches nothing (the
    comparison with null is unknown), and a null value matches nothing."""

    __slots__ = ("live",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.live: dict[tuple, tuple[frozenset, Any]] = {}

    entry_key = InListIndex.entry_key

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        members = _members(entry_key)
        if members is not None:
            self.live[entry_key] = (frozenset(members), child)

    def _unlink(self, entry_key: Any, child: Any) -> None:
        self.live.pop(entry_key, None)

    def shape(self) -> int:
        return min(len(self.live), 2)

    def single(self) -> tuple[Any, Any]:
        return next(iter(self.live.values()))

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        if v is None:
            return out
        for members, n in self.live.values():
            try:
                inside = v in members
            except TypeError:      # unhashable value: equal to no listed constant
                inside = False
            if not inside:
                out = n.fn(u, bean, out)
        return out


class _LiveEntries(Index):
    """An index whose entries are tested one by one: entry key -> (value, child)."""

    __slots__ = ("live",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.live: dict[Any, tuple[Any, Any]] = {}

    def _link(self, entry_key: Any, value: Any, child: Any) -> None:
        self.live[entry_key] = (value, child)

    def _unlink(self, entry_key: Any, child: Any) -> None:
        del self.live[entry_key]

    def shape(self) -> int:
        return min(len(self.live), 2)

    def single(self) -> tuple[Any, Any]:
        return next(iter(self.live.values()))


class BoolExprIndex(_LiveEntries):
    """What cannot be indexed: predicates over the event, shared by `key` (the
    expression's canonical text). A null or false result is no match."""

    __slots__ = ()

    @staticmethod
    def entry_key(value: Any, key: Optional[str]) -> Any:
        # Without a key only the very same predicate object is shared; the entry keeps the
        # predicate alive, so its id cannot be reused while the entry exists.
        return key if key is not None else ("\0predicate", id(value))

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        for pred, n in self.live.values():
            if pred(bean):
                out = n.fn(u, bean, out)
        return out


class InKeysIndex(_LiveEntries):
    """`in keys of` a live container: one entry per container (shared by `key`); an event
    value in a container's keys matches that entry. An unhashable value is in none."""

    __slots__ = ()

    @staticmethod
    def entry_key(value: Any, key: Optional[str]) -> Any:
        # the entry keeps the container alive, so its id cannot be reused meanwhile
        return key if key is not None else ("\0keys", id(value))

    def match(self, v: Any, u: Any, bean: Any, out: Optional[list]) -> Optional[list]:
        for keys, n in self.live.values():
            try:
                hit = v in keys
            except TypeError:
                continue
            if hit:
                out = n.fn(u, bean, out)
        return out


INDEX_KINDS: dict[FilterOp, type[Index]] = {
    FilterOp.EQ: EqIndex,
    FilterOp.IS: IsIndex,
    FilterOp.NE: NeIndex,
    FilterOp.IS_NOT: IsNotIndex,
    FilterOp.LT: ThresholdIndex,
    FilterOp.LE: ThresholdIndex,
    FilterOp.GT: ThresholdIndex,
    FilterOp.GE: ThresholdIndex,
    FilterOp.RANGE_CLOSED: RangeIndex,
    FilterOp.RANGE_OPEN: RangeIndex,
    FilterOp.RANGE_HALF_OPEN: RangeIndex,
    FilterOp.RANGE_HALF_CLOSED: RangeIndex,
    FilterOp.NOT_RANGE_CLOSED: NotRangeIndex,
    FilterOp.NOT_RANGE_OPEN: NotRangeIndex,
    FilterOp.NOT_RANGE_HALF_OPEN: NotRangeIndex,
    FilterOp.NOT_RANGE_HALF_CLOSED: NotRangeIndex,
    FilterOp.IN_LIST: InListIndex,
    FilterOp.NOT_IN_LIST: NotInListIndex,
    FilterOp.BOOL_EXPR: BoolExprIndex,
    FilterOp.IN_KEYS: InKeysIndex,
}
