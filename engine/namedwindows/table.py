"""A table at runtime: rows by primary key, each holding plain column values and aggregation
state (`total sum(int)`) that statements aggregate into. Tables are read by on-actions,
fire-and-forget queries and table access; they are not streams.

Rows are handed out as events of the table's type (a snapshot of the row, aggregations at
their current value); deletes and updates find the row again by its primary key."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.event_types import EventType
from engine.resultset.aggregation_rows import AggregationRows

from .feed import move_inserts, register_inserts, unregister_inserts
from .rows import row_maker

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

log = logging.getLogger("epl.engine")


class _Row:
    __slots__ = ("values", "aggs")

    def __init__(self, values: dict, aggs: list) -> None:
        self.values = values
        self.aggs = aggs


class Table:
    is_table = True
    shared_state = True      # not the consuming statement's state (engine/rollback.py)

    def __init__(self, name: str, event_type: EventType, primary_keys: Sequence[str],
                 plain_columns: Sequence[str], aggregations: Sequence[tuple[str, Any]]) -> None:
        self.name = name
        self.event_type = event_type
        self.primary_keys = tuple(primary_keys)
        self.plain_columns = tuple(plain_columns)
        self.aggregation_columns = tuple(n for n, _ in aggregations)
        self.factories = tuple(f for _, f in aggregations)
        self.declarations: dict[str, str] = {}     # aggregation column -> function name
        self.rows: dict[Any, _Row] = {}
        self.indexes: dict[str, Any] = {}          # `create index`: name -> TableIndex
        self._registration: Any = None
        self._engine: Optional["Runtime"] = None

    # -- lifecycle (the `create table` statement) -----------------------------------------------
    def start(self, engine: "Runtime", statement: Any, register: bool = True) -> "Table":
        """Start taking rows; a context partition's table registers nothing (its rows come
        from its partition's statements only)."""
        self._engine = engine
        if register:
            self._registration = register_inserts(engine, self, statement)
        return self

    def stop(self) -> None:
        self._registration = unregister_inserts(self._engine, self._registration)

    def relocate(self, runtime: "Runtime") -> None:
        """Move the `create table` statement to another runtime with its rows: events of
        the table's type inserted there reach it."""
        self._registration = move_inserts(self._registration, self._engine, runtime)
        self._engine = runtime

    def current_rows(self) -> list:
        return list(self)

    def attach(self, handle: Any) -> "_NoFeed":
        """A join stream over the table: nothing flows (the join reads the rows)."""
        return _NoFeed()

    # -- keys and rows -----------------------------------------------------------------------------
    def key_of(self, values: Any) -> Any:
        """The primary key of a row given as an event or a dict."""
        get = values.get
        keys = self.primary_keys
        if len(keys) == 1:
            return get(keys[0])
        return tuple(get(k) for k in keys)

    def row(self, key: Any, create: bool = False) -> Optional[_Row]:
        r = self.rows.get(key)
        if r is None and create:
            values = dict.fromkeys(self.plain_columns)
            ks = (key,) if len(self.primary_keys) == 1 else (key or ())
            values.update(zip(self.primary_keys, ks))
            r = self.rows[key] = _Row(values, [f.make() for f in self.factories])
            self._index(key, r)
        return r

    def bean(self, r: _Row) -> EventBean:
        u = dict(r.values)
        for n, a in zip(self.aggregation_columns, r.aggs):
            u[n] = a.value()
        return EventBean(self.event_type, u)

    def __iter__(self) -> Iterator[EventBean]:
        return iter([self.bean(r) for r in list(self.rows.values())])

    def __len__(self) -> int:
        return len(self.rows)

    def get(self, key: Any, column: Optional[str] = None) -> Any:
        """Table access `T[key].column` (or the whole row as an event without a column)."""
        r = self.rows.get(key)
        if r is None:
            return None
        if column is None:
            return self.bean(r)
        if column in r.values:
            return r.values[column]
        i = self.aggregation_columns.index(column)
        return r.aggs[i].value()

    # -- changes (the interface on-actions and fire-and-forget queries use) -----------------------
    def lookup(self, columns: tuple, key: tuple) -> Optional[list[EventBean]]:
        """Rows by column values: by primary key, or through an index on exactly those
        columns (None: no index answers, scan)."""
        if columns != self.primary_keys:
            for idx in self.indexes.values():
                if idx.columns == tuple(columns) and self._indexable(idx.columns):
                    rows = self.rows
                    return [self.bean(rows[k]) for k in idx.row_keys(key) if k in rows]
            return None
        k = key[0] if len(key) == 1 else key
        r = self.rows.get(k)
        return [] if r is None else [self.bean(r)]

    # -- explicit indexes (`create index`): over plain and primary-key columns ----------------------
    def add_index(self, index: Any) -> None:
        from .table_index import TableIndex
        idx = TableIndex(index.name, index.columns, index.kinds, index.unique)
        for k, r in self.rows.items():
            idx.add(k, r.values)
        self.indexes[index.name] = idx

    def remove_index(self, name: str) -> None:
        self.indexes.pop(name, None)

    def index_columns(self) -> list[tuple]:
        """The column tuples an equality lookup can use (one per index)."""
        return [idx.columns for idx in self.indexes.values() if self._indexable(idx.columns)]

    def _indexable(self, columns: tuple) -> bool:
        # an aggregation column changes with every aggregated event: lookups on it scan
        return set(columns) <= set(self.plain_columns) | set(self.primary_keys)

    def _index(self, key: Any, r: _Row) -> None:
        for idx in self.indexes.values():
            idx.add(key, r.values)

    def _unindex(self, key: Any, r: Optional[_Row]) -> None:
        if r is not None:
            for idx in self.indexes.values():
                idx.remove(key, r.values)

    def _reindexed(self, key: Any, r: _Row, values: dict) -> None:
        """Set a row's plain values; an index whose key for the row changes moves it."""
        before = {n: idx.value_key(r.values) for n, idx in self.indexes.items()}
        r.values.update(values)
        for n, idx in self.indexes.items():
            if idx.value_key(r.values) != before[n]:
                old_values = dict(r.values)
                for c, v in zip(idx.columns, before[n] if len(idx.columns) > 1 else (before[n],)):
                    old_values[c] = v
                idx.remove(key, old_values)
                idx.add(key, r.values)

    def _pop(self, key: Any) -> None:
        r = self.rows.pop(key, None)
        if self.indexes:
            self._unindex(key, r)

    def insert(self, beans: list[EventBean]) -> None:
        for b in beans:
            values = b.underlying if isinstance(b.underlying, dict) else b.to_dict()
            k = self.key_of(values)
            if k in self.rows:
                log.warning("Table '%s': a row with primary key %r already exists; insert ignored",
                            self.name, k)
                continue
            r = self.row(k, create=True)
            self._unindex(k, r)
            for c in self.plain_columns:
                if c in values:
                    r.values[c] = values[c]
            self._index(k, r)

    def delete(self, beans: list[EventBean]) -> None:
        for b in beans:
            self._pop(self.key_of(b.underlying))

    def replace(self, new: list[EventBean], old: list[EventBean]) -> None:
        for b in new:
            k = self.key_of(b.underlying)
            r = self.rows.get(k)
            if r is not None:
                u = b.underlying
                if self.indexes:
                    self._reindexed(k, r, {c: u.get(c) for c in self.plain_columns})
                else:
                    for c in self.plain_columns:
                        r.values[c] = u.get(c)

    def merge(self, new: list[EventBean], old: list[EventBean]) -> None:
        kept = {self.key_of(b.underlying) for b in new}
        for b in old:
            k = self.key_of(b.underlying)
            if k not in kept:
                self._pop(k)
        fresh = []
        for b in new:
            if self.key_of(b.underlying) in self.rows:
                self.replace([b], [])
            else:
                fresh.append(b)
        self.insert(fresh)

    def row_maker(self, columns: list[tuple[str, Callable[[Any], Any]]]) -> Callable[[Any], EventBean]:
        """`make(eps)`: a new row of this type from `(column, value fn)` pairs."""
        return row_maker(self.event_type, columns)

    # -- aggregating into the table (`into table`) ------------------------------------------------
    def aggregators(self, key: Any) -> list:
        """The aggregation state of the row with `key` (created when missing)."""
        return self.row(key, create=True).aggs


