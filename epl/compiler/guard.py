"""Which statements roll back their state when they fail on an event (engine/rollback.py):
those that run user code able to raise in the middle of updating their state, i.e. that
call aggregations registered with `register_aggregation`. Their streams get a GuardView in
place of their views, guarding them."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Optional

from engine.aggregation.registry import AGGREGATIONS
from engine.rollback import GuardChainFactory

import epl.ast as A
from ..ast.walk import walk

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def runs_user_aggregations(node: Any, engine: Optional["Runtime"]) -> bool:
    registry = engine.aggregations if engine is not None else {}
    for n in walk(node):
        if isinstance(n, A.Call):
            name = n.name.lower()
            builder = registry.get(name)
            if builder is not None and builder is not AGGREGATIONS.get(name):
                return True
    return False


def guard(stream_plans: list, node: Any, engine: Optional["Runtime"]) -> list:
    """The stream plans, each stream's views in a GuardChainFactory when the statement needs
    rolling back."""
    if not runs_user_aggregations(node, engine):
        return stream_plans
    return [replace(sp, views=(GuardChainFactory(tuple(sp.views)),))
            if sp.pattern is None and sp.named_window is None else sp for sp in stream_plans]
