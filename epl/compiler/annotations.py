"""Statement annotations the engine understands: @name, @priority, @drop."""
from __future__ import annotations

from typing import Optional

import epl.ast as A


def annotation(annotations: tuple[A.Annotation, ...], name: str) -> Optional[A.Annotation]:
    for a in annotations:
        if a.name.lower() == name.lower():
            return a
    return None


def statement_name(annotations: tuple[A.Annotation, ...]) -> Optional[str]:
    a = annotation(annotations, "name")
    if a is None:
        return None
    if a.value is not None:
        return str(a.value)
    for k, v in a.attrs:
        if k == "value":
            return str(v)
    return None


def priority(annotations: tuple[A.Annotation, ...]) -> int:
    a = annotation(annotations, "priority")
    if a is None:
        return 0
    v = a.value if a.value is not None else dict(a.attrs).get("value", 0)
    return int(v)


def has(annotations: tuple[A.Annotation, ...], name: str) -> bool:
    return annotation(annotations, name) is not None


def hints(annotations: tuple[A.Annotation, ...]) -> frozenset[str]:
    """The names in every `@hint('a, b')`, lower case with '-' for '_'."""
    out: set[str] = set()
    for a in annotations:
        if a.name.lower() != "hint":
            continue
        v = a.value if a.value is not None else dict(a.attrs).get("value")
        if v is None:
            continue
        for part in str(v).split(","):
            name = part.strip().lower().replace("_", "-")
            if name:
                out.add(name)
    return frozenset(out)


def hint_values(annotations: tuple[A.Annotation, ...]) -> dict[str, Optional[str]]:
    """Every `@Hint('a, b=1')` item, lower-case name to its value (None without `=`)."""
    out: dict[str, Optional[str]] = {}
    for a in annotations:
        if a.name.lower() != "hint":
            continue
        for v in [a.value] + [v for _, v in a.attrs]:
            if not isinstance(v, str):
                continue
            for item in _split_items(v):
                name, eq, value = item.partition("=")
                if name.strip():
                    out[name.strip().lower()] = value.strip() if eq else None
    return out


def _split_items(text: str) -> list[str]:
    """`'a, index(x, y), b=1'` -> ['a', 'index(x, y)', 'b=1']: commas inside parentheses
    belong to the item."""
    items, depth, cur = [], 0, []
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            items.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    items.append("".join(cur))
    return items


def group_reclaim(annotations: tuple[A.Annotation, ...], text: str) -> tuple[Optional[bool], Optional[float], Optional[float]]:
    """The group-reclaim hints: (reclaim override or None, aged ms or None, frequency ms or
    None). `disable_reclaim_group` keeps empty groups of windowed group-by statements;
    `reclaim_group_aged=N` drops groups not updated for N seconds."""
    from engine.contracts.errors import EPLValidationError
    h = hint_values(annotations)
    override = False if "disable_reclaim_group" in h else None

    def seconds(name: str) -> Optional[float]:
        v = h.get(name)
        if name not in h:
            return None
        try:
            n = float(v) if v is not None else None
        except ValueError:
            n = None
        if n is None or n <= 0:
            raise EPLValidationError(
                f"Failed to parse hint parameter value '{v}' as a double-typed seconds value or "
                f"variable name for hint '{name}'", text)
        return n * 1000
    return override, seconds("reclaim_group_aged"), seconds("reclaim_group_freq")
