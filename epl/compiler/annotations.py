"""Statement annotations the engine understands: @name, @priority, @drop."""
from __future__ import annotations

from typing import Optional

from .. import ast as A


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
