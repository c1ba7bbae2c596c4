"""Keyed segmented context: `partition by p [and q] from A [as a], r from B ... [initiated by
A(...) as x, ...] [terminated by <condition>]`: a partition per distinct key, created by the
first event carrying it (or by an initiating event), ended by the terminating condition.

Inside a partition every stream filter on a listed type gets `p = key` added; ending a
partition removes its statements' filters, views and schedules with it. A terminating event
of a listed type ends the partition of its own key (one lookup by key); other conditions
(patterns, time, other event types) are registered per partition."""
from __future__ import annotations

import uuid
from typing import Any, Callable, Optional

from engine.contracts.bean import EventBean
from engine.fastpath_switch import fast_paths
from epl.plans.contexts import Creator, KeyedItemSpec, KeyedSpec
from filterindex.semantics import param_matches
from filterindex.spec import FilterOp, FilterParam, FilterSpec

from .conditions import arm
from .partition import CreateHandle, Partition, PartitioningController, first_order, narrow_by_parent


def spec_matches(spec: FilterSpec, bean: EventBean) -> bool:
    """Whether an event satisfies a filter spec (checked directly, not through the index)."""
    if not bean.event_type.is_subtype_of(spec.event_type):
        return False
    u = bean.underlying
    for path in spec.paths:
        for p in path:
            if p.op is FilterOp.BOOL_EXPR:
                if not p.value(bean):
                    break
            else:
                g = p.getter or bean.event_type.getter(p.lookup)
                if not param_matches(p.op, p.value, g(u)):
                    break
        else:
            return True
    return False


class KeyedController(PartitioningController):
    def __init__(self, spec: KeyedSpec, runtime: Any, parent: Optional[Partition], level: int) -> None:
        PartitioningController.__init__(self, spec, runtime, parent, level)
        self._params: dict[Any, Optional[tuple]] = {}
        self._end_spec: Optional[FilterSpec] = None

    def start(self) -> None:
        runtime = self.runtime
        spec = self.spec
        only_new = fast_paths(runtime.engine)
        for c in spec.creators:
            fs = narrow_by_parent(self.parent, c.template.bind(None))
            if only_new:
                fs = _only_new_keys(fs, self, c.item)
            self.registrations.append(runtime.add_filter(fs, CreateHandle(self, c)))
        if spec.terminated_item is not None:
            self._end_spec = narrow_by_parent(self.parent, spec.terminated.template.bind(None))
            self.registrations.append(runtime.add_filter(self._end_spec, _End(self, spec.terminated_item)))

    # -- partitions -----------------------------------------------------------------------------
    def create(self, creator: Creator, bean: EventBean) -> None:
        key = creator.item.key_of(bean)
        if key in self.partitions:
            return
        if self._end_spec is not None and spec_matches(self._end_spec, bean):
            return          # a terminating event does not start a partition
        runtime = self.runtime
        cond = self.spec.terminated
        # a context of one fused statement (keyed_fused.py) registers only that statement's
        # handle for a new partition: the creating event goes to it directly, without
        # matching every filter before and after (unless an end condition registers too)
        direct = runtime.single_fused() and (cond is None or self.spec.terminated_item is not None)
        before = None if direct else runtime.matched(bean)
        values = key if len(creator.item.lookups) > 1 else (key,)
        props: dict[str, Any] = {f"key{i + 1}": v for i, v in enumerate(values)}
        if creator.alias:
            props[creator.alias] = bean
        for it in self.spec.items:
            if it.alias and bean.event_type.is_subtype_of(it.event_type):
                props.setdefault(it.alias, bean)
        p = runtime.new_partition(self, self.level, props, self.parent, self._narrower(values), key)
        self.partitions[key] = p
        if cond is not None and self.spec.terminated_item is None:
            token = arm(cond, runtime, p.narrow, None, lambda props, events, _p=p: self.end(_p), False)
            p.cleanup.append(token.stop)
        if before is None:
            # the one fused statement's handle, when its (narrowed) filter takes the event
            for _stmt, inst in p.instances:
                select = inst.inst
                for reg, h in zip(select.registrations, select.handles):
                    if spec_matches(reg.spec, bean):
                        h.on_event(bean)
        else:
            runtime.deliver_new(bean, before)

    def end(self, p: Partition) -> None:
        if self.partitions.get(p.key) is p:
            del self.partitions[p.key]
        self.runtime.end_partition(p)

    def _narrower(self, values: tuple) -> Callable[[FilterSpec], FilterSpec]:
        key = values[0] if len(values) == 1 else values
        op = FilterOp.IS if key is None else FilterOp.EQ

        def narrow(spec: FilterSpec) -> FilterSpec:
            lookup = self._lookup_for(spec.event_type)
            if lookup is None:
                return spec
            extra = (FilterParam(lookup[0], op, key, lookup[1]),)
            return FilterSpec(spec.event_type, tuple(path + extra for path in spec.paths))
        return narrow

    def _lookup_for(self, event_type: Any) -> Optional[tuple]:
        """The indexed value a partition's key is compared with: the property itself, or
        for several keys their tuple (one index entry per partition either way)."""
        try:
            return self._params[event_type]
        except KeyError:
            item = self.spec.item_for(event_type)
            if item is None:
                lookup = None
            elif len(item.lookups) == 1:
                lookup = (item.lookups[0], item.getters[0])
            else:
                getters = item.getters
                lookup = (f"({','.join(item.lookups)})",
                          lambda u, _g=getters: tuple(g(u) for g in _g))
            self._params[event_type] = lookup
            return lookup


def _only_new_keys(spec: FilterSpec, controller: KeyedController, item: KeyedItemSpec) -> FilterSpec:
    """The creating filter narrowed to keys without a partition (a predicate leaf read at
    routing time): an event of an existing partition then matches only its statements'
    filters, one handle where it was two (the creator's call ended at `key in partitions`
    anyway). Off with the fast paths (engine.fastpath_switch)."""
    key_of = item.key_of
    et = item.event_type
    if len(item.lookups) == 1 and et.representation.name == "MAP" and item.lookups[0] in et.properties:
        name = item.lookups[0]

        def new_key(bean: EventBean, _c=controller, _n=name) -> bool:
            try:
                return bean.underlying.get(_n) not in _c.partitions     # key_of, inlined
            except Exception:   # an unhashable key: the creator reports it, as before
                return True
    else:
        def new_key(bean: EventBean, _c=controller, _k=key_of) -> bool:
            try:
                return _k(bean) not in _c.partitions
            except Exception:   # an unhashable key: the creator reports it, as before
                return True
    # identity of the leaf: unique, also across snapshots restored in another process
    param = FilterParam("", FilterOp.BOOL_EXPR, new_key, key=f"keyed-new-key:{uuid.uuid4().hex}")
    return FilterSpec(spec.event_type, tuple(path + (param,) for path in spec.paths))


class _End:
    __slots__ = ("controller", "item", "order", "drop", "statement")

    def __init__(self, controller: KeyedController, item: KeyedItemSpec) -> None:
        self.controller = controller
        self.item = item
        # before every statement: the terminating event is not the partition's (Esper)
        self.order = first_order()
        self.drop = False
        self.statement = None

    def on_event(self, bean: EventBean) -> None:
        c = self.controller
        p = c.partitions.get(self.item.key_of(bean))
        if p is not None:
            c.end(p)
