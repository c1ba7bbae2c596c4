"""CTI violations: an event that revises the timeline before its input's latest CTI, and the
per-input policy deciding its fate (StreamInsight's AdvanceTimePolicy).

Rules:
- After a CTI at c, a point, interval or start-edge event must start at or after c; an end
  edge must end at or after c. Anything else is a violation.
- DROP: the violating event is not enqueued.
- ADJUST: when the event's lifetime reaches past c (end > c) its start moves to c and it is
  enqueued; when its whole lifetime lies before c it is dropped. An end edge ending before c
  is dropped under both policies (its lifetime ended before the CTI).
- Every violation is counted on its input (`dropped`, `adjusted`) and reported through
  `engine.signals.cti_violation` (sender: engine, input=, event=, action=).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional, Union


class ViolationPolicy(enum.Enum):
    DROP = "drop"
    ADJUST = "adjust"

    @classmethod
    def of(cls, value: Union[str, "ViolationPolicy"]) -> "ViolationPolicy":
        if isinstance(value, cls):
            return value
        try:
            return cls(str(value).lower())
        except ValueError:
            raise ValueError(f"Unknown CTI violation policy {value!r}: use 'drop' or 'adjust'") from None


DROPPED = "dropped"
ADJUSTED = "adjusted"


@dataclass
class ViolationCounts:
    """What an input did with CTI violations (and end edges that matched no start edge)."""

    dropped: int = 0
    adjusted: int = 0
    unmatched_end_edges: int = 0

    @property
    def total(self) -> int:
        return self.dropped + self.adjusted


def judge(policy: ViolationPolicy, start: int, end: int, cti: int,
          end_edge: bool = False) -> tuple[Optional[str], int]:
    """(action, start): action None when the event respects the CTI, else DROPPED or
    ADJUSTED with the start to use.

    >>> judge(ViolationPolicy.ADJUST, 5, 20, 10)
    ('adjusted', 10)
    >>> judge(ViolationPolicy.ADJUST, 5, 10, 10)
    ('dropped', 5)
    >>> judge(ViolationPolicy.DROP, 12, 20, 10)
    (None, 12)
    """
    if end_edge:
        return (DROPPED, start) if end < cti else (None, start)
    if start >= cti:
        return None, start
    if policy is ViolationPolicy.ADJUST and end > cti:
        return ADJUSTED, cti
    return DROPPED, start
