"""The shapes of view factories that several windows share: no parameters, one time period,
one size, unique-key expressions, a timed batch. A factory is a frozen dataclass that names its `window`
class; `from_args` validates the parameters once, `make` builds one window per instance."""
from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, ClassVar, Sequence

from engine.contracts.frozen import frozen_dataclass
from ._util import check_count, key_function, period_msec, to_units
from .base import View, ViewArg, ViewContext


class NoParameterFactory:
    """`#keepall()`, `#firstevent()`, `#lastevent()`."""

    __slots__ = ()
    window: ClassVar[Callable[[], View]]
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> Any:
        check_count(view, args, 0, 0, "no parameters")
        return cls()

    def make(self, ctx: ViewContext) -> View:
        return self.window()


class PeriodFactory:
    """Windows of one time period (`period_msec`): `#time`, `#firsttime`, `#time_accum`."""

    __slots__ = ()
    period_msec: float
    window: ClassVar[Callable[[ViewContext, int], View]]
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> Any:
        check_count(view, args, 1, 1, "one parameter (a time period)")
        return cls(period_msec(view, args[0]))

    def make(self, ctx: ViewContext) -> View:
        return self.window(ctx, to_units(self.period_msec, ctx))


class SizeFactory:
    """Windows of one size (`size`): `#length`, `#firstlength`, `#length_batch`; `usage`
    names the parameter in the error message."""

    __slots__ = ()
    size: int
    window: ClassVar[Callable[[int], View]]
    usage: ClassVar[str]
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> Any:
        check_count(view, args, 1, 1, cls.usage)
        return cls(args[0].integer(view))

    def make(self, ctx: ViewContext) -> View:
        return self.window(self.size)


class UniqueKeyFactory:
    """Windows by unique key (`key`): `#unique`, `#firstunique`."""

    __slots__ = ()
    key: Callable[[Any], Any]
    window: ClassVar[Callable[[Callable[[Any], Any]], View]]
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> Any:
        check_count(view, args, 1, None, "one or more unique-key expressions")
        return cls(key_function([a.evaluate for a in args]))

    def make(self, ctx: ViewContext) -> View:
        return self.window(self.key)


@frozen_dataclass(slots=True)
class TimedBatchFactory:
    """Timed batch windows (`#time_batch`, `#time_length_batch`): the period, the view's own
    parameter (a subclass field, handed to the window by `own_parameter`) and the
    flow-control keywords (FORCE_UPDATE, START_EAGER)."""

    period_msec: float
    force_update: bool = field(default=False, kw_only=True)
    start_eager: bool = field(default=False, kw_only=True)
    window: ClassVar[Callable[..., View]]      # (ctx, period, own parameter, force, eager)
    is_data_window: ClassVar[bool] = True

    @property
    def own_parameter(self) -> Any:
        raise NotImplementedError

    def make(self, ctx: ViewContext) -> View:
        return self.window(ctx, to_units(self.period_msec, ctx), self.own_parameter,
                           self.force_update, self.start_eager)
