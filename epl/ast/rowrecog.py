"""AST of `match_recognize`: the clause, its measures and defines, and the row pattern
(variables, concatenation, alternation, nesting, quantifiers, permutations)."""
from __future__ import annotations

import enum
from dataclasses import field
from typing import Optional, Union

from engine.contracts.frozen import frozen_dataclass
from .common import NO_SPAN, Node, Span
from .expressions import Expr


class SkipMode(enum.Enum):
    PAST_LAST_ROW = "past last row"
    TO_NEXT_ROW = "to next row"
    TO_CURRENT_ROW = "to current row"


class RowQuantKind(enum.Enum):
    STAR = "*"
    PLUS = "+"
    QUESTION = "?"
    REPEAT = "{}"       # `{n}`, `{n,}`, `{,m}`, `{n,m}`


@frozen_dataclass(slots=True)
class RowQuantifier(Node):
    """A quantifier after an atom. `low`/`high` are the bounds of a repetition (`{n}`: both n
    and `exact`; `{n,}`: high None; `{,m}`: low None); `reluctant` is the trailing `?` of `*?`,
    `+?`, `??`."""

    kind: RowQuantKind
    reluctant: bool = False
    low: Optional[int] = None
    high: Optional[int] = None
    exact: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class RowVar(Node):
    """A pattern variable, optionally quantified: `A`, `B+`, `C*?`, `D{2,3}`."""

    name: str
    quantifier: Optional[RowQuantifier] = None
    repeat: Optional[RowQuantifier] = None   # `{n}`, `{n,}`, `{,m}`, `{n,m}` after a quantifier
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class RowNested(Node):
    """`( ... )` in a row pattern, optionally quantified."""

    inner: "RowPattern"
    quantifier: Optional[RowQuantifier] = None
    repeat: Optional[RowQuantifier] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class RowPermute(Node):
    """`match_recognize_permute(A, B, C)`: every order of the items, optionally quantified."""

    items: tuple["RowPattern", ...]
    quantifier: Optional[RowQuantifier] = None
    repeat: Optional[RowQuantifier] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class RowConcat(Node):
    items: tuple["RowPattern", ...]
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class RowAlt(Node):
    items: tuple["RowPattern", ...]
    span: Span = field(default=NO_SPAN, compare=False)


RowPattern = Union[RowVar, RowNested, RowPermute, RowConcat, RowAlt]


@frozen_dataclass(slots=True)
class MeasureItem(Node):
    expr: Expr
    alias: Optional[str] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class DefineItem(Node):
    name: str
    expr: Expr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class MatchRecognize(Node):
    """`match_recognize ( partition by ... measures ... [all matches] [after match skip ...]
    pattern ( ... ) [interval ... [or terminated]] define ... )`."""

    pattern: RowPattern
    measures: tuple[MeasureItem, ...] = ()
    partition_by: tuple[Expr, ...] = ()
    all_matches: bool = False
    skip: Optional[SkipMode] = None          # None: not written (past last row)
    interval: Optional[Expr] = None
    or_terminated: bool = False
    defines: tuple[DefineItem, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)
