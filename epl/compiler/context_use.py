"""Esper's rule that a window or table declared with a context serves only statements of
that context (the compiler checks it wherever a statement names one)."""
from __future__ import annotations

from typing import Any, Optional

from engine.contracts.errors import EPLValidationError


def check_context_use(target: Any, context: Optional[str], text: str) -> None:
    """Esper: a window or table declared with a context is used only by statements of that
    context."""
    declared = getattr(target, "context", None)
    if declared is not None and context != declared:
        raise EPLValidationError(
            f"{target.kind} by name '{target.name}' has been declared for context '{declared}' "
            f"and can only be used within the same context", text)
