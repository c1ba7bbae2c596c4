"""The output plan: what the compiler (epl/compiler/output.py) decided about a statement's
output clause. The runtime (engine/output/plan.py, `make_limiter`) makes one limiter per
statement instance from it, with its condition made from the condition spec here."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Union

from engine.contracts.frozen import frozen_dataclass
import epl.ast as A
from engine.contracts.crontab import CrontabSpec


@frozen_dataclass
class AfterSpec:
    """`output after <time period>` (`msec`) or `output after N events` (`events`)."""

    msec: Optional[int] = None
    events: Optional[int] = None


@frozen_dataclass
class EveryEvents:
    """`output every N events`: `rate` is fixed, or read from a variable at every update
    (`output every myvar events`)."""

    rate: int
    read_rate: Optional[Callable[[], Any]] = None


@frozen_dataclass
class EveryTime:
    """`output every <time period>`."""

    msec: int
    start_on_creation: bool = False
    # a variable's period (Esper reads it again for each interval); None: `msec`
    length: Optional[Callable[[], Any]] = None

    def period(self) -> int:
        """The current interval in milliseconds (at least 1)."""
        if self.length is None:
            return max(1, int(self.msec))
        v = self.length()
        return max(1, int(round(v))) if isinstance(v, (int, float)) and not isinstance(v, bool) else 1


@frozen_dataclass
class AtCrontab:
    """`output at (minutes, hours, days, months, weekdays [, seconds [, zone]])`."""

    spec: CrontabSpec
    timezone: Optional[str] = None
    start_on_creation: bool = False


class BuiltinValues:
    """What the compiled when-expressions read for the built-in names (the scope's builtins
    holder): made once per statement by the compiler, filled by each condition right before it
    evaluates."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}


Assignment = tuple[Callable[[Any], None], Callable[[Sequence[Any]], Any]]   # (write, value)


@frozen_dataclass
class WhenSpec:
    """`output when <expr> [then set ...]` and `... and when terminated [and <expr>] [then
    set ...]`, compiled once per statement (engine/output/when.py runs it)."""

    when: Optional[Callable[[Sequence[Any]], Any]]
    then: tuple[Assignment, ...]
    holder: BuiltinValues
    watched: tuple[str, ...] = ()            # variables whose change re-evaluates `when`
    # (name, callback) -> handle and handle -> None on the statement's variables; None
    # when there is nothing to watch
    subscribe: Optional[Callable[[str, Callable[..., None]], Any]] = None
    unsubscribe: Optional[Callable[[Any], None]] = None
    terminable: bool = False
    terminated_and: Optional[Callable[[Sequence[Any]], Any]] = None
    terminated_then: tuple[Assignment, ...] = ()


@frozen_dataclass
class TerminatedOnly:
    """`output when terminated`: everything waits for the end of the context partition."""


Condition = Union[EveryEvents, EveryTime, AtCrontab, WhenSpec, TerminatedOnly]


@frozen_dataclass
class OutputPlan:
    """Everything decided about a statement's output clause."""

    kind: A.OutputKind
    condition: Optional[Condition]       # None for `output after` alone
    after: Optional[AfterSpec]
    terminable: bool
    selector: str
    grouped: bool
    buffered: bool = False               # order by (or the hint) selects Esper's buffered forms
