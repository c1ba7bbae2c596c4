"""Pattern nodes: the expressions inside `pattern [...]`."""
from __future__ import annotations

from dataclasses import field
from typing import Optional

from engine.contracts.frozen import frozen_dataclass
from .common import NO_SPAN, Node, Span
from .expressions import Expr


class PatternExpr(Node):
    __slots__ = ()


@frozen_dataclass(slots=True)
class EventFilter(Node):
    """`Type` or `Type(expr)`; also used by streams, contexts and on-statements."""

    type_name: str
    filter: Optional[Expr] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternFilter(PatternExpr):
    """`tag=Type(filter)`, or untagged `Type(filter)`; `consume` is the `@consume(level)`
    attribute's level (`@consume` alone: 1), None without it."""

    event_filter: EventFilter
    tag: Optional[str] = None
    consume: Optional[int] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternObserver(PatternExpr):
    """`timer:interval(10 sec)`, `timer:at(*, *, *, *, *)`."""

    namespace: str
    name: str
    args: tuple[Expr, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternEvery(PatternExpr):
    child: PatternExpr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternEveryDistinct(PatternExpr):
    """`every-distinct(a.id[, 10 sec]) child`: `expiry` is the optional time period."""

    keys: tuple[Expr, ...]
    child: PatternExpr
    expiry: Optional[Expr] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternFollowedBy(PatternExpr):
    """`a -> b -> c`; `limits[i]` is N of `-[N]>` between children i and i+1, or None."""

    children: tuple[PatternExpr, ...]
    limits: tuple[Optional[Expr], ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternAnd(PatternExpr):
    children: tuple[PatternExpr, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternOr(PatternExpr):
    children: tuple[PatternExpr, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternNot(PatternExpr):
    child: PatternExpr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class RepeatRange(Node):
    """`[N]` (low = high = N), `[N:M]`, `[:M]` (low None), `[N:]` (high None)."""

    low: Optional[Expr]
    high: Optional[Expr]
    exact: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternRepeat(PatternExpr):
    """`[N] child` or `[N:M] child` without `until`."""

    range: RepeatRange
    child: PatternExpr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternUntil(PatternExpr):
    """`[range] child until stop` (range optional)."""

    child: PatternExpr
    until: PatternExpr
    range: Optional[RepeatRange] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternGuard(PatternExpr):
    """`child where timer:within(10 sec)` / `timer:withinmax(10 sec, 5)`."""

    child: PatternExpr
    namespace: str
    name: str
    args: tuple[Expr, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternWhile(PatternExpr):
    """`child while (expr)`."""

    child: PatternExpr
    condition: Expr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PatternParens(PatternExpr):
    """Kept for the printer; the compiler sees through it."""

    inner: PatternExpr
    span: Span = field(default=NO_SPAN, compare=False)
