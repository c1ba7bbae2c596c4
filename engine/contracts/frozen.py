"""`frozen_dataclass`: `@dataclass(frozen=True)` (AST nodes, plan data, config) at half the
cost of declaring it.

`dataclasses` writes six methods of a frozen dataclass as source and compiles each, about
330 us a class on this machine; the engine declares some 230 of them at import, most of a
cold start's time. `__eq__`, `__hash__` and `__repr__` need no source: here they are
closures over the class's field names (C `attrgetter`s), so only `__init__`,
`__setattr__` and `__delattr__` are compiled (measured: 330 -> 200 us a class). They
behave as the generated ones do: equality and hash over the fields with `compare` (hash:
`hash`) as one tuple, same class only; the repr `Name(field=value, ...)` over the fields
with `repr`, guarded against recursion; a method written in the class body is kept, and an
`__eq__` written without `__hash__` gets the fields' hash, as `dataclass` does. A class
without a docstring gets dataclass's `Name(a: 'int', b: 'str' = 'x')`, written from the
fields instead of through `inspect.signature` (~0.2 ms a class). The one visible difference: `__dataclass_params__` says `eq=False, repr=False` (what `dataclass`
was asked for), while the class compares and prints as with `eq=True, repr=True`."""
from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from inspect import formatannotation
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, Callable, Optional, TypeVar, overload

C = TypeVar("C", bound=type)


@overload
def frozen_dataclass(cls: C, /) -> C: ...


@overload
def frozen_dataclass(*, slots: bool = False) -> Callable[[C], C]: ...


def frozen_dataclass(cls: Optional[C] = None, /, *, slots: bool = False) -> Any:
    """`@frozen_dataclass` is `@dataclass(frozen=True)`; `@frozen_dataclass(slots=True)` is
    `@dataclass(frozen=True, slots=True)`."""
    def wrap(c: C) -> C:
        undocumented = not c.__doc__
        if undocumented:    # else dataclass writes one through inspect.signature, ~0.2 ms
            c.__doc__ = "-"
        made = _shared_methods(dataclass(c, frozen=True, slots=slots, eq=False, repr=False))
        if undocumented:
            made.__doc__ = _signature_doc(made)
        return made
    return wrap if cls is None else wrap(cls)


def _signature_doc(cls: type) -> str:
    """The docstring dataclass gives a class without one, `Name(a: 'int', b: 'str' = 'x')`,
    written from the fields (InitVar parameters, which are no fields, are left out)."""
    params = []
    init = [f for f in fields(cls) if f.init]
    for f in sorted(init, key=lambda f: bool(f.kw_only)):   # keyword-only ones last, as __init__
        if f.kw_only and "*" not in params:
            params.append("*")
        text = f"{f.name}: {f.type!r}" if isinstance(f.type, str) else f"{f.name}: {formatannotation(f.type)}"
        if f.default is not MISSING:
            text += f" = {f.default!r}"
        elif f.default_factory is not MISSING:
            text += " = <factory>"
        params.append(text)
    return f"{cls.__name__}({', '.join(params)})"


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    """The field values as a tuple (always a tuple, so that `==` treats equal-identity values
    as equal just as the generated tuple comparison does)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _shared_methods(cls: C) -> C:
    own = cls.__dict__
    fs = fields(cls)
    qual = cls.__qualname__
    if "__repr__" not in own:
        shown = tuple(f.name for f in fs if f.repr)

        @recursive_repr()
        def __repr__(self: Any) -> str:
            return f"{self.__class__.__qualname__}({', '.join([f'{n}={getattr(self, n)!r}' for n in shown])})"
        __repr__.__qualname__ = f"{qual}.__repr__"
        cls.__repr__ = __repr__  # type: ignore[assignment]
    explicit_eq = "__eq__" in own
    if not explicit_eq:
        compared = _key(tuple(f.name for f in fs if f.compare))

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return compared(self) == compared(other)
            return NotImplemented
        __eq__.__qualname__ = f"{qual}.__eq__"
        cls.__eq__ = __eq__  # type: ignore[assignment]
    # dataclass's rule for eq=True, frozen=True: add a hash unless the body wrote one (an
    # `__eq__` written alone leaves `__hash__ = None` in the body: that is not a hash written)
    body_hash = own.get("__hash__", _MISSING)
    if body_hash is _MISSING or (body_hash is None and explicit_eq):
        hashed = _key(tuple(f.name for f in fs if (f.compare if f.hash is None else f.hash)))

        def __hash__(self: Any) -> int:
            return hash(hashed(self))
        __hash__.__qualname__ = f"{qual}.__hash__"
        cls.__hash__ = __hash__  # type: ignore[assignment]
    return cls


_MISSING = object()
