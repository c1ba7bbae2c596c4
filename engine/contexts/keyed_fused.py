"""Fused statements inside a keyed context: a statement of a fused shape (engine/fused.py)
declared with `context C` over a one-level keyed context runs, in every partition, one
generated function on that partition's window and aggregation objects (the select instance
of the general chain, built as there: iteration, stop, relocation, checkpoints and
termination see the same objects). Each partition's filter handle is that function with the
partition's state bound first (a C-level partial: no frame of its own), registered with the
partition's narrowed filter as the general chain's handle is: routing stays the filter
index's lookup by key, and the order in which statements see an event (tree order, Esper's),
the creating event's delivery to the new partition first, @priority and @drop are the general
chain's.

Off with the fused statements' switch (`engine.fusion = False`, EPL_FUSION=0)."""
from __future__ import annotations

import sys
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.contracts.event_types import Representation
from engine.contracts.epoch import EPOCH
from engine.faults import statement_failed
from engine.instance import SelectInstance, StreamHandle
from filterindex.spec import FilterOp

from .keyed import KeyedController, KeyedSpec
from .partition import CreateHandle, Holder, Partition
from .statements import PartitionContext, PartitionInstance

if TYPE_CHECKING:
    from engine.statement import Statement
    from engine.contracts.runtime import Runtime

# the compiler's half (epl/compiler/fused/partitioned.py), handed over by the Engine facade
_ANALYZE: Optional[Callable[[str], Any]] = None       # statement text -> Shape or None
_GENERATE: Optional[Callable[..., str]] = None
_STATE: Optional[Callable[[Any], tuple]] = None       # Shape -> the state tuple's names
_SHAPES: dict[str, Any] = {}
_CODE: dict[str, Any] = {}
_MAX_CODE = 1024


def use_compiler(analyze: Callable[[str], Any], generate: Callable[..., str],
                 state_names: Callable[[Any], tuple]) -> None:
    """Set the shape analysis of context statements, the generator and the state layout."""
    global _ANALYZE, _GENERATE, _STATE
    _ANALYZE, _GENERATE, _STATE = analyze, generate, state_names
    from engine.fused import BATCH_RUNNERS
    if run_batch not in BATCH_RUNNERS:
        BATCH_RUNNERS.append(run_batch)
    import engine.contexts.partition as partition_module
    partition_module.FUSION = plan_fusion


def _shape_of(text: str) -> Any:
    from engine.fused import cached_shape
    return cached_shape(_SHAPES, _ANALYZE, text)


class FusedPartitionHandle(StreamHandle):
    """A partition's filter handle: `on_event(bean)` is the statement's generated function
    with the partition's state bound."""

    __slots__ = ("on_event",)


class KeyedFusion:
    """One context statement fused over its partitions: the generated function and the
    layout of a partition's state."""

    __slots__ = ("statement", "run", "loop", "event_type", "layout", "states")

    def __init__(self, statement: "Statement", run: Callable[..., None],
                 loop: Optional[Callable[..., int]], event_type: Any, layout: tuple) -> None:
        self.statement = statement
        self.run = run
        self.loop = loop            # send_many's loop (None: the key is not a plain property)
        self.event_type = event_type
        self.layout = layout
        self.states: dict[Any, tuple] = {}      # partition key -> state, of started partitions

    def instance(self, engine: "Runtime", statement: "Statement", plan: Any, partition: Partition,
                 holder: Holder) -> "FusedPartitionInstance":
        """The statement's instance in a new partition."""
        return FusedPartitionInstance(engine, statement, plan, partition, holder, self)

    def state_of(self, inst: SelectInstance, props: dict) -> tuple:
        """A partition's state tuple: the objects its fused steps work on."""
        out: list = []
        aggs = inst.processor.aggs
        for name in self.layout:
            if name == "_props":
                out.append(props)
            elif name == "_events":
                out.append(inst.views[0][0]._events)
            elif name == "_gw":
                out.append(inst.views[0][0])
            elif name == "_gwgroups":
                out.append(inst.views[0][0]._groups)
            elif name == "_wins":
                out.append({})
            elif name == "_groups":
                out.append(aggs.groups)
            elif name == "_refc":
                out.append(aggs.refcounts)
            elif name == "_new_row":
                out.append(aggs.new_row)
            elif name == "_single":
                out.append(aggs.ungrouped())
            else:   # a layout this runtime does not know: never fused (see plan_fusion)
                raise KeyError(name)
        return tuple(out)


