"""Fused statements at runtime: a statement instance of a fusable shape (see
epl/compiler/fused) gets a handle whose `on_event` is one generated function doing what its
view chain, where clause, result-set processor and output would do, on the same window and
aggregation objects (so iteration, stop, relocation and checkpoints see the same state);
and `send_many` hands a batch to the statement's generated loop when it is the only
consumer of the event type (`run_batch`).

Off with `engine.fusion = False` (statements started afterwards keep the general chain) or
the environment variable EPL_FUSION=0 (read when a statement starts)."""
from __future__ import annotations

import os
import sys
import weakref
from typing import TYPE_CHECKING, Any, Callable, Optional

from views.groupwin import GroupWinView
from views.length import LengthWindow, LengthWindowFactory

from engine.contracts.bean import EventBean
from engine.contracts.event_types import Representation
from .contracts.epoch import EPOCH, bump
from .faults import statement_failed
from .fused_windows import SINK_VIEWS, fuse_window
from .instance import SingleStreamSink, StatementContext, StreamHandle
from .statement import late_subscriber

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

ENV = "EPL_FUSION"
_BASIC = "engine.aggregation.basic"
_CODE: dict[str, Any] = {}          # source -> compiled code: one compile per shape
_MAX_CODE = 1024
_SHAPES: dict[str, Any] = {}        # statement text -> Shape or None
_MAX_SHAPES = 4096
_NAMESPACE = {"__builtins__": {}, "type": type, "float": float, "int": int, "dict": dict,
              "len": len, "range": range, "Exception": Exception, "KeyError": KeyError}


def enabled(engine: "Runtime") -> bool:
    """Whether statements of `engine` started now may fuse."""
    flag = getattr(engine, "fusion", None)
    if flag is not None:
        return bool(flag)
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "off", "no")


class LoopBean(EventBean):
    """The bean of an event that a fused statement's batch loop made for its window: an
    EventBean that only that window holds, so the loop gives it to the next event when the
    full window expels it (epl/compiler/fused/codegen.py `_recycling_body`). It also keeps
    what the statement reads of the event when it leaves: `v`, the value of the one property
    the aggregations read, and `k`, the group-by value (each set only by statements that
    read it). One handed out anywhere (a fault report) becomes a SpentBean."""

    __slots__ = ("k", "v")


class TypedLoopBean(LoopBean):
    """A LoopBean whose `v` is of the type the loop's fast path takes (float or int, per
    statement: a bean is only ever in one statement's window), so the fast path tests one
    class instead of the bean's class and its value's type (codegen.py `_fast_block`)."""

    __slots__ = ()


class SpentBean(LoopBean):
    """A LoopBean that was handed out (to a fault report): never reused, and its event is
    read from the event itself again (the loops take only `type(ob) is LoopBean`)."""

    __slots__ = ()


class KeptLoopBean(LoopBean):
    """A LoopBean of a statement that reads nothing of an event in its window but `k` and
    `v` (epl/compiler/fused/codegen.py kept_values): it keeps those two values and not the
    event. So the window does not keep the user's dict alive, and a full window's step
    does not touch the dict of the event leaving it (a cache miss per event: about 5% of
    W2's time). `underlying` is the event as the statement sees it: a dict of the kept
    properties, made when something reads it (the general chain: iteration, the per-event
    path, a checkpoint). The property names are the class's (`kept_classes`)."""

    __slots__ = ()
    _kept: tuple[Optional[str], str] = (None, "")       # (group-by property or None, aggregated)

    @property
    def underlying(self) -> dict:       # type: ignore[override]
        k, v = self._kept
        return {v: self.v} if k is None else {k: self.k, v: self.v}

    def __getstate__(self) -> tuple[None, dict]:
        """The slots that hold something (pickle's slot state): not the derived `underlying`."""
        state = {"event_type": self.event_type, "v": self.v}
        if self._kept[0] is not None:
            state["k"] = self.k
        return None, state


_KEPT: dict[tuple, tuple[type, type]] = {}


