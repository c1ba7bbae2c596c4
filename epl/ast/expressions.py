"""Expression nodes: everything that computes a value."""
from __future__ import annotations

import enum
from dataclasses import field
from typing import Optional, Union

from engine.contracts.frozen import frozen_dataclass
from .common import NO_SPAN, Node, Span


class Expr(Node):
    __slots__ = ()


class BinOp(enum.Enum):
    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"
    MOD = "%"
    CONCAT = "||"
    EQ = "="
    NE = "!="
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    IS = "is"
    IS_NOT = "is not"
    AND = "and"
    OR = "or"
    BAND = "&"
    BOR = "|"
    BXOR = "^"


class UnOp(enum.Enum):
    NEG = "-"
    POS = "+"
    NOT = "not"
    BNOT = "~"


class TimeUnit(enum.Enum):
    YEAR = "year"
    MONTH = "month"
    WEEK = "week"
    DAY = "day"
    HOUR = "hour"
    MINUTE = "min"
    SECOND = "sec"
    MILLISECOND = "msec"
    MICROSECOND = "usec"


# Milliseconds per unit (month = 30 days, year = 365 days, as Esper's time periods without a calendar).
TIME_UNIT_MSEC = {
    TimeUnit.YEAR: 365 * 86_400_000,
    TimeUnit.MONTH: 30 * 86_400_000,
    TimeUnit.WEEK: 7 * 86_400_000,
    TimeUnit.DAY: 86_400_000,
    TimeUnit.HOUR: 3_600_000,
    TimeUnit.MINUTE: 60_000,
    TimeUnit.SECOND: 1_000,
    TimeUnit.MILLISECOND: 1,
    TimeUnit.MICROSECOND: 0.001,
}


class LiteralKind(enum.Enum):
    INT = "int"
    LONG = "long"        # 100L
    DOUBLE = "double"    # 1.5, 1.5d, 1e3
    FLOAT = "float"      # 1.5f
    STRING = "string"
    BOOLEAN = "boolean"
    NULL = "null"


@frozen_dataclass(slots=True)
class Literal(Expr):
    value: object
    kind: LiteralKind
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class TimePeriod(Expr):
    """`1 min 30 sec`: parts in source order; each amount is an expression (usually a literal)."""

    parts: tuple[tuple[Expr, TimeUnit], ...]
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class PropSeg:
    """One segment of a property path: `name`, `name[2]` (index) or `name('key')` (mapped)."""

    name: str
    index: Optional[int] = None
    key: Optional[str] = None
    dynamic: bool = False        # `name?`: a dynamic property, resolved per event


@frozen_dataclass(slots=True)
class Property(Expr):
    """A dotted property path as written: `amount`, `a.amount`, `a[0].id`, `context.label`.
    Whether the first segment is a stream alias, a pattern tag, a variable or a property is
    decided by the compiler, not the parser."""

    path: tuple[PropSeg, ...]
    span: Span = field(default=NO_SPAN, compare=False)

    @property
    def dotted(self) -> str:
        return ".".join(s.name for s in self.path)


