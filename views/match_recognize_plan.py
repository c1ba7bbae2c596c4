"""What the compiler (epl/compiler/rowrecog.py) hands the match_recognize view
(views/match_recognize.py) in its factory: the automaton, the define predicates, the
partition key, the measures row builder and the clause's options."""
from __future__ import annotations

from typing import Any, Callable, Optional

from engine.contracts.frozen import frozen_dataclass
from views.match_recognize_nfa import RowNFA

PAST_LAST_ROW, TO_NEXT_ROW, TO_CURRENT_ROW = "past last row", "to next row", "to current row"


class PrevHolder:
    """The rows of the partition being matched, newest last, for `prev(...)` in defines (set
    by the runtime before it evaluates defines; evaluation is synchronous)."""

    __slots__ = ("rows",)

    def __init__(self) -> None:
        self.rows: Any = ()


@frozen_dataclass
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
    interval_months: int = 0                             # calendar months of the interval
    # (group variable, binds slot): defines index these variables' rows (`B[1].price`), so
    # partial matches carry them as tuples after the per-variable events
    tracked: tuple = ()

    def due(self, begin_time: int) -> float:
        """When a match whose first row arrived at `begin_time` is delivered (interval mode):
        months are calendar months (UTC), the rest a fixed span."""
        if self.interval_months:
            return add_months(begin_time, self.interval_months) + self.interval
        return begin_time + self.interval


def add_months(msec: int, months: int) -> int:
    import calendar
    import datetime as dt
    t = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(milliseconds=msec)
    m = t.month - 1 + months
    year, month = t.year + m // 12, m % 12 + 1
    day = min(t.day, calendar.monthrange(year, month)[1])
    moved = t.replace(year=year, month=month, day=day)
    return int((moved - dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)) / dt.timedelta(milliseconds=1))
