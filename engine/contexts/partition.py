"""The partition manager of one context: its controllers create and end partitions; every
statement of the context gets one statement instance (the statement's own plan, instantiated
again) per leaf partition, created and released with it.

A partition narrows the filters of what runs inside it (a keyed partition adds `key = value`
to its statements' stream filters, so routing an event to its partition is a filter-index
lookup). When an event starts a partition, the new partition's statements also process that
event: the handles its instances registered are matched against it right away, since the
filter index had already been consulted for it."""
from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence

from engine.contracts.bean import EventBean
from engine.instance import move_filter
from epl.plans.contexts import Holder  # noqa: F401  (the compiler's cell, importable from here)
from filterindex.spec import FilterSpec

if TYPE_CHECKING:
    from engine.statement import Statement
    from engine.contracts.runtime import Runtime

Narrow = Callable[[FilterSpec], FilterSpec]
# (spec, context runtime, parent partition or None, level) -> controller
MakeController = Callable[[Any, "ContextRuntime", Optional["Partition"], int], Any]

# handles of context controllers run before (start conditions) or after (end conditions) the
# statements' own handles for the same event
FIRST = float("-inf")
LAST = float("inf")
_orders = itertools.count()


# statements fused in their partitions: keyed_fused.py installs the plan of a statement's
# fusion in a runtime (None: the statement keeps the general chain); a fusion makes the
# statement's partition instances itself (a restored engine has no installed hook)
FUSION: Optional[Callable[..., Any]] = None


def first_order() -> tuple:
    return (FIRST, next(_orders))


def last_order() -> tuple:
    return (LAST, next(_orders))


class CreateHandle:
    """The filter handle of a partitioning condition: an event it matches asks the
    controller to create (or find) the partition for `arg` (a creator, a hash bucket). It
    sorts before every statement, so the partition exists before statements see the event."""

    __slots__ = ("controller", "arg", "order", "drop", "statement")

    def __init__(self, controller: Any, arg: Any) -> None:
        self.controller = controller
        self.arg = arg
        self.order = first_order()
        self.drop = False
        self.statement = None

    def on_event(self, bean: Any) -> None:
        self.controller.create(self.arg, bean)


class Partition:
    """One context partition. `props` are its own context properties (`context.key1`); a
    nested context's leaf combines the props of every level. `cleanup` releases what the
    controller registered for it (end conditions)."""

    __slots__ = ("id", "level", "props", "parent", "narrower", "instances", "cleanup", "child",
                 "key", "ended", "controller")

    def __init__(self, pid: int, level: int, props: dict, parent: Optional["Partition"],
                 narrower: Optional[Narrow], key: Any = None) -> None:
        self.id = pid
        self.level = level
        self.props = props
        self.parent = parent
        self.narrower = narrower
        self.instances: list[tuple["Statement", Any]] = []
        self.cleanup: list[Callable[[], None]] = []
        self.child: Any = None
        self.key = key
        self.ended = False
        self.controller: Any = None

    def narrow(self, spec: FilterSpec) -> FilterSpec:
        p: Optional[Partition] = self
        while p is not None:
            if p.narrower is not None:
                spec = p.narrower(spec)
            p = p.parent
        return spec

    def __repr__(self) -> str:
        return f"Partition(id={self.id}, props={self.props!r})"


def narrow_by_parent(parent: Optional[Partition], spec: FilterSpec) -> FilterSpec:
    return parent.narrow(spec) if parent is not None else spec


class Registration:
    """A filter a context controller or condition registered through its ContextRuntime: the
    runtime can move it to another filter index (an isolated service's) with its holder
    none the wiser. `stop()` removes it."""

    __slots__ = ("runtime", "token")

    def __init__(self, runtime: "ContextRuntime", token: Any) -> None:
        self.runtime = runtime
        self.token = token

    def stop(self) -> None:
        rt = self.runtime
        if self in rt._regs:
            del rt._regs[self]
            rt.engine.filters.remove(self.token)


class Timer:
    """A callback a context condition scheduled through its ContextRuntime (in a slot of its
    own, so that the runtime can move it); `stop()` cancels it."""

    __slots__ = ("runtime", "slot", "handle")

    def __init__(self, runtime: "ContextRuntime", slot: tuple) -> None:
        self.runtime = runtime
        self.slot = slot
        self.handle: Any = None

    def stop(self) -> None:
        rt = self.runtime
        if self.slot in rt._slots:       # not fired yet
            del rt._slots[self.slot]
            rt.engine.scheduler.cancel(self.handle)


