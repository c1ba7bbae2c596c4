"""Compile-time AST rewriting: rebuild a frozen expression tree with some nodes replaced
(lambda parameters bound to slots, declared expressions inlined). Runs once per statement."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Optional

import epl.ast as A

# `fn(node)` returns a replacement, or None to keep the node and rewrite its children.
Replacer = Callable[[Any], Optional[Any]]


def rewrite(node: Any, fn: Replacer) -> Any:
    """`node` with every node for which `fn` gives a replacement replaced (children first
    untouched for replaced nodes); unchanged subtrees keep their identity."""
    if not isinstance(node, A.Node):
        return node
    out = fn(node)
    if out is not None:
        return out
    if not dataclasses.is_dataclass(node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        if f.name == "span":
            continue
        v = getattr(node, f.name)
        nv = _value(v, fn)
        if nv is not v:
            changes[f.name] = nv
    return dataclasses.replace(node, **changes) if changes else node


def _value(v: Any, fn: Replacer) -> Any:
    if isinstance(v, A.Node):
        return rewrite(v, fn)
    if isinstance(v, tuple):
        items = [_value(x, fn) for x in v]
        return tuple(items) if any(a is not b for a, b in zip(items, v)) else v
    return v
