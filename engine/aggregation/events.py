"""Event-based aggregations (first, last, window, maxby, minby, sorted) and nth.

The event-based ones get `(key_or_value, bean)` tuples (`factory.takes_event`):
- first(x[, i]) / last(x[, i]): x of the oldest / newest present row (i-th from that end);
- window(x): the x of every present row in entry order, None when empty;
- maxby(k) / minby(k): the bean with the greatest / least k; ties go to the earliest entered;
- maxbyever(k) / minbyever(k): the same over every row ever entered (rows never leave);
- sorted(k): the present beans ordered by k (`named['desc']` for descending; with several
  criteria the key is a tuple and `desc` may be a list of flags), ties in entry order.
Keys order as Esper's comparator does: null below every value, NaN above. A row leaves by
its bean's identity, so rows may leave in any order (oldest first costs O(1) for the linear
ones, O(log n) for the sorted ones).

nth(x, N) gets `(x, N)`: the N-th most recent present non-null x (0 is the newest), None
when fewer than N+1 are present. It assumes rows leave oldest first.
"""
from __future__ import annotations

from collections import deque
from functools import partial, total_ordering
from typing import Any, Callable, Sequence

from sortedcontainers import SortedList

from engine.contracts.epl_types import EPLType, OBJECT, PropertyType, array_of

from engine.contracts.aggregation import AggCall, AggregationError, AggregationFactory
from .checks import expect_args, finish, int_constant, no_distinct, ordered_arg


# ---------------------------------------------------------------- linear: first, last, window

class _Linear:
    """Present rows in entry order."""

    __slots__ = ("rows",)

    def __init__(self) -> None:
        self.rows: deque[tuple[Any, Any]] = deque()

    def enter(self, row: tuple[Any, Any]) -> None:
        self.rows.append(row)

    def leave(self, row: tuple[Any, Any]) -> None:
        rows = self.rows
        bean = row[1]
        if rows and rows[0][1] is bean:
            rows.popleft()
            return
        for i, r in enumerate(rows):
            if r[1] is bean:
                del rows[i]
                return

    def clear(self) -> None:
        self.rows.clear()


class First(_Linear):
    __slots__ = ("index",)

    def __init__(self, index: int = 0) -> None:
        super().__init__()
        self.index = index

    def value(self) -> Any:
        rows = self.rows
        return rows[self.index][0] if self.index < len(rows) else None


class Last(First):
    __slots__ = ()

    def value(self) -> Any:
        rows = self.rows
        return rows[-1 - self.index][0] if self.index < len(rows) else None


class Window(_Linear):
    __slots__ = ()

    def value(self) -> Any:
        return [r[0] for r in self.rows] if self.rows else None


# ---------------------------------------------------------------- sorted: maxby, minby, sorted

@total_ordering
class _Desc:
    """Reverses the order of a sort key component."""

    __slots__ = ("k",)

    def __init__(self, k: Any) -> None:
        self.k = k

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.k == other.k

    def __lt__(self, other: "_Desc") -> bool:
        return other.k < self.k

    __hash__ = None  # type: ignore[assignment]


def _ascending(k: Any) -> tuple[int, Any]:
    # Null sorts below any value, NaN above (Java's Double.compareTo); the rank decides first
    # so a null is never compared with a value.
    if k is None:
        return (0, 0)
    if k != k:
        return (2, 0)
    return (1, k)


def _key_maker(desc: Any, criteria: int) -> Callable[[Any], Any]:
    if criteria == 1:
        flag = bool(desc[0]) if isinstance(desc, (list, tuple)) else bool(desc)
        if flag:
            return lambda k: _Desc(_ascending(k))
        return _ascending
    flags: Sequence[bool] = (list(desc) if isinstance(desc, (list, tuple))
                             else [bool(desc)] * criteria)

    def key(k: Any) -> tuple[Any, ...]:
        return tuple(_Desc(_ascending(c)) if f else _ascending(c) for c, f in zip(k, flags))
    return key


class _Ordered:
    """Present rows as (sort key, entry number, bean) in a SortedList; beans found by id."""

    __slots__ = ("rows", "where", "seq", "key")

    def __init__(self, key: Callable[[Any], Any]) -> None:
        self.rows = SortedList()
        self.where: dict[int, deque[tuple[Any, int]]] = {}
        self.seq = 0
        self.key = key

    def enter(self, row: tuple[Any, Any]) -> None:
        k = self.key(row[0])
        bean = row[1]
        self.seq += 1
        self.rows.add((k, self.seq, bean))
        slot = self.where.get(id(bean))
        if slot is None:
            self.where[id(bean)] = deque([(k, self.seq)])
        else:
            slot.append((k, self.seq))

    def leave(self, row: tuple[Any, Any]) -> None:
        bean = row[1]
        slot = self.where.get(id(bean))
        if not slot:
            return
        k, seq = slot.popleft()
        if not slot:
            del self.where[id(bean)]
        self.rows.remove((k, seq, bean))

    def clear(self) -> None:
        self.rows.clear()
        self.where.clear()
        self.seq = 0


