"""A named window or table declared with `context X create window|table ...`: one window (or
table) per context partition, created with the partition and released when it ends.

Statements of the same context read and change their own partition's instance (their plans
are bound to it when the partition instantiates them); a consumer declared elsewhere
(`select * from W` without the context) sees the changes of every partition, and iterating
gives every partition's rows, as fire-and-forget queries without a context do."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from engine.contracts.bean import EventBean

from .table import Table
from .window import NamedWindow

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


class PartitionedInfra:
    """Stands where a NamedWindow or Table would in the named-window service; `prototype` is
    the never-started window or table each partition's instance copies."""

    shared_state = True      # not the consuming statement's state (engine/rollback.py)

    def __init__(self, prototype: Any, context: str) -> None:
        self.prototype = prototype
        self.name: str = prototype.name
        self.event_type = prototype.event_type
        self.is_table: bool = prototype.is_table
        self.context = context
        self.instances: dict[Any, Any] = {}        # partition -> its started window or table
        self._by_props: dict[int, Any] = {}        # id(partition.props) -> the same
        self.shared_consumers: list[Any] = []      # consumers outside the context
        self.shared_stores: list[Any] = []         # subquery stores outside the context
        self.statement: Any = None                 # the create statement, once started
        self.indexes: dict[str, Any] = {}          # `create index`: each instance gets its own

    # -- what compilers read of a window or table ------------------------------------------------
    @property
    def primary_keys(self) -> tuple:
        return getattr(self.prototype, "primary_keys", ())

    @property
    def plain_columns(self) -> tuple:
        return getattr(self.prototype, "plain_columns", ())

    @property
    def aggregation_columns(self) -> tuple:
        return getattr(self.prototype, "aggregation_columns", ())

    @property
    def declarations(self) -> dict:
        return getattr(self.prototype, "declarations", {})

    @property
    def kind(self) -> str:
        return "Table" if self.is_table else "Named window"

    def row_maker(self, columns: list[tuple[str, Callable[[Any], Any]]]) -> Callable[[Any], EventBean]:
        return self.prototype.row_maker(columns)

    def lookup(self, columns: tuple, key: tuple) -> Optional[list[EventBean]]:
        return None

    # -- explicit indexes: one per partition's instance, made from the declared one ------------------
    def add_index(self, index: Any) -> None:
        self.indexes[index.name] = index
        for inst in self.instances.values():
            inst.add_index(_fresh(index))

    def remove_index(self, name: str) -> None:
        self.indexes.pop(name, None)
        for inst in self.instances.values():
            inst.remove_index(name)

    def index_columns(self) -> list[tuple]:
        return [idx.columns for idx in self.indexes.values()]

    # -- partitions ----------------------------------------------------------------------------------
    def instance(self, partition: Any, engine: Optional["Runtime"] = None, ctx: Any = None) -> Any:
        """The partition's window or table, created (and released with the partition) when
        the partition's first statement needs it."""
        inst = self.instances.get(partition)
        if inst is None:
            inst = self._new()
            statement = self.statement
            if self.is_table:
                inst.start(engine, statement, register=False)
            else:
                inst.start(engine, statement, ctx, register=False)
                inst.shared_consumers = self.shared_consumers
                inst.shared_stores = self.shared_stores
            for index in self.indexes.values():
                inst.add_index(_fresh(index))
            self.instances[partition] = inst
            self._by_props[id(partition.props)] = inst
            partition.cleanup.append(lambda: self.release(partition))
        return inst

    def _new(self) -> Any:
        p = self.prototype
        if self.is_table:
            t = Table(p.name, p.event_type, p.primary_keys, p.plain_columns,
                      list(zip(p.aggregation_columns, p.factories)))
            t.declarations = p.declarations
            return t
        return NamedWindow(p.name, p.event_type, p.view_factories, p.insert_filter)

    def release(self, partition: Any) -> None:
        """Drop a partition's contents (its end, or the create statement stopping)."""
        inst = self.instances.pop(partition, None)
        if inst is not None:
            self._by_props.pop(id(partition.props), None)
            inst.stop()

    def for_props(self, props: dict) -> Any:
        """The instance of the partition whose properties are `props` (what a context
        statement's holder has in place while it runs), or None."""
        return self._by_props.get(id(props))

    def partitions(self) -> list[tuple[Any, Any]]:
        """(partition, instance) pairs, oldest partition first."""
        return sorted(self.instances.items(), key=lambda pi: pi[0].id)

    def instance_count(self) -> int:
        return len(self.instances)

    # -- consumers outside the context, iteration over all partitions --------------------------------
    def attach(self, handle: Any) -> "_SharedAttachment":
        self.shared_consumers.append(handle)
        return _SharedAttachment(self, handle)

    def attach_first(self, handle: Any) -> "_SharedAttachment":
        """A subquery store following every partition's changes as they happen."""
        self.shared_stores.append(handle)
        return _SharedAttachment(self, handle, self.shared_stores)

    def __iter__(self) -> Iterator[EventBean]:
        rows: list[EventBean] = []
        for _p, inst in self.partitions():
            rows.extend(inst)
        return iter(rows)

    def __len__(self) -> int:
        return sum(len(inst) for inst in self.instances.values())


class _SharedAttachment:
    __slots__ = ("infra", "handle", "where")

    def __init__(self, infra: PartitionedInfra, handle: Any, where: Optional[list] = None) -> None:
        self.infra = infra
        self.handle = handle
        self.where = where if where is not None else infra.shared_consumers

    def stop(self) -> None:
        try:
            self.where.remove(self.handle)
        except ValueError:
            pass


def _fresh(index: Any) -> Any:
    """An empty index like `index` (a partition's instance fills its own)."""
    fresh = getattr(index, "fresh", None)
    if fresh is not None:               # an index kind that makes its own (spatial)
        return fresh()
    from .index import WindowIndex
    return WindowIndex(index.name, index.columns, index.kinds, index.unique)
