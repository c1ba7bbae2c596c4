"""Walking the syntax tree at compile time: a node's children and a pre-order walk."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

from .common import Node


def children(node: Any) -> Iterator[Node]:
    """The nodes directly below `node` (in field order; tuples, and tuples of tuples, opened)."""
    for name in getattr(node, "__dataclass_fields__", ()):
        if name == "span":
            continue
        value = getattr(node, name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Node):
                    yield item
                elif isinstance(item, tuple):
                    for inner in item:
                        if isinstance(inner, Node):
                            yield inner


def walk(node: Any, prune: Optional[Callable[[Node], bool]] = None) -> Iterator[Node]:
    """Every node from `node` down, pre-order; below a node for which `prune` is true the
    walk does not descend (the node itself is still yielded)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if prune is not None and prune(n):
            continue
        stack.extend(reversed(list(children(n))))