class ByKey(_Ordered):
    """maxby / minby: the first row of the order (descending for maxby)."""

    __slots__ = ()

    def value(self) -> Any:
        return self.rows[0][2] if self.rows else None


class ByKeyEver:
    """maxbyever / minbyever: the best row ever entered (rows never leave); ties keep the
    earliest."""

    __slots__ = ("key", "best")

    def __init__(self, key: Callable[[Any], Any]) -> None:
        self.key = key
        self.best: Any = None

    def enter(self, row: tuple[Any, Any]) -> None:
        k = self.key(row[0])
        if self.best is None or k < self.best[0]:
            self.best = (k, row[1])

    def leave(self, row: tuple[Any, Any]) -> None:
        pass

    def value(self) -> Any:
        return None if self.best is None else self.best[1]

    def clear(self) -> None:
        self.best = None


class Sorted(_Ordered):
    __slots__ = ()

    def value(self) -> Any:
        return [r[2] for r in self.rows] if self.rows else None


# ---------------------------------------------------------------- nth

class Nth:
    """The last N+1 entered non-null values and how many are present."""

    __slots__ = ("recent", "n", "index")

    def __init__(self, index: int) -> None:
        self.recent: deque[Any] = deque(maxlen=index + 1)
        self.n = 0
        self.index = index

    def enter(self, value: Any) -> None:
        x = value[0] if type(value) is tuple else value
        if x is None:
            return
        self.recent.append(x)
        self.n += 1

    def leave(self, value: Any) -> None:
        x = value[0] if type(value) is tuple else value
        if x is not None and self.n > 0:
            self.n -= 1

    def value(self) -> Any:
        if self.n > self.index and len(self.recent) > self.index:
            return self.recent[0]
        return None

    def clear(self) -> None:
        self.recent.clear()
        self.n = 0


# ---------------------------------------------------------------- builders

def _event_type(call: AggCall) -> PropertyType:
    """The type of the aggregated stream's events: `named['event_type']` (a PropertyType or
    an EventType) when the compiler gives it."""
    t = call.named.get("event_type")
    if isinstance(t, PropertyType):
        return t
    return PropertyType(EPLType.EVENT, event_type=t)


def _value_type(call: AggCall) -> PropertyType:
    # A wildcard counts as a positional argument typed as the event (OBJECT when untyped).
    if call.arg_types:
        return call.arg_types[0]
    return _event_type(call) if "event_type" in call.named else OBJECT


def _first_last(cls: type) -> Callable[[AggCall], AggregationFactory]:
    def build(call: AggCall) -> AggregationFactory:
        no_distinct(call)
        expect_args(call, 0, 2)
        index = 0
        if len(call.arg_types) == 2:
            index = int_constant(call, 1, f"The '{call.name}' aggregation function requires an "
                                          f"index expression that is a non-negative integer "
                                          f"constant")
        return finish(call, _value_type(call), partial(cls, index), takes_event=True)
    return build


def build_window(call: AggCall) -> AggregationFactory:
    no_distinct(call)
    expect_args(call, 0, 1)
    return finish(call, array_of(_value_type(call)), Window, takes_event=True)


def _by(descending: bool, cls: type = ByKey) -> Callable[[AggCall], AggregationFactory]:
    def build(call: AggCall) -> AggregationFactory:
        no_distinct(call)
        if call.star:
            raise AggregationError(f"The '{call.name}' aggregation function requires a sort "
                                   f"criteria expression, not a wildcard")
        expect_args(call, 1, 1)
        ordered_arg(call)
        key = _key_maker(descending, 1)
        return finish(call, _event_type(call), partial(cls, key), takes_event=True)
    return build


def build_sorted(call: AggCall) -> AggregationFactory:
    no_distinct(call)
    if call.star or not call.arg_types:
        raise AggregationError("The 'sorted' aggregation function requires at least one sort "
                               "criteria expression")
    for i in range(len(call.arg_types)):
        ordered_arg(call, i)
    key = _key_maker(call.named.get("desc", False), len(call.arg_types))
    return finish(call, array_of(_event_type(call)), partial(Sorted, key), takes_event=True)


def build_nth(call: AggCall) -> AggregationFactory:
    message = ("The nth aggregation function requires two parameters, an expression returning "
               "aggregation values and a numeric index constant")
    if len(call.arg_types) != 2 or call.star:
        raise AggregationError(message)
    index = int_constant(call, 1, message)
    return finish(call, call.arg_types[0], partial(Nth, index), tupled=True)


BUILDERS: dict[str, Callable[[AggCall], AggregationFactory]] = {
    "first": _first_last(First),
    "last": _first_last(Last),
    "window": build_window,
    "maxby": _by(True),
    "minby": _by(False),
    "maxbyever": _by(True, ByKeyEver),
    "minbyever": _by(False, ByKeyEver),
    "sorted": build_sorted,
    "nth": build_nth,
}
