"""The first view of a statement consuming a named window (`select ... from W(filter)`; the
window is the runtime's, engine/namedwindows/window.py, handed over as any iterable): it
passes on what enters and leaves the window that satisfies the consumer's filter, and
iterates the window's current contents (the consumer's iterator sees them even though a
consumer started later only receives later changes)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator, Optional

from engine.contracts.bean import EventBean
from views.base import Events, View


class ConsumerView(View):
    __slots__ = ("window", "accept")

    def __init__(self, window: Any, accept: Optional[Callable[[EventBean], bool]]) -> None:
        super().__init__()
        self.window = window
        self.accept = accept

    def update(self, new: Events, old: Events) -> None:
        accept = self.accept
        if accept is not None:
            new = [e for e in new if accept(e)] if new else None
            old = [e for e in old if accept(e)] if old else None
        if new or old:
            self.child.update(new or None, old or None)

    def __iter__(self) -> Iterator[EventBean]:
        accept = self.accept
        if accept is None:
            return iter(self.window)
        return iter([e for e in self.window if accept(e)])


@dataclass(frozen=True, eq=False)
class ConsumerViewFactory:
    window: Any
    accept: Optional[Callable[[EventBean], bool]] = None
    is_data_window: ClassVar[bool] = True

    def make(self, ctx: Any) -> ConsumerView:
        return ConsumerView(self.window, self.accept)
