"""Event indexes of one join stream (or subquery window): the stream's current events in
arrival order, with hash indexes for equality lookups and sorted indexes for ranges, kept
in step as events enter and leave."""
from __future__ import annotations

import itertools
from operator import itemgetter
from typing import Any, Callable, Iterable, Iterator, Optional

from sortedcontainers import SortedKeyList

from engine.contracts.bean import EventBean

KeyOf = Callable[[EventBean], Any]

_seq = itertools.count()


class HashIndex:
    """Events by the value of key expressions; `None` (or a tuple holding one) is never
    indexed, as null never equals anything. Buckets keep arrival order."""

    __slots__ = ("key_of", "buckets", "keys", "probes", "name")

    def __init__(self, key_of: KeyOf, name: str = "") -> None:
        self.key_of = key_of
        self.buckets: dict[Any, dict[int, EventBean]] = {}
        self.keys: dict[int, Any] = {}
        self.probes = 0
        self.name = name

    def add(self, bean: EventBean) -> None:
        k = self.key_of(bean)
        if k is None or (type(k) is tuple and None in k):
            return
        try:
            bucket = self.buckets.get(k)
        except TypeError:           # an unhashable key value (a list): it cannot be looked up
            return
        if bucket is None:
            bucket = self.buckets[k] = {}
        bucket[id(bean)] = bean
        self.keys[id(bean)] = k

    def remove(self, bean: EventBean) -> None:
        k = self.keys.pop(id(bean), None)
        if k is None:
            return
        bucket = self.buckets.get(k)
        if bucket is not None:
            bucket.pop(id(bean), None)
            if not bucket:
                del self.buckets[k]

    def lookup(self, value: Any) -> Iterable[EventBean]:
        self.probes += 1
        if value is None or (type(value) is tuple and None in value):
            return ()
        try:
            bucket = self.buckets.get(value)
        except TypeError:
            return ()
        return bucket.values() if bucket is not None else ()

    def clear(self) -> None:
        self.buckets.clear()
        self.keys.clear()

    def __len__(self) -> int:
        return len(self.keys)


class SortedIndex:
    """Events ordered by one key expression, for range lookups; equal keys keep arrival
    order. Null keys are not indexed (a comparison with null is never true)."""

    __slots__ = ("key_of", "items", "entries", "probes", "name", "broken")

    def __init__(self, key_of: KeyOf, name: str = "") -> None:
        self.key_of = key_of
        self.items = SortedKeyList(key=itemgetter(0))
        self.entries: dict[int, tuple] = {}
        self.probes = 0
        self.name = name
        # keys that do not compare with each other (mixed types) disable the index: lookups
        # then answer None and the caller scans
        self.broken = False

    def add(self, bean: EventBean) -> None:
        if self.broken:
            return
        k = self.key_of(bean)
        if k is None:
            return
        item = (k, next(_seq), bean)
        try:
            self.items.add(item)
        except TypeError:
            self.broken = True
            self.clear()
            return
        self.entries[id(bean)] = item

    def remove(self, bean: EventBean) -> None:
        item = self.entries.pop(id(bean), None)
        if item is not None:
            self.items.remove(item)

    def range(self, low: Any, low_incl: bool, high: Any, high_incl: bool,
              has_low: bool = True, has_high: bool = True) -> Optional[Iterable[EventBean]]:
        """Events with low <(=) key <(=) high; an absent bound is open. None when the index
        cannot answer (the caller scans)."""
        self.probes += 1
        if self.broken:
            return None
        if (has_low and low is None) or (has_high and high is None):
            return ()
        try:
            found = self.items.irange_key(low if has_low else None, high if has_high else None,
                                          inclusive=(low_incl, high_incl))
            return [item[2] for item in found]
        except TypeError:
            return None

    def clear(self) -> None:
        self.items.clear()
        self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)


class EventStore:
    """The current events of one stream, in arrival order, and the indexes over them. An
    event present twice (sent twice into a length window) is kept once with a count."""

    __slots__ = ("events", "indexes", "scans")

    def __init__(self, indexes: Iterable[Any] = ()) -> None:
        self.events: dict[int, list] = {}
        self.indexes: list[Any] = list(indexes)
        self.scans = 0

    def add(self, bean: EventBean) -> None:
        entry = self.events.get(id(bean))
        if entry is not None:
            entry[1] += 1
            return
        self.events[id(bean)] = [bean, 1]
        for ix in self.indexes:
            ix.add(bean)

    def remove(self, bean: EventBean) -> None:
        entry = self.events.get(id(bean))
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] > 0:
            return
        del self.events[id(bean)]
        for ix in self.indexes:
            ix.remove(bean)

    def scan(self) -> list[EventBean]:
        """Every event, oldest first (a full scan: counted for plan introspection)."""
        self.scans += 1
        return [e[0] for e in self.events.values()]

    def __iter__(self) -> Iterator[EventBean]:
        return iter([e[0] for e in self.events.values()])

    def __len__(self) -> int:
        return len(self.events)

    def __contains__(self, bean: EventBean) -> bool:
        return id(bean) in self.events

    def clear(self) -> None:
        self.events.clear()
        for ix in self.indexes:
            ix.clear()


class TableRows:
    """A table standing as a join stream's store and indexes: every lookup reads the table's
    rows as they are now (a table changes without events reaching the join)."""

    __slots__ = ("table", "key_of", "kind", "scans")

    def __init__(self, table: Any, key_of: Optional[KeyOf] = None, kind: str = "hash") -> None:
        self.table = table
        self.key_of = key_of
        self.kind = kind
        self.scans = 0

    def lookup(self, value: Any) -> list[EventBean]:
        if value is None or (type(value) is tuple and None in value):
            return []
        key_of = self.key_of
        return [b for b in self.table if key_of(b) == value]

    def range(self, low: Any, low_incl: bool, high: Any, high_incl: bool,
              has_low: bool = True, has_high: bool = True) -> Optional[list[EventBean]]:
        return None         # the caller scans and its filters decide

    def scan(self) -> list[EventBean]:
        self.scans += 1
        return list(self.table)

    def __iter__(self) -> Iterator[EventBean]:
        return iter(list(self.table))

    def __len__(self) -> int:
        return len(self.table)

    def __contains__(self, bean: EventBean) -> bool:
        return False

    def add(self, bean: EventBean) -> None:
        pass

    def remove(self, bean: EventBean) -> None:
        pass

    def clear(self) -> None:
        pass


def make_index(spec: Any) -> Any:
    """The index an IndexSpec of a join or subquery plan (epl/plans/joins.py) describes, for
    one statement instance."""
    cls = HashIndex if spec.kind == "hash" else SortedIndex
    return cls(spec.key_of, f"{spec.kind}({spec.key_text})")
