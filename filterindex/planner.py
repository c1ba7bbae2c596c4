"""Filter templates: what the filter planner (epl/compiler/filter_planner.py) makes of a
stream filter. A FilterTemplate holds, per `or` path, parameter templates whose values are
Constants (known when the statement is compiled) or Bounds (computed from a pattern's earlier
tags or a context's properties when the filter is registered); `bind(bindings)` gives the
FilterSpec to register."""
from __future__ import annotations

from dataclasses import field
from functools import partial
from typing import Any, Callable, Optional, Union

from engine.contracts.frozen import frozen_dataclass
from .spec import FilterOp, FilterParam, FilterSpec

MAX_PATHS = 16


@frozen_dataclass(slots=True)
class Constant:
    """A value known when the statement is compiled."""

    value: Any


@frozen_dataclass(slots=True)
class Bound:
    """A value known when the filter is registered: `fn(bindings)` (a pattern's earlier tags,
    a context partition's properties)."""

    fn: Callable[[Any], Any]


ValueSource = Union[Constant, Bound]
Predicate = Callable[[Any, Any], object]          # fn(bean, bindings)

_SCALAR, _RANGE, _LIST = "scalar", "range", "list"
_SIMPLE = (type(None), bool, int, float, str)


# -- parameter templates ---------------------------------------------------------------
@frozen_dataclass(slots=True)
class _ValueParam:
    """An indexed parameter whose value(s) may come from bindings."""

    lookup: str
    op: FilterOp
    getter: Callable[[Any], Any]
    sources: tuple[ValueSource, ...]
    form: str

    @property
    def bound(self) -> bool:
        return any(isinstance(s, Bound) for s in self.sources)

    def bind(self, bindings: Any) -> FilterParam:
        vals = [s.value if isinstance(s, Constant) else s.fn(bindings) for s in self.sources]
        if self.form == _SCALAR:
            value: Any = vals[0]
        elif self.form == _RANGE:
            value = _ordered_range(vals[0], vals[1])
        else:
            value = tuple(_flatten(vals))
        return FilterParam(self.lookup, self.op, value, self.getter)


@frozen_dataclass(slots=True)
class _PredicateParam:
    """A boolean-expression leaf. `deps` are the bound values it reads (empty: it reads
    only the event, constants and variables)."""

    fn: Predicate
    key: str
    deps: tuple[Bound, ...]

    @property
    def bound(self) -> bool:
        return bool(self.deps)

    def bind(self, bindings: Any) -> FilterParam:
        fn = self.fn
        key = self.key
        if self.deps:
            values = [d.fn(bindings) for d in self.deps]
            if all(type(v) in _SIMPLE for v in values):
                key = f"{key}\0{values!r}"
            else:
                # The predicate closes over `bindings`, so its id is not reused while the
                # leaf is registered: leaves of the same bindings share, others do not.
                key = f"{key}\0@{id(bindings)}"
        return FilterParam("", FilterOp.BOOL_EXPR, lambda bean: fn(bean, bindings), key=key)


_ParamTemplate = Union[_ValueParam, _PredicateParam]


@frozen_dataclass
class FilterTemplate:
    """The planned filter of one stream: `bind(bindings)` gives the FilterSpec. `bind` is
    chosen once, when the template is planned (`_template`): a filter that reads no bound
    value binds once and returns the same spec every time; one path of scalar parameters gets
    a specialised binder (a pattern's filter binds once per activation); anything else binds
    through `_bind`."""

    event_type: Any
    paths: tuple[tuple[_ParamTemplate, ...], ...]
    bind: Callable[..., FilterSpec] = field(compare=False, repr=False)
    needs_bindings: bool = field(default=True, compare=False, repr=False)

    def _bind(self, bindings: Any = None) -> FilterSpec:
        return _bind_paths(self.event_type, self.paths, bindings)


def _bind_paths(event_type: Any, paths: tuple, bindings: Any = None) -> FilterSpec:
    return FilterSpec(event_type, tuple(tuple(p.bind(bindings) for p in path) for path in paths))


def _template(event_type: Any, paths: tuple) -> FilterTemplate:
    if not any(p.bound for path in paths for p in path):
        spec = _bind_paths(event_type, paths)

        def bind_static(bindings: Any = None) -> FilterSpec:
            return spec
        return FilterTemplate(event_type, paths, bind_static, needs_bindings=False)
    bind = _fast_bind(event_type, paths) or partial(_bind_paths, event_type, paths)
    return FilterTemplate(event_type, paths, bind)


def _fast_bind(event_type: Any, paths: tuple) -> Optional[Callable[..., FilterSpec]]:
    """`bind` for the common template of one path of scalar parameters (`b=B(id = a.id)`),
    with what does not depend on the bindings taken out of the call."""
    if len(paths) != 1 or not all(isinstance(p, _ValueParam) and p.form == _SCALAR
                                   and len(p.sources) == 1 for p in paths[0]):
        return None
    params = [(p.lookup, p.op, p.getter, p.sources[0]) for p in paths[0]]
    if len(params) == 1 and isinstance(params[0][3], Bound):
        lookup, op, getter, src = params[0]
        fn = src.fn

        def bind_one(bindings: Any = None) -> FilterSpec:
            return FilterSpec(event_type, ((FilterParam(lookup, op, fn(bindings), getter),),))
        return bind_one
    parts = [(lookup, op, getter, isinstance(s, Bound), s.fn if isinstance(s, Bound) else s.value)
             for lookup, op, getter, s in params]

    def bind(bindings: Any = None) -> FilterSpec:
        return FilterSpec(event_type, (tuple(
            FilterParam(lookup, op, f(bindings) if bound else f, getter)
            for lookup, op, getter, bound, f in parts),))
    return bind


def _ordered_range(low: Any, high: Any) -> tuple:
    """Esper's ranges keep low <= high: `between 10 and 5` is `between 5 and 10`."""
    try:
        if low is not None and high is not None and high < low:
            return (high, low)
    except TypeError:
        pass
    return (low, high)


def _flatten(values: list) -> list:
    """`x in (a.ids, 3)`: arrays and collections among the values contribute their members."""
    out = []
    for v in values:
        if isinstance(v, (list, tuple, set, frozenset)):
            out.extend(v)
        else:
            out.append(v)
    return out
