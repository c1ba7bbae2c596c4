"""EventBean: the engine's handle on one event, whatever its Python representation."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Protocol, Sequence


class BeanType(Protocol):
    """What an EventBean asks of its event type (engine.contracts.event_types.EventType is the
    one implementation; this protocol keeps the bean module free of the type module)."""

    name: str

    @property
    def property_names(self) -> Sequence[str]: ...

    def getter(self, path: str) -> Callable[[Any], Any]: ...

    def has_property(self, path: str) -> bool: ...

    def to_dict(self, underlying: Any) -> dict[str, Any]: ...


class EventBean:
    """An event as statements see it: its type and the underlying object (a dict, a
    dataclass instance, any registered object). Properties are read through getters the
    event type compiles once per property path."""

    __slots__ = ("event_type", "underlying")

    def __init__(self, event_type: BeanType, underlying: Any) -> None:
        self.event_type = event_type
        self.underlying = underlying

    def get(self, path: str, default: Any = None) -> Any:
        """The value of a property path (`amount`, `a.b`, `items[0]`, `m('k')`)."""
        try:
            return self.event_type.getter(path)(self.underlying)
        except KeyError:
            return default

    def __getitem__(self, path: str) -> Any:
        return self.event_type.getter(path)(self.underlying)

    def __contains__(self, path: str) -> bool:
        return self.event_type.has_property(path)

    def keys(self) -> list[str]:
        return list(self.event_type.property_names)

    def to_dict(self) -> dict[str, Any]:
        """The event's properties as a plain dict (what `epl replay` prints)."""
        return self.event_type.to_dict(self.underlying)

    def __iter__(self) -> Iterator[str]:
        return iter(self.event_type.property_names)

    def __repr__(self) -> str:
        return f"EventBean({self.event_type.name}, {self.underlying!r})"
