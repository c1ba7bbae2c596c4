"""From a pattern plan (epl/plans/patterns.py, data) to what a run makes its state nodes
with: one Node per plan node, built when a pattern run starts, never per event.

A Node carries its plan's fields, with nested plans (`child`, `children`, `until`) replaced by
their nodes, and `make(parent, run)` creating the state node of the plan's operator; a state
node reads its parameters from it as `self.plan.<field>`."""
from __future__ import annotations

import dataclasses
from typing import Any

import epl.plans.patterns as P

from .and_or import AndState, OrState
from .every import EveryDistinctState, EveryState
from .filter import FilterState
from .followed_by import FollowedByState
from .guards import GuardState
from .not_ import NotState
from .observers import AtState, IntervalState
from .repeat_until import RepeatState

# the state node that runs each kind of plan node
STATES: dict[type, type] = {
    P.FilterPlan: FilterState,
    P.EveryPlan: EveryState,
    P.EveryDistinctPlan: EveryDistinctState,
    P.FollowedByPlan: FollowedByState,
    P.AndPlan: AndState,
    P.OrPlan: OrState,
    P.NotPlan: NotState,
    P.RepeatPlan: RepeatState,
    P.GuardPlan: GuardState,
    P.IntervalPlan: IntervalState,
    P.AtPlan: AtState,
}


class Node:
    """One plan node as a run uses it (see the module docstring)."""

    shared_state = True     # immutable configuration: a rollback guard records none of it

    def __init__(self, plan: Any, state: type) -> None:
        self.source = plan          # the plan node itself (for what walks plans)
        self.state = state
        for f in dataclasses.fields(plan):
            setattr(self, f.name, _built(getattr(plan, f.name)))

    def make(self, parent: Any, run: Any) -> Any:
        return self.state(parent, run, self)


def build(plan: Any) -> Node:
    """The node tree of a pattern plan's root."""
    state = STATES.get(type(plan))
    if state is None:
        raise TypeError(f"not a pattern plan node: {plan!r}")
    return Node(plan, state)


def _built(value: Any) -> Any:
    if type(value) in STATES:
        return build(value)
    if isinstance(value, tuple) and any(type(v) in STATES for v in value):
        return tuple(_built(v) for v in value)
    return value