@frozen_dataclass(slots=True)
class Wildcard(Expr):
    """`*` as a select item, a crontab wildcard or `count(*)`'s argument."""

    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class StreamWildcard(Expr):
    """`a.*` in the select list."""

    stream: str
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class BinaryOp(Expr):
    op: BinOp
    left: Expr
    right: Expr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class UnaryOp(Expr):
    op: UnOp
    operand: Expr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Parens(Expr):
    """Kept only so the printer can round-trip; the compiler sees through it."""

    inner: Expr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Between(Expr):
    """`x [not] between low and high` (inclusive both ends)."""

    operand: Expr
    low: Expr
    high: Expr
    negated: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class InRange(Expr):
    """`x [not] in [low:high]`, `(low:high)`, `[low:high)`, `(low:high]`."""

    operand: Expr
    low: Expr
    high: Expr
    low_closed: bool
    high_closed: bool
    negated: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class InList(Expr):
    """`x [not] in (a, b, c)`."""

    operand: Expr
    items: tuple[Expr, ...]
    negated: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Like(Expr):
    operand: Expr
    pattern: Expr
    escape: Optional[Expr] = None
    negated: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Regexp(Expr):
    operand: Expr
    pattern: Expr
    negated: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class IsNull(Expr):
    """`x is [not] null`."""

    operand: Expr
    negated: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Case(Expr):
    """`case [operand] when a then b ... [else c] end`."""

    operand: Optional[Expr]
    whens: tuple[tuple[Expr, Expr], ...]
    otherwise: Optional[Expr] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class NamedArg(Expr):
    """A named parameter inside a call: `group_by: account`, `filter: x > 1`."""

    name: str
    value: Expr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Call(Expr):
    """A function call: single-row (`coalesce(a, b)`), aggregation (`sum(x)`, `count(*)`,
    `count(distinct x)`), a user-registered function, or a namespaced one (`timer:within`
    uses PatternGuard, not this). `args` may hold Wildcard and NamedArg."""

    name: str
    args: tuple[Expr, ...] = ()
    distinct: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class TableAccess(Expr):
    """`Table[key, ...]` (the row as an event) or `Table[key, ...].column`: a table row by
    its primary key."""

    table: str
    keys: tuple[Expr, ...]
    column: Optional[str] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Dot(Expr):
    """`target.name` or `target.name(args)` after a call or when the compiler must decide:
    `maxby(price).sym`, `a.before(b)`, `s.toUpperCase()`. `args` is None for a property."""

    target: Expr
    name: str
    args: Optional[tuple[Expr, ...]] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Cast(Expr):
    """`cast(x, type)`, `cast(x as type)`, `cast(s, long dateformat: 'yyyy-MM-dd')`."""

    operand: Expr
    type_name: str
    span: Span = field(default=NO_SPAN, compare=False)
    date_format: Optional[Expr] = None


@frozen_dataclass(slots=True)
class ExprTuple(Expr):
    """`(a, b)` or `()` as a named parameter's value: `group_by: (a, b)`, `group_by: ()`."""

    items: tuple[Expr, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class NewMap(Expr):
    """`new { a = x, b = y }`: a map of the named values (Esper's new-operator)."""

    items: tuple[tuple[str, Expr], ...]
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class InstanceOf(Expr):
    operand: Expr
    type_names: tuple[str, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class ArrayLiteral(Expr):
    """`{1, 2, 3}`."""

    items: tuple[Expr, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Subquery(Expr):
    """`(select ... from ...)` used as a scalar value. `select` is a SelectStatement."""

    select: "object"
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Exists(Expr):
    subquery: Subquery
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class InSubquery(Expr):
    operand: Expr
    subquery: Subquery
    negated: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


class Quantifier(enum.Enum):
    ANY = "any"
    SOME = "some"
    ALL = "all"


@frozen_dataclass(slots=True)
class Quantified(Expr):
    """`x > any (select ...)`, `x = all (1, 2)`: `source` is a Subquery or a tuple of exprs."""

    operand: Expr
    op: BinOp
    quantifier: Quantifier
    source: Union[Subquery, tuple[Expr, ...]]
    span: Span = field(default=NO_SPAN, compare=False)


# Crontab parameters for `output at (...)` and `timer:at(...)`.
@frozen_dataclass(slots=True)
class CronFrequency(Expr):
    """`*/5`."""

    every: Expr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class CronRange(Expr):
    """`1:5` inside a crontab parameter."""

    low: Expr
    high: Expr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class CronKeyword(Expr):
    """`last`, `weekday`, `lastweekday` (optionally applied to a value, e.g. `5 last`)."""

    keyword: str
    value: Optional[Expr] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Substitution(Expr):
    """A substitution parameter: `?` (name None), `?:name` or `?:name:type`; a prepared
    statement replaces it by a literal before compiling."""

    name: Optional[str] = None
    type_name: Optional[str] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Lambda(Expr):
    """`v => body`, `(v, i) => body`, `() => body`: an argument of an enumeration method (or
    the body of an expression declaration). `params` are the parameter names in order."""

    params: tuple[str, ...]
    body: Expr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class LambdaParam(Expr):
    """A reference to a lambda parameter after the compiler bound it (never parsed): the
    value at `slot` of the events-per-stream tuple (negative: counted from its end), then
    `path` read inside it. `name` is the parameter's name, for printing."""

    name: str
    slot: int
    type: object
    path: tuple[PropSeg, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)

