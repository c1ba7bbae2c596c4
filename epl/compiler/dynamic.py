"""Dynamic properties (`item?`, `a.b?`: read per event whether or not the type declares
them, null when absent) and `exists(item?)`, compiled into closures over the underlying
event. Names starting with `_` are never read (see design.md, quality bars)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Optional

import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean

import epl.ast as A
from .compiled import Compiled
from .expressions import _COMPILERS, compiles  # the static Property compiler must be registered first
from .scope import Scope

_MISSING = object()


def _read(value: Any, name: str) -> Any:
    """One dynamic step; _MISSING when the value has no such property."""
    if value is None or name.startswith("_"):
        return _MISSING
    if isinstance(value, EventBean):
        value = value.underlying
    if isinstance(value, Mapping):
        return value.get(name, _MISSING)
    if isinstance(value, (str, int, float, bool, list, tuple)) or callable(value):
        return _MISSING
    return getattr(value, name, _MISSING)


def _index_key(value: Any, seg: A.PropSeg) -> Any:
    if seg.index is not None:
        try:
            return value[seg.index]
        except (IndexError, KeyError, TypeError):
            return _MISSING
    if seg.key is not None:
        return value.get(seg.key, _MISSING) if isinstance(value, Mapping) else _MISSING
    return value


def _source(node: A.Property, scope: Scope) -> tuple[int, tuple]:
    """(stream, segments read from its event)."""
    segs = node.path
    first = segs[0]
    if len(segs) > 1 and not first.dynamic and first.index is None and first.key is None:
        s = scope.stream_by_alias(first.name)
        if s is not None and s.event_type.property_type(first.name) is None:
            return s.index, segs[1:]
    for s in scope.streams:
        if s.event_type.property_type(first.name) is not None:
            return s.index, segs
    return 0, segs


def walker(node: A.Property, scope: Scope) -> tuple[int, Callable[[Any], Any]]:
    """(stream, fn(event) -> value or _MISSING)."""
    k, segs = _source(node, scope)

    def walk(bean: Any, _segs=segs) -> Any:
        v: Any = bean
        for seg in _segs:
            v = _read(v, seg.name)
            if v is _MISSING:
                return _MISSING
            v = _index_key(v, seg)
            if v is _MISSING:
                return _MISSING
        return v
    return k, walk


def compile_dynamic(node: A.Property, scope: Scope) -> Compiled:
    if not scope.streams:
        raise scope.fail(f"Dynamic property '{node.dotted}?' requires a stream")
    k, walk = walker(node, scope)

    def value(eps, _k=k, _w=walk):
        b = eps[_k]
        v = _w(b) if b is not None else _MISSING
        return None if v is _MISSING else v
    return Compiled(value, T.OBJECT)


def compile_exists(node: A.Call, scope: Scope) -> Optional[Compiled]:
    """exists(prop?): whether the event has the property (its value may be null)."""
    if len(node.args) != 1 or not isinstance(node.args[0], A.Property):
        raise scope.fail("Exists function expects a property value expression as input")
    prop = node.args[0]
    if not any(s.dynamic for s in prop.path):
        from epl.compiler.core import compile_expr
        compile_expr(prop, scope)          # a declared property always exists
        return Compiled(lambda eps: True, T.BOOLEAN)
    k, walk = walker(prop, scope)

    def exists(eps, _k=k, _w=walk):
        b = eps[_k]
        return b is not None and _w(b) is not _MISSING
    return Compiled(exists, T.BOOLEAN)


_static_property = _COMPILERS[A.Property]


@compiles(A.Property)
def _property(node: A.Property, scope: Scope) -> Compiled:
    """A property with a dynamic segment compiles here; any other as before."""
    if any(seg.dynamic for seg in node.path):
        return compile_dynamic(node, scope)
    return _static_property(node, scope)