def kept_classes(kept: tuple[Optional[str], str]) -> tuple[type, type]:
    """The (_Loop, _LoopT) pair of KeptLoopBean classes for one (group-by property or None,
    aggregated property): a generated statement module binds them when its beans keep only
    those values."""
    pair = _KEPT.get(kept)
    if pair is None:
        if len(_KEPT) >= _MAX_CODE:
            _KEPT.clear()       # (a statement keeps the classes it bound)
        base = type("KeptLoopBean", (KeptLoopBean,), {"__slots__": (), "_kept": kept,
                                                     "__module__": __name__})
        typed = type("TypedKeptLoopBean", (base,), {"__slots__": (), "__module__": __name__,
                                                    "__doc__": TypedLoopBean.__doc__})
        pair = _KEPT[kept] = (base, typed)
    return pair


class FusedHandle(StreamHandle):
    """The filter-index handle of a fused statement instance: `on_event` is generated."""

    __slots__ = ("on_event", "run", "namespace", "shape", "event_type")


# The compiler's half (epl/compiler/fused: the shape analysis of a statement's text and the
# code generator), handed over by the Engine facade (engine/engine.py) so that the runtime
# does not import the compiler; without it no statement fuses.
_ANALYZE: Optional[Callable[[str], Any]] = None      # statement text -> Shape or None
_GENERATE: Optional[Callable[..., str]] = None       # epl.compiler.fused.source.generate


def use_compiler(analyze: Callable[[str], Any], generate: Callable[..., str]) -> None:
    """Set the shape analysis (statement text -> Shape or None) and the code generator."""
    global _ANALYZE, _GENERATE
    _ANALYZE, _GENERATE = analyze, generate


def cached_shape(cache: dict, analyze: Optional[Callable[[str], Any]], text: str) -> Any:
    """The shape `analyze` finds in a statement's text, once per text (None: not fusable)."""
    shape = cache.get(text, False)
    if shape is False:
        if analyze is None:
            return None
        try:
            shape = analyze(text)
        except Exception:       # anything the analysis does not understand keeps the chain
            shape = None
        if len(cache) >= _MAX_SHAPES:
            cache.clear()
        cache[text] = shape
    return shape


def _shape_of(text: str) -> Any:
    return cached_shape(_SHAPES, _ANALYZE, text)


def _classes(shape: Any, aggs: Any) -> Optional[list[str]]:
    """Per aggregation, the aggregator class name the generated code inlines ('' for one it
    calls); None when an entry is not what the shape says."""
    if len(aggs.entries) != len(shape.aggs):
        return None
    out = []
    for agg, entry, prop in zip(shape.aggs, aggs.entries, aggs.value_props):
        factory = entry.factory
        if getattr(factory, "shared", False) or getattr(factory, "takes_event", False):
            return None
        cls = type(factory.make())
        name = cls.__name__ if cls.__module__ == _BASIC else ""
        if agg.prop is None:
            if name != "CountAll":
                return None
        elif prop != agg.prop:
            return None
        out.append(name)
    return out


def _type_checks(et: Any) -> list[tuple[str, tuple]]:
    """(property, the types send's check passes as they are) for each property the event
    type's check tests: the same list its generated check function is made from."""
    from engine.contracts.event_types import _value_checks
    timestamps = {et.start_timestamp, et.end_timestamp} - {None}
    return [(name, tuple(allowed)) for name, allowed, _ in _value_checks(et.properties, timestamps)]


def bind_checks(ns: dict, checked: list[tuple[str, tuple]]) -> None:
    """The globals of the generated type check (codegen.check_lines): per checked property,
    `_ok<i>` (the types send's check passes as they are) and `_t<i>` (the one of them its
    values mostly have, tested first: float for a double, Decimal for a decimal, else the
    first; None, which no value's type is, when it is abstract, a Mapping say)."""
    for i, (_, allowed) in enumerate(checked):
        ns[f"_ok{i}"] = frozenset(allowed)
        ns[f"_t{i}"] = exact_type(allowed)


