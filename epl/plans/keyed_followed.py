"""KeyedFollowedPlan: the compiled keyed followed-by shape (`every a=A -> b=B(x = a.y)`,
optionally `and not C(z = a.y)` beside B, optionally `where timer:within(t)`), found by epl/compiler/pattern_fastpath.py and run by
engine/patterns/keyed_followed.py."""
from __future__ import annotations

from typing import Any, Callable, Optional

from engine.contracts.epl_types import EPLType
from engine.contracts.frozen import frozen_dataclass

# key properties must compare with exact equality, as the filter index's EQ does
EXACT_KINDS = frozenset({EPLType.STRING, EPLType.BOOLEAN, EPLType.BYTE, EPLType.SHORT,
                         EPLType.INT, EPLType.LONG, EPLType.BIGINT})


@frozen_dataclass
class KeyedFollowedPlan:
    """A's filter template (constant), B's constant part (without the key equalities), the
    key properties on each side (pairwise equal), the tags and the match type. `within`
    gives the `timer:within` period in ms from the match so far (`{a_tag: A event}`), None
    without a guard; `within_ms` is that period when it is a constant (the deadlines then
    come in creation order). With `and not C(...)`, C's constant part and its key properties
    (pairwise equal to `a_props`); a C event ends the instances waiting under its key."""

    a_template: Any
    a_type: Any
    a_tag: str
    a_props: tuple[str, ...]
    b_template: Any
    b_type: Any
    b_tag: Optional[str]
    b_props: tuple[str, ...]
    within: Optional[Callable[[dict], int]]
    match_type: Any
    within_ms: Optional[int] = None
    c_template: Any = None
    c_type: Any = None
    c_props: tuple[str, ...] = ()
