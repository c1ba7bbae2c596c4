"""Fused statements inside a keyed context: a statement of a fused shape (engine/fused.py)
declared with `context C` over a one-level keyed context gets ONE filter handle, on its
own (un-narrowed) filter, whose generated `on_event` finds the event's partition by key in a
dict and runs the fused steps on that partition's window and aggregation objects. Its
partitions register no filter: a partition instance here (FusedPartitionInstance) is the
statement's select instance built as in the general chain (iteration, stop, relocation,
checkpoints and termination see the same objects) plus its entry in that dict.

The event that creates a partition reaches the new partition's statements first, before any
other statement, as in the general chain and in Esper: the controller hands it to them
(`KeyedFusion.deliver_created`) and the statement's handle skips it when it comes by.

Off with the fused statements' switch (`engine.fusion = False`, EPL_FUSION=0)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.contracts.event_types import Representation
from engine.instance import SelectInstance, StreamHandle
from filterindex.spec import FilterSpec

from .keyed import KeyedSpec, spec_matches
from .partition import Holder, Partition
from .statements import PartitionContext, PartitionInstance

if TYPE_CHECKING:
    from engine.statement import Statement
    from engine.contracts.runtime import Runtime

# the compiler's half (epl/compiler/fused/partitioned.py), handed over by the Engine facade
_ANALYZE: Optional[Callable[[str], Any]] = None       # statement text -> Shape or None
_GENERATE: Optional[Callable[..., str]] = None
_STATE: Optional[Callable[[Any], tuple]] = None       # Shape -> the state tuple's names
_SHAPES: dict[str, Any] = {}
_MAX_SHAPES = 4096
_CODE: dict[str, Any] = {}
_MAX_CODE = 1024


def use_compiler(analyze: Callable[[str], Any], generate: Callable[..., str],
                 state_names: Callable[[Any], tuple]) -> None:
    """Set the shape analysis of context statements, the generator and the state layout."""
    global _ANALYZE, _GENERATE, _STATE
    _ANALYZE, _GENERATE, _STATE = analyze, generate, state_names


def _shape_of(text: str) -> Any:
    shape = _SHAPES.get(text, False)
    if shape is False:
        if _ANALYZE is None:
            return None
        try:
            shape = _ANALYZE(text)
        except Exception:       # anything the analysis does not understand keeps the chain
            shape = None
        if len(_SHAPES) >= _MAX_SHAPES:
            _SHAPES.clear()
        _SHAPES[text] = shape
    return shape


class KeyedFusionHandle(StreamHandle):
    """The statement's filter handle over all its partitions: `on_event` is generated."""

    __slots__ = ("on_event", "fusion")


class KeyedFusion:
    """One context statement fused over its partitions in one context runtime: `parts`
    (partition key -> state tuple), the handle and its registration."""

    __slots__ = ("statement", "parts", "handle", "registration", "spec", "key_of", "deliver",
                 "created", "layout", "order")

    def __init__(self, statement: "Statement", spec: FilterSpec, key_of: Callable[[Any], Any],
                 layout: tuple) -> None:
        self.statement = statement
        self.parts: dict[Any, tuple] = {}
        self.spec = spec
        self.key_of = key_of
        self.layout = layout
        self.created: list = [None]
        self.handle: Any = None
        self.registration: Any = None
        self.deliver: Any = None
        self.order = statement._match_key

    def start(self, runtime: Any) -> None:
        self.registration = runtime.add_filter(self.spec, self.handle)

    def stop(self) -> None:
        reg, self.registration = self.registration, None
        if reg is not None:
            reg.stop()

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

    def direct(self, bean: EventBean, key: Any) -> Optional["_Direct"]:
        """The new partition's delivery of the event that created it, when the statement's
        filter takes the event and it is this partition's (None otherwise)."""
        if not spec_matches(self.spec, bean):
            return None
        try:
            st = self.parts.get(self.key_of(bean.underlying))
        except Exception:
            return None
        if st is None or st is not self.parts.get(key):
            return None
        return _Direct(self, st)