def exact_type(allowed: tuple) -> Any:
    """The one type of `allowed` (the types send's check passes as they are) that a
    property's values mostly have: float for a double, Decimal for a decimal, else the
    first; None, which no value's type is, when it is abstract (a Mapping, say)."""
    from decimal import Decimal
    if tuple(allowed) == (int, float):
        t: Any = float
    elif Decimal in allowed:
        t = Decimal
    else:
        t = allowed[0] if allowed else None
    return t if isinstance(t, type) and not getattr(t, "__abstractmethods__", None) else None


def fuse(inst: Any) -> None:
    """Give a statement's own instance a fused handle when its plan and runtime objects are
    of a fused shape; otherwise leave it as built."""
    from .resultset.aggregation_rows import AggregationRows
    from .resultset.processors import RowForAllProcessor, RowPerGroupProcessor
    from .statement import Statement
    engine, plan, stmt = inst.engine, inst.plan, inst.statement
    if not enabled(engine) or type(stmt) is not Statement or plan.join is not None \
            or plan.output is not None or inst.subqueries is not None or len(plan.streams) != 1 \
            or plan.passthrough or len(inst.handles) != 1 or type(inst.handles[0]) is not StreamHandle:
        return
    stream = plan.streams[0]
    et = stream.event_type
    if stream.pattern is not None or stream.named_window is not None or stream.contained is not None \
            or et.representation is not Representation.MAP or et.dynamic:
        return
    proc = inst.processor
    if type(proc) not in (RowPerGroupProcessor, RowForAllProcessor) or not proc.shaper.plain \
            or type(proc.aggs) is not AggregationRows \
            or not proc.aggs.plain or proc.select.passthrough or proc.select.wildcard_streams:
        return
    chain = inst.views[0]
    # a time or length batch or a time window: a fused sink (engine/fused_windows.py)
    windowed = len(chain) == 1 and type(chain[0]) in SINK_VIEWS
    if len(chain) > 1 or (chain and type(chain[0]) not in (LengthWindow, GroupWinView) and not windowed):
        return              # before parsing: most statements that do not fuse stop here
    if not windowed and (not proc.want_new or proc.want_old):
        return
    shape = _shape_of(stmt.text)
    if shape is None or shape.where != (plan.where is not None):
        return
    props = et.properties
    for p in (shape.group, shape.groupwin, *(a.prop for a in shape.aggs)):
        if p is not None and p not in props:
            return
    if (type(proc) is RowPerGroupProcessor) != (shape.group is not None):
        return
    if shape.group is not None and proc.key_prop != shape.group:
        return
    names = proc.select.names
    if len(names) != len(shape.columns) or len(proc.select.fns) != len(names):
        return
    for fn, (kind, what) in zip(proc.select.fns, shape.columns):
        if kind == "prop" and getattr(fn, "map_property", None) != what:
            return
    classes = _classes(shape, proc.aggs)
    if classes is None:
        return
    handle = inst.handles[0]
    ns = dict(_NAMESPACE)
    if shape.window is not None:
        if _GENERATE is None:
            return
        _bind(ns, plan, proc.aggs, stmt, et)
        checked = _type_checks(et)
        if not all(name.isidentifier() for name, _ in checked):
            checked = []
        bind_checks(ns, checked)
        fused = fuse_window(inst, shape, classes, _code_for, _GENERATE, FusedHandle, ns,
                            [c[0] for c in checked], SingleStreamSink, StatementContext)
        if fused is not None:
            inst.handles[0] = fused
        return
    if shape.length is None:
        if chain:
            return
    elif shape.groupwin is None:
        if len(chain) != 1 or type(chain[0]) is not LengthWindow or chain[0]._size != shape.length:
            return
        ns["_events"] = chain[0]._events
    else:
        gw = chain[0] if len(chain) == 1 else None
        if type(gw) is not GroupWinView or gw._columns or gw._factories != (LengthWindowFactory(shape.length),):
            return
        # _full: the groups whose window is full (once full, a length window stays full)
        ns["_gw"], ns["_gwgroups"], ns["_wins"], ns["_full"] = gw, gw._groups, {}, {}
    if handle.target is not (chain[0] if chain else handle.target):
        return
    generate = _GENERATE
    if generate is None:
        return
    aggs = proc.aggs
    checked = _type_checks(et)
    if not all(name.isidentifier() for name, _ in checked):
        checked = []        # (`count(*)` of an insert-into type): the loop calls the check
    src = generate(shape, classes, names, aggs.reclaim, stmt._listeners_only, [c[0] for c in checked],
                   exact=[exact_type(c[1]) for c in checked])
    bind_checks(ns, checked)
    code = _code_for(src)
    _bind(ns, plan, aggs, stmt, et)
    exec(code, ns)
    fused = FusedHandle(handle.target, stmt, handle.stream_index)
    fused.on_event = ns["on_event"]
    fused.run = ns["run"]
    fused.namespace = ns
    fused.shape = shape
    fused.event_type = et       # the batch loop's inline check is this type's, not a subtype's
    inst.handles[0] = fused


