"""`#firstevent()`: keeps the very first event and ignores all later ones."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator, Optional, Sequence

from engine.contracts.bean import EventBean

from ._util import check_count
from .base import Events, View, ViewArg, ViewContext


class FirstEventWindow(View):
    """Posts the first event as new; later events are ignored. If the held event is removed
    upstream it leaves (posted as old) and the next arriving event is kept."""

    __slots__ = ("_event",)

    def __init__(self) -> None:
        super().__init__()
        self._event: Optional[EventBean] = None

    def update(self, new: Events, old: Events) -> None:
        removed = None
        if old and self._event is not None:
            for e in old:
                if e is self._event:
                    removed = [e]
                    self._event = None
                    break
        added = None
        if new and self._event is None:
            self._event = new[0]
            added = new if len(new) == 1 else [new[0]]
        if added or removed:
            self.child.update(added, removed)

    def __iter__(self) -> Iterator[EventBean]:
        return iter(() if self._event is None else (self._event,))

    def stop(self) -> None:
        self._event = None


@dataclass(frozen=True, slots=True)
class FirstEventWindowFactory:
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "FirstEventWindowFactory":
        check_count(view, args, 0, 0, "no parameters")
        return cls()

    def make(self, ctx: ViewContext) -> FirstEventWindow:
        return FirstEventWindow()