class FusedPartitionInstance(PartitionInstance):
    """A fused statement's instance in one partition: the general chain's, with the fused
    function as its filter handle."""

    __slots__ = ("fusion", "key", "state")

    def __init__(self, engine: "Runtime", statement: "Statement", plan: Any, partition: Partition,
                 holder: Holder, fusion: KeyedFusion) -> None:
        props = partition.props
        holder.properties = props
        ctx = PartitionContext(engine, statement, statement._order_key, holder, props)
        inst = SelectInstance(engine, statement, plan, statement._order_key, bindings=partition, ctx=ctx)
        inst.pattern_filter_addendum = partition.narrow
        inner = inst.handles[0]
        handle = FusedPartitionHandle(inner.target, statement, inner.stream_index)
        state = fusion.state_of(inst, props)
        handle.on_event = partial(fusion.run, state)
        inst.handles[0] = handle
        self.inst = inst
        self.holder = holder
        self.props = props
        self.fusion = fusion
        self.key = partition.key
        self.state = state

    def start(self) -> None:
        PartitionInstance.start(self)
        self.fusion.states[self.key] = self.state

    def stop(self) -> None:
        states = self.fusion.states
        if states.get(self.key) is self.state:
            del states[self.key]
        self.inst.stop()


_NAMESPACE = {"__builtins__": {}, "type": type, "float": float, "int": int, "dict": dict,
              "len": len, "range": range, "Exception": Exception, "KeyError": KeyError}


def plan_fusion(runtime: Any, statement: "Statement", plan: Any) -> Optional[KeyedFusion]:
    """A KeyedFusion for a context statement whose partitions can run fused, else None."""
    from engine.aggregation.basic import IntSum32, IntSum64
    from engine.fused import _classes, enabled
    from engine.resultset.aggregation_rows import AggregationRows
    from engine.resultset.processors import AggregatedUngroupedProcessor, RowForAllProcessor, RowPerGroupProcessor
    from engine.statement import Statement
    from views.groupwin import GroupWinView
    from views.length import LengthWindow, LengthWindowFactory
    definition = runtime.definition
    engine = runtime.engine
    if _GENERATE is None or not enabled(engine) or type(statement) is not Statement \
            or len(definition.levels) != 1 or type(definition.levels[0].spec) is not KeyedSpec:
        return None
    if plan.infra_streams or plan.into_infra is not None or plan.infra_insert is not None:
        return None
    inner = plan.partition_plan
    extra = getattr(inner, "extra", {}) or {}
    if inner.join is not None or inner.output is not None or len(inner.streams) != 1 \
            or inner.passthrough or extra.get("subqueries") or extra.get("prev_holders"):
        return None
    stream = inner.streams[0]
    et = stream.event_type
    if stream.pattern is not None or stream.named_window is not None or stream.contained is not None \
            or et.representation is not Representation.MAP or et.dynamic:
        return None
    cshape = _shape_of(statement.text)
    if cshape is None:
        return None
    shape = cshape.base
    if shape.where != (inner.where is not None):
        return None
    props = et.properties
    for p in (shape.group, shape.groupwin, *(a.prop for a in shape.aggs),
              *(what for kind, what in cshape.columns if kind == "event")):
        if p is not None and p not in props:
            return None
    # a probe instance (never started) to check the runtime objects the plan builds
    probe = SelectInstance(engine, statement, inner, statement._order_key,
                           ctx=PartitionContext(engine, statement, statement._order_key, Holder(), {}))
    proc = probe.processor
    kinds = (AggregatedUngroupedProcessor,) if cshape.per_event else (RowPerGroupProcessor, RowForAllProcessor)
    if type(proc) not in kinds or not proc.shaper.plain \
            or not proc.want_new or proc.want_old or type(proc.aggs) is not AggregationRows \
            or not proc.aggs.plain or proc.select.passthrough or proc.select.wildcard_streams:
        return None
    if len(probe.handles) != 1 or type(probe.handles[0]) is not StreamHandle:
        return None
    chain = probe.views[0]
    if (type(proc) is RowPerGroupProcessor) != (shape.group is not None):
        return None
    if shape.group is not None and proc.key_prop != shape.group:
        return None
    names = proc.select.names
    if len(names) != len(cshape.columns) or len(proc.select.fns) != len(names):
        return None
    for fn, (kind, what) in zip(proc.select.fns, cshape.columns):
        if kind != "agg" and getattr(fn, "map_property", None) != what:
            return None
    classes = _classes(shape, proc.aggs)
    if classes is None:
        return None
    if shape.length is None:
        if chain:
            return None
    elif shape.groupwin is None:
        if len(chain) != 1 or type(chain[0]) is not LengthWindow or chain[0]._size != shape.length:
            return None
    else:
        gw = chain[0] if len(chain) == 1 else None
        if type(gw) is not GroupWinView or gw._columns or gw._factories != (LengthWindowFactory(shape.length),):
            return None
    if probe.handles[0].target is not (chain[0] if chain else probe.handles[0].target):
        return None
    layout = tuple(_STATE(cshape)) if _STATE is not None else ()
    known = {"_props", "_events", "_gw", "_gwgroups", "_wins", "_groups", "_refc", "_new_row", "_single"}
    if not layout or not set(layout) <= known:
        return None
    from engine.fused import LoopBean, SpentBean, _type_checks, bind_checks, kept_classes
    from engine.statement import late_subscriber
    item = definition.levels[0].spec.item_for(et)
    key = None
    if item is not None and len(item.lookups) == 1 and item.lookups[0].isidentifier() \
            and item.lookups[0] in props:
        key = item.lookups[0]
    checked = _type_checks(et)
    src = _GENERATE(cshape, classes, names, proc.aggs.reclaim, key, [c[0] for c in checked])
    code = _CODE.get(src)
    if code is None:
        if len(_CODE) >= _MAX_CODE:
            _CODE.clear()
        code = _CODE[src] = compile(src, "<fused context statement>", "exec")
    ns = dict(_NAMESPACE)
    ns.update(_Bean=EventBean, _new_bean=EventBean.__new__, _out_type=inner.out_type, _where=inner.where,
              _stmt=statement, _holder=plan.holder, _failed=statement_failed,
              _wrap32=IntSum32.wrap, _wrap64=IntSum64.wrap, _epoch=EPOCH,
              _late_sub=late_subscriber, _Loop=LoopBean, _Spent=SpentBean, _rc=sys.getrefcount, _et=et,
              _kept_classes=kept_classes)
    bind_checks(ns, checked)
    exec(code, ns)
    return KeyedFusion(statement, ns["on_event"], ns["run"], et, layout)


