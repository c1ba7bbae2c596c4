"""Context plans: `create context` as the compiler (epl/compiler/contexts.py) hands it to the
runtime (engine/contexts/), a definition with one controller spec per level (keyed, category,
hash, temporal) and the conditions that start and end partitions; and the plan of a
statement declared with `context X ...` (the statement's own plan, run per partition).

The runtime builds its controllers from the specs when a context starts and a partition
opens (engine/contexts/controllers.py, dicts keyed by spec class) and arms the conditions
(engine/contexts/conditions.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.contracts.event_types import EventType

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


class Holder:
    """What `context.x` reads at runtime (compiled closures hold it): the runtime sets it to a
    partition's properties before anything runs inside the partition (events, schedules,
    iteration, output at its end)."""

    __slots__ = ("properties",)

    def __init__(self) -> None:
        self.properties: dict = {}


# -- keyed: `partition by p [and q] from A [as a], ... [initiated by ...] [terminated by ...]` --
@dataclass(frozen=True, eq=False)
class KeyedItemSpec:
    """`p and q from Type(filter) [as alias]` (initiating items carry no properties and take
    their key from the item of their type)."""

    event_type: Any
    template: Any
    lookups: tuple[str, ...]
    alias: Optional[str] = None
    getters: tuple = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "getters", tuple(self.event_type.getter(p) for p in self.lookups))

    def key_of(self, bean: EventBean) -> Any:
        u = bean.underlying
        g = self.getters
        if len(g) == 1:
            return g[0](u)
        return tuple(f(u) for f in g)


@dataclass(frozen=True, eq=False)
class Creator:
    """What creates partitions: a listed item, or an initiating filter keyed by `item`."""

    template: Any
    event_type: Any
    item: KeyedItemSpec
    alias: Optional[str] = None


@dataclass(frozen=True, eq=False)
class KeyedSpec:
    name: str
    items: tuple[KeyedItemSpec, ...]
    creators: tuple[Creator, ...]
    terminated: Any = None                 # a condition, or None
    terminated_item: Optional[KeyedItemSpec] = None   # set when it is a filter on a listed type

    def item_for(self, event_type: Any) -> Optional[KeyedItemSpec]:
        for it in self.items:
            if event_type is it.event_type:
                return it
        for it in self.items:
            if event_type.is_subtype_of(it.event_type):
                return it
        return None


# -- category: `group by <condition> as label, ... from Type(filter)` ---------------------------
@dataclass(frozen=True, eq=False)
class CategorySpec:
    name: str
    event_type: Any
    base: Optional[Callable[[EventBean], bool]]       # the `from Type(filter)` filter
    categories: tuple[tuple[str, Callable[[EventBean], bool]], ...]   # (label, condition)


# -- hash: `coalesce by hash_fn(expr) from A, ... granularity N [preallocate]` -------------------
@dataclass(frozen=True, eq=False)
class HashItem:
    event_type: Any
    template: Any                                   # the item's own filter
    hash_of: Callable[[EventBean], Any]             # the hash expression on one event


@dataclass(frozen=True, eq=False)
class HashSpec:
    name: str
    items: tuple[HashItem, ...]
    granularity: int
    preallocate: bool = False


# -- temporal: `start C1 end C2`, `initiated by C1 terminated by C2` -----------------------------
@dataclass(frozen=True, eq=False)
class TemporalSpec:
    name: str
    start: Any
    end: Any = None
    overlapping: bool = False
    end_bindings: Optional[Callable[[dict], Any]] = None   # start props -> end filter bindings
    # `initiated by distinct(...)`: the initiating event's distinct value; no new partition
    # while one started by an event with the same value runs
    distinct: Optional[Callable[[Any], Any]] = None


# -- conditions (what starts and ends partitions) ------------------------------------------------
@dataclass(frozen=True, eq=False)
class FilterCondition:
    """`Type(filter) [as alias]`; the filter may read an earlier condition's alias (bindings)."""

    template: Any
    event_type: Any
    alias: Optional[str] = None


@dataclass(frozen=True, eq=False)
class PatternCondition:
    """`pattern [...] [@inclusive]` (a PatternPlan): the tags become context properties."""

    plan: Any
    inclusive: bool = False
    provided: tuple = ()        # tags the start condition provides (bindings, in this order)


@dataclass(frozen=True, eq=False)
class CrontabCondition:
    """`(minutes, hours, days, months, weekdays [, seconds [, timezone]])`: a CrontabSpec."""

    spec: Any


@dataclass(frozen=True, eq=False)
class AfterCondition:
    """`after <time period>` (from the partition's start)."""

    msec: int
    length: Optional[Callable[[], Any]] = None     # a variable's time period, read when armed


@dataclass(frozen=True, eq=False)
class NowCondition:
    """`@now`: at once."""


# -- the definition ------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Level:
    """One level of a context (the only one unless nested): its name and controller spec."""

    name: str
    spec: Any
    context_type: EventType


@dataclass(frozen=True, eq=False)
class ContextDefinition:
    name: str
    levels: tuple[Level, ...]
    context_type: EventType        # what `context.x` may name in the context's statements


# -- statements declared with `context X ...` ----------------------------------------------------
@dataclass(frozen=True, eq=False)
class _ContextStatementPlan:
    """A statement's plan run per partition of a context. Attributes the engine and the
    statement read (`out_type`, `selector`, ...) are the inner plan's; `insert_into` is None
    when the rows go to the partition's own window or table instead (`into_partition`)."""

    inner: Any                     # the statement's plan, instantiated again per partition
    definition: ContextDefinition
    holder: Holder
    into_partition: bool = False   # its insert-into target is declared with the same context

    @property
    def insert_into(self) -> Any:
        return None if self.into_partition else self.inner.insert_into

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "inner":    # copy/pickle probes, half-built
            raise AttributeError(name)
        return getattr(self.inner, name)

    def instantiate(self, runtime: "Runtime", statement: Any) -> list:
        """The one plan interface: the runtime's context service runs the statement in the
        context's partitions (engine/contexts/service.py)."""
        return runtime.services.contexts.instantiate(self, runtime, statement)


class ContextSelectPlan(_ContextStatementPlan):
    """`context X select ...` (inner: a select plan)."""


class ContextOnPlan(_ContextStatementPlan):
    """`context X on <trigger> select|delete|update|merge|set ...` (inner: an on-plan)."""
