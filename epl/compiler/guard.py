"""Which statements roll back their state when they fail on an event (engine/rollback.py):
those that run user code able to raise in the middle of updating their state, i.e. that
call aggregations registered with `register_aggregation`. Their plan says so (`guarded`), and
the runtime runs them under a StatementGuard."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import epl.ast as A
from ..ast.walk import walk

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def runs_user_aggregations(node: Any, engine: Optional["Runtime"]) -> bool:
    """Whether the statement calls an aggregation registered with `register_aggregation`
    (its builder is marked `user_defined`, engine/aggregation/user.py)."""
    if engine is None:
        return False
    registry = engine.aggregations
    for n in walk(node):
        if isinstance(n, A.Call):
            builder = registry.get(n.name.lower())
            if builder is not None and getattr(builder, "user_defined", False):
                return True
    return False
