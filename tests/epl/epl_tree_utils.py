"""Tree helpers shared by the EPL front-end tests."""
from __future__ import annotations

import dataclasses
from typing import Any

from epl import ast as A


def strip_parens(node: Any) -> Any:
    """The tree without Parens/PatternParens nodes: equal trees up to written parentheses."""
    if isinstance(node, (A.Parens, A.PatternParens)):
        return strip_parens(node.inner)
    if isinstance(node, tuple):
        return tuple(strip_parens(x) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: strip_parens(getattr(node, f.name))
                   for f in dataclasses.fields(node) if f.name != "span"}
        return dataclasses.replace(node, **changes)
    return node
