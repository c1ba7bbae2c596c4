"""countever, firstever, lastever: over everything that ever entered; leave is ignored and
only clear() forgets. Nulls are skipped (except by countever(*), which counts rows)."""
from __future__ import annotations

from functools import partial
from typing import Any, Callable

from engine.contracts.epl_types import LONG, OBJECT

from engine.contracts.aggregation import AggCall, AggregationFactory
from .checks import expect_args, finish, no_distinct


class CountEver:
    __slots__ = ("n", "all")

    def __init__(self, all: bool = False) -> None:
        self.n = 0
        self.all = all

    def enter(self, value: Any) -> None:
        if self.all or value is not None:
            self.n += 1

    def leave(self, value: Any) -> None:
        pass

    def value(self) -> int:
        return self.n

    def clear(self) -> None:
        self.n = 0


class FirstEver:
    __slots__ = ("first",)

    def __init__(self) -> None:
        self.first: Any = None

    def enter(self, value: Any) -> None:
        if self.first is None:
            self.first = value

    def leave(self, value: Any) -> None:
        pass

    def value(self) -> Any:
        return self.first

    def clear(self) -> None:
        self.first = None


class LastEver(FirstEver):
    __slots__ = ()

    def enter(self, value: Any) -> None:
        if value is not None:
            self.first = value


def build_countever(call: AggCall) -> AggregationFactory:
    no_distinct(call)
    expect_args(call, 0, 1)
    counts_rows = call.star or not call.arg_types
    return finish(call, LONG, partial(CountEver, counts_rows))


def _first_last(maker: Callable[[], Any]) -> Callable[[AggCall], AggregationFactory]:
    def build(call: AggCall) -> AggregationFactory:
        expect_args(call, 0, 1)
        # firstever(*) / firstever(): the compiler passes the event; its type if it has one
        rtype = call.arg_types[0] if call.arg_types else OBJECT
        return finish(call, rtype, maker)
    return build


BUILDERS: dict[str, Callable[[AggCall], AggregationFactory]] = {
    "countever": build_countever,
    "firstever": _first_last(FirstEver),
    "lastever": _first_last(LastEver),
}
