"""Several data windows on one stream (`#unique(symbol)#time(30 sec)`): Esper keeps the
intersection. An event is in the window while every data window retains it; when one window
lets it go (expiry, replacement, eviction) it leaves all of them and is posted once as old.

As Esper's default intersection posts: the arriving events always as new (an event a window
pushes straight out, such as a sort window's, is also old); the old events window by window
in chain order, each window's in the order it let them go, each event once. With a first-kind
window (firstunique, firstlength, ...), which may refuse an arriving event, only the events
every window took are new, and the refused ones leave the others unseen."""
from __future__ import annotations

from typing import Any, ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from .base import Events, View, ViewContext


class MemberTap:
    """The child of one member window: records what it posts, and reports posts that
    happen on the member's own schedule (expiry) to its owner (`_on_member_post`); shared by
    the intersection and union windows."""

    __slots__ = ("owner", "index", "new", "old")

    def __init__(self, owner: Any, index: int) -> None:
        self.owner = owner
        self.index = index
        self.new: list = []
        self.old: list = []

    def update(self, new: Events, old: Events) -> None:
        if self.owner._busy:
            if new:
                self.new.extend(new)
            if old:
                self.old.extend(old)
        else:
            self.owner._on_member_post(self.index, new, old)


class IntersectionWindow(View):
    __slots__ = ("_members", "_taps", "_busy", "_asymmetric")

    def __init__(self, members: Sequence[View], asymmetric: bool = True) -> None:
        super().__init__()
        self._asymmetric = asymmetric
        self._members = list(members)
        self._taps = [MemberTap(self, i) for i in range(len(self._members))]
        for m, t in zip(self._members, self._taps):
            m.child = t
        self._busy = False

    def _feed(self, index: int, new: Events, old: Events) -> MemberTap:
        tap = self._taps[index]
        tap.new.clear()
        tap.old.clear()
        self._members[index].update(new, old)
        return tap

    def _cascade(self, gone: dict[int, EventBean], skip: int = -1) -> None:
        """Remove every event in `gone` from every member still holding it; events those
        removals push out join `gone` too."""
        pending = list(gone.values())
        while pending:
            e = pending.pop(0)
            for i in range(len(self._members)):
                if i == skip:
                    continue
                tap = self._feed(i, None, [e])
                for r in tap.old:
                    if id(r) not in gone:
                        gone[id(r)] = r
                        pending.append(r)

    def _update_symmetric(self, new: Events, old: Events) -> None:
        self._busy = True
        try:
            out: dict[int, EventBean] = {}
            if old:
                for i in range(len(self._members)):
                    self._feed(i, None, old)
                for e in old:
                    out.setdefault(id(e), e)
            if new:
                pushed = [list(self._feed(i, new, None).old) for i in range(len(self._members))]
                for i, gone in enumerate(pushed):
                    if not gone:
                        continue
                    for e in gone:
                        out.setdefault(id(e), e)
                    for j in range(len(self._members)):
                        if j != i:
                            self._feed(j, None, gone)
        finally:
            self._busy = False
        if new or out:
            self.child.update(new or None, list(out.values()) or None)

    def update(self, new: Events, old: Events) -> None:
        if not self._asymmetric:
            self._update_symmetric(new, old)
            return
        self._busy = True
        try:
            gone: dict[int, EventBean] = {}
            accepted_counts: dict[int, int] = {}
            for i in range(len(self._members)):
                tap = self._feed(i, new, old)
                for e in tap.new:
                    accepted_counts[id(e)] = accepted_counts.get(id(e), 0) + 1
                for e in tap.old:
                    gone.setdefault(id(e), e)
            n = len(self._members)
            entered = [e for e in new or () if accepted_counts.get(id(e), 0) == n]
            # an event some member refused (firstunique, firstlength) must not stay in the others
            refused = {id(e): e for e in new or () if 0 < accepted_counts.get(id(e), 0) < n}
            if refused:
                self._cascade(refused)
            self._cascade(gone)
            entered_ids = {id(e) for e in entered}
            entered = [e for e in entered if id(e) not in gone]
            old_out = [e for k, e in gone.items() if k not in entered_ids and k not in refused]
        finally:
            self._busy = False
        if entered or old_out:
            self.child.update(entered or None, old_out or None)

    def _on_member_post(self, index: int, new: Events, old: Events) -> None:
        """A member let events go on its own schedule."""
        if not old:
            return
        self._busy = True
        try:
            gone = {id(e): e for e in old}
            self._cascade(gone, skip=index)
        finally:
            self._busy = False
        self.child.update(None, list(gone.values()))

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._members[0]) if self._members else iter(())

    def stop(self) -> None:
        for m in self._members:
            m.stop()


@frozen_dataclass
class IntersectionFactory:
    """Made by the registry when a chain lists several data windows in a row."""

    members: tuple
    is_data_window: ClassVar[bool] = True

    def make(self, ctx: ViewContext) -> IntersectionWindow:
        return IntersectionWindow([m.make(ctx) for m in self.members],
                                  any(type(m).__name__.startswith("First") for m in self.members))
