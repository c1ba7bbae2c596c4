"""leaving(): true once any row has left the group's window (until clear)."""
from __future__ import annotations

from typing import Any, Callable

from engine.contracts.epl_types import BOOLEAN

from engine.contracts.aggregation import AggCall, AggregationFactory
from .checks import expect_args, finish, no_distinct


class Leaving:
    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = False

    def enter(self, value: Any) -> None:
        pass

    def leave(self, value: Any) -> None:
        self.left = True

    def value(self) -> bool:
        return self.left

    def clear(self) -> None:
        self.left = False


def build_leaving(call: AggCall) -> AggregationFactory:
    no_distinct(call)
    expect_args(call, 0, 0)
    return finish(call, BOOLEAN, Leaving)


BUILDERS: dict[str, Callable[[AggCall], AggregationFactory]] = {"leaving": build_leaving}
