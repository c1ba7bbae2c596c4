"""Sort keys for `#sort` and `#rank`: Esper's ordering, where null is smaller than any value
and each criterion may be descending."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from engine.contracts.bean import EventBean

from .base import ViewArg

_NULL = (0,)


class _Desc:
    """Reverses the order of the wrapped key."""

    __slots__ = ("v",)

    def __init__(self, v: Any) -> None:
        self.v = v

    def __lt__(self, other: "_Desc") -> bool:
        return other.v < self.v

    def __gt__(self, other: "_Desc") -> bool:
        return self.v < other.v

    def __le__(self, other: "_Desc") -> bool:
        return other.v <= self.v

    def __ge__(self, other: "_Desc") -> bool:
        return self.v <= other.v

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.v == other.v

    __hash__ = None  # type: ignore[assignment]


def is_descending(arg: ViewArg) -> bool:
    return bool(getattr(arg, "descending", False)) or arg.text.rstrip().lower().endswith(" desc")


def sort_key(criteria: Sequence[ViewArg]) -> Callable[[EventBean], Any]:
    """A function giving each event a key that orders as Esper's sort criteria do."""
    parts = [(a.evaluate, is_descending(a)) for a in criteria]
    if len(parts) == 1:
        ev, desc = parts[0]
        if desc:
            return lambda bean: _Desc(_NULL if (v := ev(bean)) is None else (1, v))
        return lambda bean: _NULL if (v := ev(bean)) is None else (1, v)

    def key(bean: EventBean) -> tuple:
        out = []
        for ev, desc in parts:
            v = ev(bean)
            k = _NULL if v is None else (1, v)
            out.append(_Desc(k) if desc else k)
        return tuple(out)
    return key
