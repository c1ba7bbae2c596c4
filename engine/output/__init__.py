"""Output rate limiting (`output every ...`, `output first|last|snapshot ...`)."""
from __future__ import annotations

from typing import Any

from epl.errors import EPLValidationError


def output_factory(clause: Any, node: Any, scope: Any, collector: Any, text: str) -> Any:
    raise EPLValidationError("Output rate limiting is not supported yet", text)
