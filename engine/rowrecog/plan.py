"""What the compiler hands the match_recognize runtime: the automaton, the define predicates,
the partition key, the measures row builder and the clause's options."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from .nfa import RowNFA

PAST_LAST_ROW, TO_NEXT_ROW, TO_CURRENT_ROW = "past last row", "to next row", "to current row"


class PrevHolder:
    """The rows of the partition being matched, newest last, for `prev(...)` in defines (set
    by the runtime before it evaluates defines; evaluation is synchronous)."""

    __slots__ = ("rows",)

    def __init__(self) -> None:
        self.rows: Any = ()


@dataclass(frozen=True)
class RowRecogPlan:
    nfa: RowNFA
    preds: tuple[Optional[Callable[[Any], Any]], ...]   # per variable; None: always true
    key_of: Optional[Callable[[Any], Any]]               # bean -> partition key
    group_vars: frozenset[int]
    make_row: Callable[[dict], Any]                      # {var: event | [events]} -> EventBean
    out_type: Any
    all_matches: bool = False
    skip: str = PAST_LAST_ROW
    interval: Optional[float] = None                     # msec
    or_terminated: bool = False
    prev_depth: int = 0
    prev_holder: Optional[PrevHolder] = None
