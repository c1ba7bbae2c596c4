"""Result-set plan data: what the select compiler (epl/compiler/select.py, rowselect.py)
decided about a statement's select clause, having, order by, limit, grouping and
aggregation. The runtime (engine/resultset/processors.py, `make_processor`) builds one result-set
processor of the plan's kind from it per statement instance."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from engine.contracts.event_types import EventType
from engine.contracts.frozen import frozen_dataclass
from epl.plans.aggregation import AggregationPlan

Eps = Sequence[Any]
OrderKeys = tuple[tuple[Callable[[Eps], Any], bool], ...]   # (key, descending)

# the result-set kinds (Esper's output model; engine/resultset/processors.py)
KINDS = ("simple", "row-for-all", "aggregated-ungrouped", "row-per-group", "aggregated-grouped",
         "row-per-group-rollup")


@frozen_dataclass
class SelectClause:
    """The select clause: a column per compiled expression; `passthrough` (a single-stream
    `select *`) hands on the incoming event; `wildcard_streams` (index, alias or None) add
    whole streams (`select *, x`, `s.*`)."""

    names: tuple[str, ...]
    fns: tuple[Callable[[Eps], Any], ...]
    out_type: EventType
    passthrough: bool = False
    wildcard_streams: tuple[tuple[int, Optional[str]], ...] = ()


@frozen_dataclass
class RowShape:
    """Having, distinct, order by and limit/offset over the rows of one delivery."""

    having: Optional[Callable[[Eps], Any]] = None
    order_keys: OrderKeys = ()
    distinct: bool = False
    limit: Optional[int] = None
    offset: int = 0


@frozen_dataclass
class RollupLevel:
    """One grouping level of `group by rollup/cube/grouping sets`."""

    key_of: Callable[[Eps], Any]
    select: SelectClause
    having: Optional[Callable[[Eps], Any]]
    order_keys: OrderKeys


@frozen_dataclass
class IntoTable:
    """`into table T select ...`: the aggregations at `columns` (per statement aggregation,
    the table column index or None) aggregate into `table`'s rows."""

    table: Any                        # the table (engine.namedwindows.table), or a partition's
    columns: tuple[Optional[int], ...]


@dataclass(frozen=True, eq=False)
class ResultSetPlan:
    """A statement's result set: its kind (KINDS), select clause and row shape, which streams
    it delivers, and for aggregating kinds the aggregation and group keys. (Compared by
    identity, as the closures it holds are.)"""

    kind: str
    select: SelectClause
    shape: RowShape
    want_new: bool = True
    want_old: bool = False
    aggregation: Optional[AggregationPlan] = None
    key_of: Optional[Callable[[Eps], Any]] = None      # grouped kinds: the group key
    key_types: tuple = ()
    levels: tuple[RollupLevel, ...] = ()                # rollup: the grouping levels
    into_table: Optional[IntoTable] = None
