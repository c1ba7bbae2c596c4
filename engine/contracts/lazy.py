"""Lazy package faces: a package `__init__` names where each public name is defined and loads
it on first use (PEP 562), so importing one light module never drags the whole package in."""
from __future__ import annotations

import importlib
import sys
from typing import Callable, Iterable, Mapping, Optional


def lazy_exports(
    package: str, origin: Mapping[str, tuple[str, Optional[str]]], public: Iterable[str],
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of `package`: `origin` maps a public name to (module,
    attribute) or (module, None) for the module itself. A loaded name is cached in the package
    dict, so later lookups never reach `__getattr__` (nothing per event goes through it)."""
    names = frozenset(public)

    def __getattr__(name: str) -> object:
        try:
            module, attr = origin[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value: object = importlib.import_module(module)
        if attr is not None:
            value = getattr(value, attr)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | names)

    return __getattr__, __dir__
