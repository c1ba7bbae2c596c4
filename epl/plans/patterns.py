"""Pattern plans: `pattern [...]` as the compiler (epl/compiler/patterns.py) hands it to the
runtime (engine/patterns/), a tree of frozen operator nodes with their parameters and
compiled closures over the match so far (a dict tag -> EventBean, or a list of them for tags
under a repeat). The runtime builds its state machines from the tree when a statement
instance starts (engine/patterns/nodes.py)."""
from __future__ import annotations

from typing import Any, Callable, Optional

from engine.contracts.crontab import CrontabSpec
from engine.contracts.event_types import EventType
from engine.contracts.frozen import frozen_dataclass

Match = dict
Bound = Optional[Callable[[Match], Optional[int]]]


@frozen_dataclass
class PatternPlan:
    """A compiled pattern: the operator tree, the type of its matches (one property per tag),
    the event types its filters listen to and the statement's overlapping-match annotations.
    `engine.patterns.run.start_pattern` runs it for one statement instance."""

    root: Any
    match_type: EventType
    event_types: tuple              # types the pattern's filters listen to
    suppress_overlapping: bool = False
    discard_partials: bool = False
    # the fast path for the pattern's shape (epl/plans/keyed_followed.py), or None
    fast: Any = None


@frozen_dataclass
class FilterPlan:
    """`a=A(...)`: `template.bind((match_bean,))` gives the FilterSpec; `tag` names the event
    in the match."""

    template: Any
    tag: Optional[str]
    event_type: Any
    consume: Optional[int] = None       # the `@consume(level)` attribute (engine/patterns/consume.py)


@frozen_dataclass
class EveryPlan:
    child: Any


@frozen_dataclass
class EveryDistinctPlan:
    """`key_of(match) -> hashable`; `expiry_ms` None keeps keys for the instance's life."""

    child: Any
    key_of: Callable[[Match], Any]
    expiry_ms: Optional[int] = None


@frozen_dataclass
class FollowedByPlan:
    children: tuple
    maxes: tuple[Optional[int], ...] = ()   # maxes[i]: `-[N]>` between child i and i+1


@frozen_dataclass
class AndPlan:
    children: tuple


@frozen_dataclass
class OrPlan:
    children: tuple


@frozen_dataclass
class NotPlan:
    child: Any


@frozen_dataclass
class RepeatPlan:
    """`[n] child` (until None, low == high) or `[low:high] child until stop`."""

    child: Any
    until: Any = None                   # plan of the until child, or None for `[n] child`
    low: Bound = None                   # bounds evaluated on the begin state
    high: Bound = None
    array_tags: tuple[str, ...] = ()    # tags inside the matcher: collected into lists


@frozen_dataclass
class WithinGuard:
    """`timer:within(t)` (max_count None) or `timer:withinmax(t, n)`; `delta_of(begin)` is t
    in milliseconds."""

    delta_of: Callable[[Match], int]
    max_count: Optional[Callable[[Match], int]] = None


@frozen_dataclass
class WhileGuard:
    """`while (expr)`: `test(match)` is True while matches may pass."""

    test: Callable[[Match], bool]


@frozen_dataclass
class GuardPlan:
    child: Any
    guard: Any      # WithinGuard | WhileGuard


@frozen_dataclass
class IntervalPlan:
    """`timer:interval(t)`: `delta_of(begin)` in milliseconds."""

    delta_of: Callable[[Match], int]


@frozen_dataclass
class AtPlan:
    """`timer:at(...)`: the next crontab instant."""

    spec: CrontabSpec
