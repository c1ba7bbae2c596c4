"""`#groupwin(expr[, expr...])`: one instance of the following views per group, with the
groups' output merged into one stream."""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterator, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._util import check_count, fail, key_function
from .base import Events, View, ViewArg, ViewContext


class GroupWinView(View):
    """Routes each event to its group's chain, built on first use from the sub-chain
    factories; every group's output goes straight on to the child (each group's last view
    has the grouping view's child as its own; linking a new child relinks them). Iteration
    yields each group's contents, groups in order of first appearance. Groups are kept for
    the life of the view, as in Esper (no reclaim)."""

    __slots__ = ("_ctx", "_key", "_factories", "_groups", "_out", "_columns")

    def __init__(self, ctx: ViewContext, key: Callable[[EventBean], Any],
                 factories: Sequence[Any], columns: tuple = ()) -> None:
        self._groups: dict[Any, list[View]] = {}   # key -> the group's views, in chain order
        super().__init__()
        self._ctx = ctx
        self._key = key
        self._factories = tuple(factories)
        # a derived-value view at the end of the sub-chain posts the group's key values too
        self._columns = columns

    @property
    def child(self) -> Any:
        return self._out

    @child.setter
    def child(self, sink: Any) -> None:
        self._out = sink
        for views in self._groups.values():
            views[-1].child = sink

    def _group(self, k: Any) -> list[View]:
        views = [f.make(self._ctx) for f in self._factories]
        for a, b in zip(views, views[1:]):
            a.child = b
        views[-1].child = self._out
        if self._columns:
            values = (k,) if len(self._columns) == 1 else k
            views[-1].set_group(dict(zip(self._columns, values)))
        self._groups[k] = views
        return views

    def update(self, new: Events, old: Events) -> None:
        groups = self._groups
        if new and not old and len(new) == 1:    # the hot path
            k = self._key(new[0])
            views = groups.get(k)
            if views is None:
                views = self._group(k)
            views[0].update(new, None)
            return
        routed: dict[Any, tuple[list, list]] = {}
        key = self._key
        for e in new or ():
            routed.setdefault(key(e), ([], []))[0].append(e)
        for e in old or ():
            routed.setdefault(key(e), ([], []))[1].append(e)
        for k, (n, o) in routed.items():
            views = groups.get(k)
            if views is None:
                if not n:
                    continue   # nothing of this group is held
                views = self._group(k)
            views[0].update(n or None, o or None)

    def __iter__(self) -> Iterator[EventBean]:
        for views in list(self._groups.values()):
            yield from views[-1]

    def group_count(self) -> int:
        return len(self._groups)

    def stop(self) -> None:
        for views in self._groups.values():
            for v in views:
                v.stop()
        self._groups.clear()


@frozen_dataclass(slots=True)
class GroupWinFactory:
    key: Callable[[EventBean], Any]
    sub: tuple
    columns: tuple = ()
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg], sub: Sequence[Any] = ()) -> "GroupWinFactory":
        check_count(view, args, 1, None, "one or more grouping expressions")
        if not sub:
            raise fail(view, "the view requires one or more child views to group, or consider "
                             "using the group-by clause")
        sub = tuple(sub)
        columns: tuple = ()
        if getattr(sub[-1], "is_derived", False):
            # Esper adds the grouping columns to what a grouped derived-value view posts
            sub = sub[:-1] + (sub[-1].with_group([(a.text, a.result_type) for a in args]),)
            columns = tuple(a.text for a in args)
        return cls(key_function([a.evaluate for a in args]), sub, columns)

    def make(self, ctx: ViewContext) -> GroupWinView:
        return GroupWinView(ctx, self.key, self.sub, self.columns)