class _Direct:
    """A fused statement's delivery of a partition's creating event, sorted among the
    handles the new partition registered (by the statement's order)."""

    __slots__ = ("fusion", "state", "order")

    def __init__(self, fusion: KeyedFusion, state: tuple) -> None:
        self.fusion = fusion
        self.state = state
        self.order = fusion.order

    def on_event(self, bean: EventBean) -> None:
        f = self.fusion
        f.created[0] = bean
        f.deliver(bean, self.state)


class FusedPartitionInstance(PartitionInstance):
    """A fused statement's instance in one partition: the select instance of the general
    chain without filter registrations; starting it enters its state in the statement's
    `parts`, stopping it takes it out."""

    __slots__ = ("fusion", "key", "state")

    def __init__(self, engine: "Runtime", statement: "Statement", plan: Any, partition: Partition,
                 holder: Holder, fusion: KeyedFusion) -> None:
        props = partition.props
        holder.properties = props
        ctx = PartitionContext(engine, statement, statement._order_key, holder, props)
        self.inst = SelectInstance(engine, statement, plan, statement._order_key,
                                   bindings=partition, ctx=ctx)
        self.holder = holder
        self.props = props
        self.fusion = fusion
        self.key = partition.key
        self.state = fusion.state_of(self.inst, props)

    def start(self) -> None:
        self.fusion.parts[self.key] = self.state

    def stop(self) -> None:
        parts = self.fusion.parts
        if parts.get(self.key) is self.state:
            del parts[self.key]
        self.inst.stop()


_NAMESPACE = {"__builtins__": {}, "type": type, "float": float, "int": int, "dict": dict,
              "len": len, "range": range, "Exception": Exception}


def plan_fusion(runtime: Any, statement: "Statement", plan: Any) -> Optional[KeyedFusion]:
    """A KeyedFusion for a context statement whose partitions can run fused, else None."""
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
    if inner.make_join is not None or inner.make_output is not None or len(inner.streams) != 1 \
            or inner.passthrough or extra.get("subqueries") or extra.get("prev_holders"):
        return None
    stream = inner.streams[0]
    et = stream.event_type
    if stream.pattern is not None or stream.named_window is not None or stream.contained is not None \
            or et.representation is not Representation.MAP or et.dynamic:
        return None
    template = plan.inner.streams[0].filter
    if getattr(template, "needs_bindings", True) and type(template).__name__ != "UnfilteredTemplate":
        return None         # a filter reading context properties: one per partition
    item = definition.levels[0].spec.item_for(et)
    if item is None:
        return None         # a type the context does not list: every partition sees it
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
    # the partition key of the statement's events: as the general chain's narrowed filter reads it
    if len(item.lookups) == 1:
        getter = item.getters[0]
        key_prop = item.lookups[0] if item.lookups[0].isidentifier() and item.lookups[0] in props else None
    else:
        getters = item.getters

        def getter(u: Any, _g: tuple = getters) -> Any:
            return tuple(g(u) for g in _g)
        key_prop = None
    src = _GENERATE(cshape, classes, names, proc.aggs.reclaim, key_prop)
    code = _CODE.get(src)
    if code is None:
        if len(_CODE) >= _MAX_CODE:
            _CODE.clear()
        code = _CODE[src] = compile(src, "<fused context statement>", "exec")
    fusion = KeyedFusion(statement, template.bind(None), getter, layout)
    ns = dict(_NAMESPACE)
    ns.update(_Bean=EventBean, _new_bean=EventBean.__new__, _out_type=inner.out_type, _where=inner.where,
              _stmt=statement, _parts=fusion.parts, _created=fusion.created, _key=getter,
              _holder=plan.holder)
    exec(code, ns)
    handle = KeyedFusionHandle(None, statement, stream.index)
    handle.on_event = ns["on_event"]
    handle.fusion = fusion
    fusion.handle = handle
    fusion.deliver = ns["deliver"]
    return fusion