def _code_for(src: str) -> Any:
    """The compiled code of a generated source: one compile per shape."""
    code = _CODE.get(src)
    if code is None:
        if len(_CODE) >= _MAX_CODE:
            _CODE.clear()
        code = _CODE[src] = compile(src, "<fused statement>", "exec")
    return code


def _bind(ns: dict, plan: Any, aggs: Any, stmt: Any, et: Any) -> None:
    """The globals every generated statement module reads."""
    ns.update(_Bean=EventBean, _new_bean=EventBean.__new__, _out_type=plan.out_type, _where=plan.where, _groups=aggs.groups,
              _refc=aggs.refcounts, _new_row=aggs.new_row, _single=aggs.ungrouped(), _stmt=stmt,
              _failed=statement_failed, _et=et, _route=None, _roots=None, _root=None, _h=None,
              _epoch=EPOCH, _late_sub=late_subscriber,
              _Loop=LoopBean, _LoopT=TypedLoopBean, _Spent=SpentBean, _rc=sys.getrefcount,
              _kept_classes=kept_classes)


# send_many's other batch loops, tried when no fused statement is alone on the type:
# (engine, et, route, root, events, i, n, check, find, type_name) -> where they stopped
# (engine/contexts/keyed_fused.py adds its own)
BATCH_RUNNERS: list[Callable[..., int]] = []
_WATCHED: "weakref.WeakSet[Any]" = weakref.WeakSet()   # type registries that bump the counter


def run_batch(engine: "Runtime", et: Any, events: Any, i: int, n: int, check: Any, find: Any,
              type_name: str, times: Any = None) -> int:
    """send_many's hook: when the only filter on `et`'s events is a fused statement's
    unconditional one and nothing waits for dispatch, its generated loop takes events i..;
    returns where it stopped (i when it did not apply). With `times` (send_many's, event i's
    time step already made) only a window statement's `run_timed` applies
    (engine/fused_windows.py): it steps time itself and returns j where event j's step is
    still to make, ~j where it is made."""
    if engine.pending:
        return i
    types = engine.types
    if types not in _WATCHED:
        # the loops look the type up again only when the change counter moves
        types.on_removed(bump)
        _WATCHED.add(types)
    route = engine.filters.router(et)
    roots = route.roots
    if len(roots) != 1:
        return i
    root = roots[0]
    h = root.one
    fused = type(h) is FusedHandle and h.event_type is et
    if times is not None:
        # a window sink's timed loop (sink_loops.py `run_timed`): it steps time itself
        ns = h.on_event.__globals__ if fused else {}
        loop, extra = ns.get("run_timed"), (times,)
        if loop is None:
            return i
    elif not fused:
        for runner in BATCH_RUNNERS:    # e.g. keyed-context partitions of a fused statement
            j = runner(engine, et, route, root, events, i, n, check, find, type_name)
            if j != i:
                return j
        return i
    else:
        ns = h.run.__globals__      # (after a checkpoint restore, not necessarily h.namespace)
        loop, extra = h.run, ()
    ns["_route"], ns["_roots"], ns["_root"], ns["_h"] = route, roots, root, h
    return loop(engine, events, i, n, check, find, type_name, *extra)


def is_fused(statement: Any) -> bool:
    """Whether a started statement runs as fused code (for debugging and tests)."""
    return any(type(h) is FusedHandle for inst in statement._instances for h in getattr(inst, "handles", ()))