def _solo(et: Any, root: Any) -> Optional[tuple]:
    """(creator handle, fusion) when the only filters on `et` (a tree `root`
    of its own, no supertype's) are one keyed context's creating filter (only new keys, no
    filter of its own) and the unfiltered partitions of its one statement, fused; else None.
    Then an event of an existing key reaches only its partition's handle and one of a new
    key only the creator, as the batch loop routes them."""
    if root.handles or len(root.indexes) != 2:
        return None
    bidx = eidx = None
    for idx in root.indexes:
        if idx.op is FilterOp.BOOL_EXPR:
            bidx = idx
        elif idx.op is FilterOp.EQ:
            eidx = idx
    if bidx is None or eidx is None or len(bidx.entries) != 1:
        return None
    node = next(iter(bidx.entries.values()))
    if node.indexes or len(node.handles) != 1:
        return None
    ch = next(iter(node.handles.values()))
    if type(ch) is not CreateHandle or type(ch.controller) is not KeyedController:
        return None
    ctl = ch.controller
    rt = ctl.runtime
    if ctl.parent is not None or ctl.spec.terminated is not None or len(rt.statements) != 1 \
            or len(rt.fused) != 1:
        return None
    fusion = next(iter(rt.fused.values()))
    if fusion.loop is None or fusion.event_type is not et:
        return None
    item = ch.arg.item
    name = item.lookups[0]
    if item.event_type is not et or len(item.lookups) != 1 or eidx.lookup != name \
            or not name.isidentifier() or name not in et.properties:
        return None
    stmt = fusion.statement
    if len(eidx.entries) != len(fusion.states):
        return None
    for node in eidx.entries.values():
        if node.indexes or len(node.handles) != 1:
            return None
        h = next(iter(node.handles.values()))
        if type(h) is not FusedPartitionHandle or h.statement is not stmt:
            return None
    return ch, fusion


def run_batch(engine: "Runtime", et: Any, route: Any, root: Any, events: Any, i: int, n: int, check: Any,
              find: Any, type_name: str) -> int:
    """send_many's loop over events i.. of `et` when `_solo` holds: an event of an existing
    key runs its partition's fused steps (rows to a lone two-argument listener directly,
    as Statement._dispatch would), one of a new key goes to the creator, as routing would
    hand it; what they queued is drained after each event. Returns where it stopped: after
    an event whose processing changed the filters or the statement's listeners (the caller
    looks again), or at an event that is not a dict."""
    if len(route.roots) != 1 or not root.indexes or (n - i) * 4 < len(root.indexes[-1].entries):
        return i        # (a short batch: checking every partition would cost more than it saves)
    solo = _solo(et, root)
    if solo is None:
        return i
    ch, fusion = solo
    return fusion.loop(engine, events, i, n, check, find, type_name, fusion.states, [ch], engine.filters,
                       route, et)
