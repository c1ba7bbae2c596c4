"""`#size([expr, ...])`: a derived view posting the number of events its parent holds
(property `size`), with optional additional properties of the last event."""
from __future__ import annotations

from typing import Any, Sequence

from engine.contracts.frozen import frozen_dataclass
import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean

from ._derived import DerivedFactory, DerivedView, derived_type, extras
from .base import ViewArg, ViewContext


class SizeView(DerivedView):
    """Esper's size view: posts only when the count changed."""

    __slots__ = ("_size",)

    def __init__(self, factory: "SizeViewFactory") -> None:
        super().__init__(factory.event_type, factory.extras)
        self._size = 0

    def _values(self) -> dict:
        return {"size": self._size}

    def _add(self, e: EventBean) -> None:
        self._size += 1

    def _remove(self, e: EventBean) -> None:
        self._size -= 1

    def _state(self) -> Any:
        return self._size

    def _changed(self, before: Any) -> bool:
        return before != self._size


@frozen_dataclass
class SizeViewFactory(DerivedFactory):
    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "SizeViewFactory":
        return cls(derived_type(view, {"size": T.LONG}, args), extras(args))

    def make(self, ctx: ViewContext) -> SizeView:
        return SizeView(self)
