"""A batch window with other data windows on one stream (`#unique(k)#length_batch(3)`): as
Esper's batch intersection, the batch window decides when events are posted and the other
windows decide which events stay in the current batch. An event another window lets go (or,
for a first-kind window, refuses) leaves the current batch silently; a posted batch leaves
the other windows, so they hold only the current batch's candidates."""
from __future__ import annotations

from typing import ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from .base import Events, View, ViewContext
from .intersection import MemberTap


class IntersectionBatchWindow(View):
    __slots__ = ("_members", "_taps", "_busy", "_batch", "_asym")

    def __init__(self, members: Sequence[View], batch_index: int, asymmetric: Sequence[bool]) -> None:
        super().__init__()
        self._members = list(members)
        self._taps = [MemberTap(self, i) for i in range(len(self._members))]
        for m, t in zip(self._members, self._taps):
            m.child = t
        self._batch = batch_index
        self._asym = tuple(asymmetric)
        self._busy = False

    def _feed(self, i: int, new: Events, old: Events) -> MemberTap:
        tap = self._taps[i]
        tap.new.clear()
        tap.old.clear()
        self._members[i].update(new, old)
        return tap

    def _others(self) -> range:
        return range(len(self._members))

    def _release(self, released: list) -> None:
        """A posted batch leaves the other windows (their own posts are discarded)."""
        for i in self._others():
            if i != self._batch:
                self._feed(i, None, released)

    def update(self, new: Events, old: Events) -> None:
        out_new: list = []
        out_old: list = []
        self._busy = True
        try:
            if old:
                # removed upstream (a named window's on-delete): out of every window
                for i in self._others():
                    self._feed(i, None, old)
            if new:
                gone: dict[int, EventBean] = {}
                accepted = list(new)
                for i in self._others():
                    if i == self._batch:
                        continue
                    tap = self._feed(i, new, None)
                    for e in tap.old:
                        gone.setdefault(id(e), e)
                    if self._asym[i]:
                        took = {id(e) for e in tap.new}
                        for e in new:
                            if id(e) not in took:
                                gone.setdefault(id(e), e)
                for i in self._others():
                    if i != self._batch and gone:
                        self._feed(i, None, list(gone.values()))
                accepted = [e for e in accepted if id(e) not in gone]
                tap = self._feed(self._batch, accepted or None, list(gone.values()) or None)
                if tap.new or tap.old:
                    out_new, out_old = list(tap.new), list(tap.old)
                    if out_new:
                        self._release(out_new)
        finally:
            self._busy = False
        if out_new or out_old:
            self.child.update(out_new or None, out_old or None)

    def _on_member_post(self, index: int, new: Events, old: Events) -> None:
        """A member posted on its own schedule: the batch window's timer releases a batch; another
        window's expiry takes events out of the current batch."""
        if index == self._batch:
            if new:
                self._busy = True
                try:
                    self._release(list(new))
                finally:
                    self._busy = False
            if new or old:
                self.child.update(new or None, old or None)
            return
        if old:
            self._busy = True
            try:
                self._feed(self._batch, None, list(old))
            finally:
                self._busy = False

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._members[self._batch])

    def stop(self) -> None:
        for m in self._members:
            m.stop()


@frozen_dataclass
class IntersectionBatchFactory:
    """Made by the registry for one batch window among several data windows."""

    members: tuple
    batch_index: int
    is_data_window: ClassVar[bool] = True

    def make(self, ctx: ViewContext) -> IntersectionBatchWindow:
        return IntersectionBatchWindow([m.make(ctx) for m in self.members], self.batch_index,
                                       [type(m).__name__.startswith("First") for m in self.members])