class TableAggregationRows:
    """The aggregation rows of an `into table` statement: the aggregations stored in the
    table are the table rows' own aggregators (shared by every statement aggregating into
    the table); the statement's other aggregations keep their own state per key.

    Offers what the result-set processors use of engine.resultset.AggregationRows."""

    __slots__ = ("table", "entries", "columns", "private", "views", "reclaim", "groups", "refcounts")

    def __init__(self, table: Table, entries: Sequence[Any], columns: Sequence[Optional[int]]) -> None:
        self.table = table
        self.entries = tuple(entries)
        self.columns = tuple(columns)       # per entry: the table's aggregation column, or None
        self.private: dict[Any, list] = {}
        self.views: dict[Any, tuple] = {}   # key -> (table row, aggregator list)
        self.reclaim = False
        self.groups = self.private
        self.refcounts: dict = {}

    def new_row(self) -> list:
        return [e.factory.make() for e in self.entries]

    def _view(self, key: Any, create: bool) -> Optional[list]:
        row = self.table.rows.get(key)
        cached = self.views.get(key)
        if cached is not None and cached[0] is row and row is not None:
            return cached[1]
        if row is None:
            if not create:
                return None
            row = self.table.row(key, create=True)
        own = self.private.get(key)
        if own is None:
            own = self.private[key] = self.new_row()
        view = [row.aggs[c] if c is not None else own[i] for i, c in enumerate(self.columns)]
        self.views[key] = (row, view)
        return view

    def ungrouped(self) -> list:
        return self._view((), True) if not self.table.primary_keys else self.group(None)

    def group(self, key: Any) -> list:
        return self._view(key, True)

    def peek(self, key: Any) -> list:
        v = self._view(key, False)
        return v if v is not None else self.new_row()

    # an event enters and leaves a row as it does a statement's own aggregation rows
    enter = AggregationRows.enter
    leave = AggregationRows.leave

    def enter_group(self, key: Any, eps: Any) -> None:
        self.enter(self.group(key), eps)

    def leave_group(self, key: Any, eps: Any) -> None:
        v = self._view(key, False)
        if v is not None:
            self.leave(v, eps)

    def clear(self) -> None:
        self.private.clear()
        self.views.clear()


class _NoFeed:
    """The attachment of a join stream over a table."""

    __slots__ = ()

    def stop(self) -> None:
        pass
