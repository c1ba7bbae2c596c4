"""Plan data of named windows and tables: what `create window`, `create table` and `create
index` declare (epl/compiler/windows.py, tables.py, indexes.py, spatial.py build it; the
runtime, engine/namedwindows/, makes the window, table or index from it)."""
from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, ClassVar, Mapping, Optional, Union

from engine.contracts.frozen import frozen_dataclass
from epl.plans.started import StartedByRuntime

from engine.contracts.event_types import EventType

Fn = Callable[[Any], Any]


@frozen_dataclass
class WindowSpec:
    """A named window: its type and data window (view factories, in chain order); `context`:
    declared with `context X create window` (one window per partition)."""

    name: str
    event_type: EventType
    view_factories: tuple
    insert_filter: Optional[Callable[[Any], bool]] = None
    context: Optional[str] = None
    is_table: ClassVar[bool] = False


@frozen_dataclass
class TableSpec:
    """A table: its type, primary key, plain columns and aggregation columns (name and
    aggregator factory), the aggregation function each column declares and, for
    `sorted(price) @type(E)` columns, the declared call and event type."""

    name: str
    event_type: EventType
    primary_keys: tuple[str, ...]
    plain_columns: tuple[str, ...]
    aggregations: tuple[tuple[str, Any], ...]
    declarations: Mapping[str, str] = field(default_factory=dict)
    typed_columns: Mapping[str, tuple] = field(default_factory=dict)
    context: Optional[str] = None
    is_table: ClassVar[bool] = True


InfraSpec = Union[WindowSpec, TableSpec]


@frozen_dataclass
class Preload:
    """`create window W as select ... from V insert [where ...]`: W starts with V's rows
    (those `accept` takes), each made from `(column, value fn or None: V's column)`."""

    source: str
    accept: Optional[Callable[[Any], bool]]
    columns: tuple[tuple[str, Optional[Fn]], ...]


@frozen_dataclass
class CreatePlan(StartedByRuntime):
    """The plan of a `create window` or `create table` statement. Creating the statement
    declares the window or table (`spec`, made by the named-window service); starting it
    starts that window or table (a window's listeners see what enters and leaves: irstream;
    a table's, what is inserted: istream)."""

    spec: InfraSpec
    out_type: EventType
    columns: tuple[str, ...]
    selector: str
    preload: Optional[Preload] = None
    passthrough: bool = True
    insert_into: Any = None


@frozen_dataclass
class IndexSpec:
    """`create [unique] index I on W(col [hash|btree], ...)`."""

    name: str
    columns: tuple[str, ...]
    kinds: tuple[str, ...]
    unique: bool
    spatial: ClassVar[bool] = False

    def key_of(self, bean: Any) -> Any:
        """A row's key in the index: one value for one column, a tuple for several."""
        cols = self.columns
        if len(cols) == 1:
            return bean.get(cols[0])
        return tuple(bean.get(c) for c in cols)


# spatial index kinds by name: the number of row expressions each takes
SPATIAL_ARITY = {"pointregionquadtree": 2, "mxcifquadtree": 4}


@frozen_dataclass
class SpatialIndexSpec:
    """`create index I on W((x, y) pointregionquadtree(minX, minY, width, height, ...))`:
    `coords` compute a row's point or rectangle; `columns` is a key no equality lookup
    asks for (the kind marker, then the expressions' texts)."""

    name: str
    kind: str
    texts: tuple[str, ...]
    coords: tuple[Fn, ...]
    params: tuple[float, ...]
    spatial: ClassVar[bool] = True
    unique: ClassVar[bool] = False

    @property
    def columns(self) -> tuple[str, ...]:
        return (f"<{self.kind}>",) + self.texts


def unique_violation(index_name: str, key: Any) -> str:
    """Esper's message for a second row under a unique index's key."""
    return (f"Unique index violation, index '{index_name}' is a unique index and key "
            f"'{key}' already exists")