class PartitioningController:
    """What the controllers that create partitions from filters share (hashed and keyed
    contexts): the registrations of those filters and the partitions by key; stopping removes
    the filters first, so that no event starts a partition while the others end."""

    def __init__(self, spec: Any, runtime: "ContextRuntime", parent: Optional[Partition],
                 level: int) -> None:
        self.spec = spec
        self.runtime = runtime
        self.parent = parent
        self.level = level
        self.partitions: dict[Any, Partition] = {}
        self.registrations: list[Any] = []

    def stop(self, terminated: bool = False) -> None:
        regs, self.registrations = self.registrations, []
        for r in regs:
            r.stop()
        parts, self.partitions = self.partitions, {}
        for p in parts.values():
            self.runtime.end_partition(p, terminated)


class ContextRuntime:
    """The partitions of one context in one engine, and the statements attached to it.

    Everything the context's controllers and conditions register (filters, schedules, the
    pattern runs of pattern conditions) goes through `add_filter`, `schedule` and
    `track_pattern`, so that `relocate` can move the context, with its partitions and their
    statement instances, to another runtime (an isolated service, and back). Where the
    context already runs with other statements, the one moved in runs beside it: each keeps
    its own partitions."""

    def __init__(self, definition: Any, engine: "Runtime", service: Any,
                 controllers: Sequence[MakeController]) -> None:
        self.definition = definition
        self.engine = engine
        self.service = service
        # the controller factory of each level (engine/contexts/controllers.py)
        self.controllers = tuple(controllers)
        self.statements: list[tuple["Statement", Any]] = []     # (statement, ContextSelectPlan)
        self.root: Any = None
        self.leaves: dict[int, Partition] = {}
        self._ids = itertools.count()
        self._level_ids = [itertools.count() for _ in definition.levels]
        # live registrations, in registration order (moved in that order)
        self._regs: dict[Registration, None] = {}
        self._slots: dict[tuple, None] = {}       # slots of live schedules and pattern runs
        self._patterns: dict[Any, None] = {}      # pattern-condition instances
        # statements whose partitions run as fused code (keyed_fused.py), by statement
        self.fused: dict[Any, Any] = {}

    # -- what controllers and conditions register ----------------------------------------------
    def add_filter(self, spec: FilterSpec, handle: Any) -> Registration:
        reg = Registration(self, self.engine.filters.add(spec, handle))
        self._regs[reg] = None
        return reg

    def schedule(self, at: int, slot: tuple, callback: Callable[[], None]) -> Timer:
        timer = Timer(self, slot)
        slots = self._slots

        def fire() -> None:
            slots.pop(slot, None)
            callback()
        self._slots[slot] = None
        timer.handle = self.engine.scheduler.schedule(at, slot, fire)
        return timer

    def track_pattern(self, instance: Any, slot: tuple) -> Callable[[], None]:
        """Note a pattern condition's instance (its schedules use `slot`); returns its
        release."""
        self._patterns[instance] = None
        self._slots[slot] = None

        def release() -> None:
            self._patterns.pop(instance, None)
            self._slots.pop(slot, None)
        return release

    # -- moving ----------------------------------------------------------------------------------
    def relocate(self, runtime: "Runtime") -> None:
        """Continue in `runtime` (the engine or an isolated service's runtime) with every
        partition and its statements' state: controller and condition filters go to its
        filter index, their schedules and the partitions' to its scheduler (keeping their
        due times), pattern conditions and statement instances move themselves."""
        old = self.engine
        if runtime is old:
            return
        old_index, new_index = old.filters, runtime.filters
        if old_index is not new_index:
            for reg in self._regs:
                reg.token = move_filter(reg.token, old_index, new_index)
        old_sched, new_sched = old.scheduler, runtime.scheduler
        if old_sched is not new_sched and self._slots:
            own = self._slots
            # shifted by the gap between the clocks, as the statements' own schedules
            new_sched.adopt(old_sched.extract(lambda slot: isinstance(slot, tuple) and slot in own),
                            new_sched.now - old_sched.now)
        for inst in self._patterns:
            inst.relocate(runtime)
        for p in self.leaves.values():          # in creation order: their filters' order
            for _stmt, inst in p.instances:
                inst.relocate(runtime)
        self.engine = runtime

    # -- statements ----------------------------------------------------------------------------
    def attach(self, statement: "Statement", plan: Any) -> None:
        fusion = FUSION(self, statement, plan) \
            if FUSION is not None and hasattr(plan, "partition_plan") else None
        if fusion is not None:
            self.fused[statement] = fusion
        self.statements.append((statement, plan))
        if self.root is None:
            self.root = self.controllers[0](self.definition.levels[0].spec, self, None, 0)
            self.root.start()
        else:
            for p in list(self.leaves.values()):
                self._instantiate(p, statement, plan)

    def detach(self, statement: "Statement") -> None:
        self.fused.pop(statement, None)
        self.statements = [(s, p) for s, p in self.statements if s is not statement]
        if not self.statements:
            root, self.root = self.root, None
            if root is not None:
                root.stop()
            self.leaves.clear()
            self.service.runtime_ended(self)
            return
        for p in list(self.leaves.values()):
            keep = []
            for s, inst in p.instances:
                if s is statement:
                    inst.stop()
                else:
                    keep.append((s, inst))
            p.instances = keep

    # -- partitions -------------------------------------------------------------------------------
    def new_partition(self, controller: Any, level: int, props: dict, parent: Optional[Partition],
                      narrower: Optional[Narrow], key: Any = None) -> Partition:
        """Create and start a partition at `level`: a leaf hosts the statements, an inner one
        the next level's controller."""
        levels = self.definition.levels
        own = dict(props)
        own["name"] = levels[level].name
        own["id"] = next(self._level_ids[level])
        p = Partition(own["id"], level, own, parent, narrower, key)
        p.controller = controller
        if level + 1 < len(levels):
            p.child = self.controllers[level + 1](levels[level + 1].spec, self, p, level + 1)
            p.child.start()
            return p
        p.props = self._leaf_props(p)
        p.id = p.props["id"]
        self.leaves[id(p)] = p
        for stmt, plan in self.statements:
            self._instantiate(p, stmt, plan)
        return p

    def _leaf_props(self, leaf: Partition) -> dict:
        if len(self.definition.levels) == 1:
            return leaf.props
        props: dict = {"name": self.definition.name, "id": next(self._ids)}
        p: Optional[Partition] = leaf
        while p is not None:
            props[self.definition.levels[p.level].name] = p.props
            p = p.parent
        return props

    def _instantiate(self, p: Partition, stmt: "Statement", plan: Any) -> None:
        fusion = self.fused.get(stmt)
        if fusion is None:
            inst = plan.make_instance(self.engine, stmt, p)
        else:
            inst = fusion.instance(self.engine, stmt, plan.partition_plan, p, plan.holder)
        p.instances.append((stmt, inst))
        try:
            inst.start()
        except Exception:
            p.instances.remove((stmt, inst))
            raise

    def end_partition(self, p: Partition, terminated: bool = True) -> None:
        """End a partition (and the partitions nested in it): statements' `output when
        terminated` fires when `terminated`, then everything it holds is released."""
        if p.ended:
            return
        p.ended = True
        if p.child is not None:
            child, p.child = p.child, None
            child.stop(terminated)
        for stmt, inst in p.instances:
            if terminated:
                inst.terminated()
            inst.stop()
        p.instances = []
        for release in p.cleanup:
            release()
        p.cleanup = []
        self.leaves.pop(id(p), None)

    # -- the event that started a partition ----------------------------------------------------
    # `match_filters`: the event as the partition's handle got it, not preprocessed again
    # (an `update istream` already applied: its listeners hear of it once)
    def matched(self, bean: EventBean) -> set:
        return {id(h) for h in self.engine.filters.match_filters(bean)}

    def deliver_new(self, bean: EventBean, before: set) -> None:
        """Hand `bean` to the handles registered since `before` was taken that it satisfies."""
        fresh = [h for h in self.engine.filters.match_filters(bean)
                 if id(h) not in before and not getattr(h, "skip_initial", False)]
        fresh.sort(key=_order)
        for h in fresh:
            h.on_event(bean)

    def single_fused(self) -> bool:
        """Whether the context runs one statement, fused in its partitions (keyed_fused.py)."""
        return len(self.statements) == 1 and len(self.fused) == 1

    def partition_count(self) -> int:
        return len(self.leaves)

    def iter_leaves(self) -> Iterator[Partition]:
        return iter(sorted(self.leaves.values(), key=lambda p: p.id))


def _order(h: Any) -> Any:
    return h.order
