"""Several data windows on one stream with `retain-union` (`#unique(k)#time(10 sec)
retain-union`): an event stays while any window holds it and leaves, posted once as old,
when the last window holding it lets it go."""
from __future__ import annotations

from typing import ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from .base import Events, View, ViewContext
from .intersection import MemberTap


class UnionWindow(View):
    """Keeps, per event, how many member windows hold it (in arrival order, for iteration).
    Every arriving event a window took is posted as new (with only first-kind windows, one they
    all refused is not posted); events whose last holder let them go in the same update are
    posted as old, member by member in chain order."""

    __slots__ = ("_members", "_taps", "_busy", "_holders", "_events", "_asym", "_keeping")

    def __init__(self, members: Sequence[View], asymmetric: Sequence[bool] = ()) -> None:
        super().__init__()
        self._members = list(members)
        # first-kind windows (firstunique, firstlength, ...) may refuse an arriving event: they
        # hold what they post as new; every other window holds each arriving event (a batch
        # window posts it later, with its batch)
        self._asym = [i for i, a in enumerate(asymmetric) if a]
        self._keeping = len(self._members) - len(self._asym)
        self._taps = [MemberTap(self, i) for i in range(len(self._members))]
        for m, t in zip(self._members, self._taps):
            m.child = t
        self._busy = False
        self._holders: dict[int, int] = {}
        self._events: dict[int, EventBean] = {}

    def _release(self, events: Sequence[EventBean], out: list) -> None:
        holders = self._holders
        for e in events:
            k = id(e)
            n = holders.get(k)
            if n is None:
                continue
            if n <= 1:
                del holders[k]
                out.append(self._events.pop(k))
            else:
                holders[k] = n - 1

    def update(self, new: Events, old: Events) -> None:
        out: list = []
        self._busy = True
        try:
            if old:
                # a removal (on-delete of a named window, a parent view) leaves every member
                for m, t in zip(self._members, self._taps):
                    t.new.clear()
                    t.old.clear()
                    m.update(None, old)
                for e in old:
                    if self._holders.pop(id(e), None) is not None:
                        out.append(self._events.pop(id(e)))
            if new:
                for t in self._taps:
                    t.new.clear()
                    t.old.clear()
                for m in self._members:
                    m.update(new, None)
                holders = self._holders
                for e in new:
                    if self._keeping:
                        holders[id(e)] = holders.get(id(e), 0) + self._keeping
                        self._events[id(e)] = e
                arrived = {id(e) for e in new}
                for i in self._asym:
                    for e in self._taps[i].new:
                        if id(e) in arrived:
                            holders[id(e)] = holders.get(id(e), 0) + 1
                            self._events[id(e)] = e
                taken = set(self._holders)
                for t in self._taps:
                    self._release(t.old, out)
                # an event every window refused (first-kind windows only) is not posted at all
                if not self._keeping:
                    new = [e for e in new if id(e) in taken] or None
        finally:
            self._busy = False
        if new or out:
            self.child.update(new or None, out or None)

    def _on_member_post(self, index: int, new: Events, old: Events) -> None:
        """A member posted on its own schedule: what it lets go (expiry) is reported at once."""
        if old:
            self._released(old)

    def _released(self, old: list) -> None:
        out: list = []
        self._release(old, out)
        if out:
            self.child.update(None, out)

    def __iter__(self) -> Iterator[EventBean]:
        return iter(list(self._events.values()))

    def __len__(self) -> int:
        return len(self._events)

    def stop(self) -> None:
        for m in self._members:
            m.stop()
        self._holders.clear()
        self._events.clear()


@frozen_dataclass
class UnionFactory:
    """Made by the registry for several data windows on a stream declared `retain-union`."""

    members: tuple
    is_data_window: ClassVar[bool] = True

    def make(self, ctx: ViewContext) -> UnionWindow:
        return UnionWindow([m.make(ctx) for m in self.members],
                           [type(m).__name__.startswith("First") for m in self.members])
