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


# Deepest nesting a statement may have. Parsing is iterative (PLY's LALR stack), but the
# compiler, the printer and the filter planner recurse per nesting level (a few Python frames
# each), so the parser refuses deeper trees before any of them runs. Left-associative chains
# (`a or b or ...`, `a + b + ...`) do not count: every consumer walks them iteratively.
MAX_NESTING = 200


def too_deep(node: Any, limit: int = MAX_NESTING) -> Optional[Node]:
    """The first node found nested deeper than `limit` levels below `node`, or None. The left
    operand of a binary operator continues its parent's chain (same level)."""
    from .expressions import BinaryOp
    stack: list[tuple[Any, int]] = [(node, 0)]
    while stack:
        n, depth = stack.pop()
        if depth > limit:
            return n
        chain = n.left if isinstance(n, BinaryOp) else None
        for c in children(n):
            stack.append((c, depth if c is chain and isinstance(c, BinaryOp) else depth + 1))
    return None


def operands(node: Any, op: Any) -> list[Node]:
    """The operands of a chain of binary operator `op` (`a and b and c`), in order,
    parentheses seen through; iterative, so 10,000-term chains are fine."""
    from .expressions import BinaryOp, Parens
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        while isinstance(n, Parens):
            n = n.inner
        if isinstance(n, BinaryOp) and n.op is op:
            stack.append(n.right)
            stack.append(n.left)
        else:
            out.append(n)
    return out
