"""Named windows and tables declared with `context X create window|table`: the create
statement runs per partition (each partition's instance is its own window or table), and
`context X insert into W select ...` inserts into the window of the partition that produced
the row.

Inserted rows are routed like every `insert into` event (processed after the current event),
tagged with their partition: one filter registration per context-declared window takes them
and hands each to its partition's instance."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from engine.contracts.bean import EventBean
from engine.instance import move_filter
from filterindex.spec import FilterSpec

from .partition import Holder, Partition
from .statements import ContextStatement

if TYPE_CHECKING:
    from engine.statement import Statement
    from engine.contracts.runtime import Runtime


class PartitionRouted(EventBean):
    """An `insert into W` event bound for the window (or table) of one partition."""

    __slots__ = ("partition",)

    def __init__(self, event_type: Any, underlying: Any, partition: Partition) -> None:
        EventBean.__init__(self, event_type, underlying)
        self.partition = partition


class RoutingStatement:
    """The statement as one partition's instance sees it when its rows go into a window or
    table of its own context: rows are routed to the partition's instance; delivery to
    listeners is the statement's (whose plan shows no insert-into, so it routes nothing)."""

    __slots__ = ("_statement", "_ins", "_partition")

    def __init__(self, statement: "Statement", ins: Any, partition: Partition) -> None:
        self._statement = statement
        self._ins = ins
        self._partition = partition

    def __getattr__(self, name: str) -> Any:
        return getattr(self._statement, name)

    def _emit(self, new_rows: Optional[list], old_rows: Optional[list], force: bool = False) -> None:
        ins = self._ins
        sel = ins.selector
        routed = new_rows if sel == "istream" else old_rows if sel == "rstream" \
            else (new_rows or []) + (old_rows or [])
        if routed:
            engine = self._statement.engine
            p = self._partition
            for row in routed:
                b = engine.derive(ins, row)
                engine.route(PartitionRouted(b.event_type, b.underlying, p))
        self._statement._emit(new_rows, old_rows, force)

    def _deliver_now(self, bean: EventBean) -> None:
        self._emit([bean], None)


class _RoutedInsertHandle:
    """Takes `insert into W` events of a context-declared window's type: each goes to the
    instance of the partition it was produced in (gone partitions drop it)."""

    __slots__ = ("infra", "order", "drop", "statement")

    def __init__(self, infra: Any, statement: "Statement") -> None:
        self.infra = infra
        self.statement = statement
        self.order = statement._match_key
        self.drop = False

    def on_event(self, bean: EventBean) -> None:
        inst = self.infra.instances.get(getattr(bean, "partition", None))
        if inst is not None:
            inst.insert([bean])


class ContextInfraPlan:
    """The plan of `context X create window|table`: the infra's statement is a context
    statement whose partition instances are the partitions' windows or tables."""

    def __init__(self, infra: Any, definition: Any, service: Any, out_type: Any,
                 selector: str) -> None:
        self.infra = infra
        self.definition = definition
        self.service = service
        self.holder = Holder()
        self.out_type = out_type
        self.columns = out_type.property_names
        self.passthrough = True
        self.selector = selector
        self.insert_into = None

    def instantiate(self, engine: "Runtime", statement: "Statement") -> list:
        infra = self.infra
        infra.statement = statement
        runtime = self.service.runtime_for(self.definition, engine)
        handle = ContextInfraStatement(runtime, statement, self.holder, infra, engine)
        runtime.attach(statement, self)
        return [handle]

    def make_instance(self, engine: "Runtime", statement: "Statement", partition: Partition) -> "PartitionInfraInstance":
        return PartitionInfraInstance(self.infra, partition, engine, statement)


class ContextInfraStatement(ContextStatement):
    """The create statement's handle: also owns the registration taking `insert into` rows."""

    def __init__(self, runtime: Any, statement: "Statement", holder: Holder, infra: Any,
                 engine: "Runtime") -> None:
        super().__init__(runtime, statement, holder)
        self.infra = infra
        self.engine = engine
        self.registration = engine.filters.add(FilterSpec(infra.event_type, ((),)),
                                                _RoutedInsertHandle(infra, statement))

    def stop(self) -> None:
        reg, self.registration = self.registration, None
        if reg is not None:
            self.engine.filters.remove(reg)
        super().stop()

    def relocate(self, runtime: "Runtime") -> None:
        if self.registration is not None and runtime.filters is not self.engine.filters:
            self.registration = move_filter(self.registration, self.engine.filters, runtime.filters)
        self.engine = runtime
        super().relocate(runtime)


class PartitionInfraInstance:
    """The create statement's instance in one partition: the partition's window or table."""

    __slots__ = ("infra", "partition", "engine", "statement")

    def __init__(self, infra: Any, partition: Partition, engine: "Runtime", statement: "Statement") -> None:
        self.infra = infra
        self.partition = partition
        self.engine = engine
        self.statement = statement

    def start(self) -> None:
        self.infra.instance(self.partition, self.engine)

    def stop(self) -> None:
        self.infra.release(self.partition)

    def relocate(self, runtime: "Runtime") -> None:
        inst = self.infra.instances.get(self.partition)
        if inst is not None:
            inst.relocate(runtime)
        self.engine = runtime

    def terminated(self) -> None:
        pass

    def current_rows(self) -> list:
        inst = self.infra.instances.get(self.partition)
        return list(inst) if inst is not None else []
