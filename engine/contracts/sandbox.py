"""The property-access sandbox: which names and values EPL may navigate into at run time.

EPL reads declared properties, public data attributes of plain values, mapping keys and list
elements; it calls only the methods of `epl.compiler.functions.METHODS` (the one registry of
allowed methods, by value kind), Math functions, built-in single-row functions and functions
the application registered. It never reads a name starting with `_`, never steps into a
module, class, function, method, frame, code object or traceback, and the mapped syntax
`m('k')` only indexes mappings (it never calls anything).

Where the type is known, the compiler refuses a violation with an EPLValidationError. Where it
is not (`object`-typed and map-typed values), the step evaluates to null, the process-wide
signal `engine.signals.property_refused` is sent and a warning is logged (once per value type,
name and reason, so a hot statement cannot flood the log)."""
from __future__ import annotations

import logging
import types
from collections.abc import Mapping, Sequence
from typing import Any

from engine.contracts.bean import EventBean
from engine.contracts.signals import property_refused

log = logging.getLogger("engine.sandbox")

# Values EPL never steps into (nor returns from a dynamic step): they lead to the host
# (`f.__globals__`, `module.os.environ`, `cls.__subclasses__()`, frames' locals).
FORBIDDEN_VALUES: tuple[type, ...] = (
    types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
    types.BuiltinMethodType, types.WrapperDescriptorType, types.MethodWrapperType,
    types.MethodDescriptorType, types.ClassMethodDescriptorType, types.GetSetDescriptorType,
    types.MemberDescriptorType, types.FrameType, types.CodeType, types.TracebackType,
    types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType, types.CellType,
    property, classmethod, staticmethod,
)

_logged: set[tuple[str, str, str]] = set()


class UserCodeError(Exception):
    """User code raised while EPL read a value (a property getter, a container's item access):
    `error` is what it raised. Callers isolate it (null, reported); anything else raised here
    is a bug of ours and is not caught."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


def allowed_name(name: str) -> bool:
    """Whether EPL may read attribute `name` of a value (never a private or dunder name)."""
    return not name.startswith("_")


def forbidden(value: Any) -> bool:
    """Whether `value` is one EPL must not step into (a module, class, callable internals...)."""
    return isinstance(value, FORBIDDEN_VALUES)


def refuse(value: Any, name: str, reason: str) -> None:
    """Report a refused step (signal always, log line once per value type, name and reason);
    the caller evaluates the step to null."""
    kind = type(value).__name__
    property_refused.send(kind, name=name, reason=reason)
    key = (kind, name, reason)
    if key not in _logged and len(_logged) < 10_000:
        _logged.add(key)
        log.warning("EPL property access refused: '%s' on a value of type %s (%s); "
                    "evaluated as null", name, kind, reason)


def step(value: Any, name: str) -> Any:
    """One dynamic step `value.name`: a mapping key, an event's property or a public data
    attribute; null for anything the sandbox refuses."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        try:
            return value.get(name)
        except Exception as exc:   # deliberate fault isolation: a user mapping's lookup raised
            raise UserCodeError(exc) from exc
    if isinstance(value, EventBean):
        return value.get(name)     # the type's getter applies the same rules
    if not allowed_name(name):
        refuse(value, name, "private name")
        return None
    if forbidden(value):
        refuse(value, name, f"cannot navigate into a {type(value).__name__}")
        return None
    try:
        out = getattr(value, name, None)
    except Exception as exc:   # deliberate fault isolation: a user property getter raised
        raise UserCodeError(exc) from exc
    if forbidden(out):
        refuse(value, name, f"a {type(out).__name__} is not a property value")
        return None
    return out


def index(value: Any, i: int) -> Any:
    """`value[i]` on lists, tuples, strings and other sequences; null otherwise."""
    if value is None:
        return None
    if not isinstance(value, Sequence):
        refuse(value, f"[{i}]", "only sequences are indexed")
        return None
    try:
        out = value[i]
    except (IndexError, KeyError, TypeError):
        return None
    except Exception as exc:   # deliberate fault isolation: a user sequence's item access raised
        raise UserCodeError(exc) from exc
    return None if forbidden(out) else out


def key(value: Any, k: str) -> Any:
    """The mapped syntax `value('k')`: indexes mappings only, never calls."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        try:
            return value.get(k)
        except Exception as exc:   # deliberate fault isolation: a user mapping's lookup raised
            raise UserCodeError(exc) from exc
    refuse(value, f"('{k}')", "the mapped syntax only indexes mappings")
    return None
