"""`#correl(x, y [, expr ...])`: the correlation of two numeric expressions over the events
the parent holds (property `correlation`)."""
from __future__ import annotations

from typing import ClassVar

from engine.contracts.frozen import frozen_dataclass
import engine.contracts.epl_types as T

from ._derived import PairFactory, PairView


class CorrelView(PairView):
    __slots__ = ()

    def _values(self) -> dict:
        return {"correlation": self._m.correlation()}


@frozen_dataclass
class CorrelViewFactory(PairFactory):
    view_class: ClassVar[type] = CorrelView
    properties: ClassVar[dict] = {"correlation": T.DOUBLE}
