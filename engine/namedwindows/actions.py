"""On-actions at runtime: a trigger (an event filter or a pattern) and what it does to a named
window or table (select, delete, update, merge) or to variables (set).

Each action works on the target's rows through one interface (iterate, `delete`, `replace`,
`insert`), which both NamedWindow and Table provide; the changes one trigger makes reach the
target in one update, so consumers see them as one insert/remove stream delivery."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from engine.contracts.bean import EventBean
from epl.plans.onactions import (
    MatchPlan, MergeClause, OnDeletePlan, OnMergePlan, OnPlan, OnSelectPlan, OnSetPlan,
    OnUpdatePlan,
)

from engine.resultset.rows import select_rows

if TYPE_CHECKING:
    from engine.statement import Statement
    from engine.contracts.runtime import Runtime

Eps = tuple
Fn = Callable[[Eps], Any]


# -- matching target rows -----------------------------------------------------------------------
class Matcher:
    """The target rows a trigger selects: `where(trigger, row)`, or all rows; an equality
    between a target column and a trigger expression is looked up by key when the target
    keeps an index on that column (tables keep one on their primary key)."""

    __slots__ = ("target", "where", "key_columns", "key_fns", "equalities")

    def __init__(self, target: Any, where: Optional[Fn], key_columns: tuple = (), key_fns: tuple = (),
                 equalities: Optional[dict] = None) -> None:
        self.target = target
        self.where = where
        self.key_columns = key_columns
        self.key_fns = key_fns
        # every `target.col = <trigger expression>` of the where-clause: an index created
        # after the statement is used too
        self.equalities = equalities or {}

    def find(self, trigger: Optional[EventBean]) -> list[EventBean]:
        rows = None
        if self.key_columns:
            eps = (trigger, None)
            rows = self.target.lookup(self.key_columns, tuple(f(eps) for f in self.key_fns))
        elif self.equalities:
            eq = self.equalities
            for cols in getattr(self.target, "index_columns", list)():
                if all(c in eq for c in cols):
                    eps = (trigger, None)
                    rows = self.target.lookup(cols, tuple(eq[c](eps) for c in cols))
                    break
        if rows is None:
            rows = list(self.target)
        where = self.where
        if where is None:
            return rows
        return [r for r in rows if where((trigger, r)) is True]


def copy_row(bean: EventBean) -> EventBean:
    """A copy of a window or table row, to apply assignments to."""
    u = bean.underlying
    return EventBean(bean.event_type, dict(u) if isinstance(u, dict) else bean.to_dict())


def apply_assignments(row: EventBean, trigger: Optional[EventBean], assigns: Sequence[tuple[str, Fn]]) -> None:
    """Assignments in order on a copied row; each sees what the ones before it assigned."""
    u = row.underlying
    for col, fn in assigns:
        u[col] = fn((trigger, row))


# -- actions ------------------------------------------------------------------------------------
@dataclass
class OnSelectAction:
    matcher: Matcher
    rows_plan: Any
    and_delete: bool = False

    def run(self, trigger: EventBean, engine: "Runtime") -> tuple:
        matched = self.matcher.find(trigger)
        # Esper processes every trigger: an aggregate over no matching rows still has its row
        rows = select_rows(self.rows_plan, [(trigger, b) for b in matched], empty_aggregate=True)
        if self.and_delete and matched:
            self.matcher.target.delete(matched)
        return rows or None, None


@dataclass
class OnDeleteAction:
    matcher: Matcher

    def run(self, trigger: EventBean, engine: "Runtime") -> tuple:
        matched = self.matcher.find(trigger)
        if matched:
            self.matcher.target.delete(matched)
        return matched or None, None


@dataclass
class OnUpdateAction:
    matcher: Matcher
    assigns: tuple[tuple[str, Fn], ...]

    def run(self, trigger: EventBean, engine: "Runtime") -> tuple:
        matched = self.matcher.find(trigger)
        if not matched:
            return None, None
        new = []
        for b in matched:
            c = copy_row(b)
            apply_assignments(c, trigger, self.assigns)
            new.append(c)
        self.matcher.target.replace(new, matched)
        return new, matched


@dataclass
class OnMergeAction:
    matcher: Matcher
    clauses: tuple[MergeClause, ...]
    matched_clauses: tuple = field(init=False)
    unmatched_clauses: tuple = field(init=False)
    always: Optional[MergeClause] = None     # `merge W insert select ...`: inserts, no lookup

    def __post_init__(self) -> None:
        self.matched_clauses = tuple(c for c in self.clauses if c.matched)
        self.unmatched_clauses = tuple(c for c in self.clauses if not c.matched)

    def run(self, trigger: EventBean, engine: "Runtime") -> tuple:
        new: list[EventBean] = []
        old: list[EventBean] = []
        routed: list[EventBean] = []
        matched = self.matcher.find(trigger) if self.matched_clauses or self.unmatched_clauses else []
        if self.always is not None:
            self._first_clause((self.always,), (trigger, None), None, new, old, routed)
        elif matched:
            for row in matched:
                self._first_clause(self.matched_clauses, (trigger, row), row, new, old, routed)
        else:
            self._first_clause(self.unmatched_clauses, (trigger, None), None, new, old, routed)
        target = self.matcher.target
        if new or old:
            target.merge(new, old)
        for r in routed:
            engine.route(r)
        return new or None, old or None

    @staticmethod
    def _first_clause(clauses: tuple, eps: Eps, row: Optional[EventBean], new: list, old: list,
                      routed: list) -> None:
        # the first when-clause whose condition holds performs its actions; the others do not
        for clause in clauses:
            if clause.condition is not None and clause.condition(eps) is not True:
                continue
            current = row
            for step in clause.steps:
                if step.condition is not None and step.condition(eps) is not True:
                    continue
                if step.kind == "insert":
                    bean = step.make(eps)
                    (new if step.into_target else routed).append(bean)
                elif current is None:
                    continue
                elif step.kind == "delete":
                    if current is row:
                        old.append(row)
                    else:                      # deleting what this clause just updated
                        new.remove(current)
                    current = None
                else:
                    c = copy_row(current)
                    apply_assignments(c, eps[0], step.assigns)
                    if current is row:
                        old.append(row)
                    else:
                        new.remove(current)
                    new.append(c)
                    current = c
            return


@dataclass
class OnSetAction:
    """`on ... set v = expr, ...`: assignments in order, later ones see earlier ones; the
    values take effect for the next event. Outputs one row of the new values."""

    service: Any
    assigns: tuple[tuple[str, Fn, Callable[[Any], Any]], ...]   # (variable, value fn, check)
    out_type: Any
    holder: Any = None       # in a context: the partition the statement runs in (its variables)

    def run(self, trigger: Optional[EventBean], engine: "Runtime") -> tuple:
        svc = self.service
        values: dict[str, Any] = {}
        svc.overlay = values
        try:
            eps = (trigger,)
            for name, fn, check in self.assigns:
                values[name] = check(fn(eps))
        finally:
            svc.overlay = None
        svc.write(values, self.holder.properties if self.holder is not None else None)
        return [EventBean(self.out_type, dict(values))], None


# -- the statement ------------------------------------------------------------------------------
def make_action(plan: Any, engine: "Runtime", target: Any = None) -> Any:
    """The runtime action of an action plan (epl/plans/onactions.py), acting on `target`
    (a context partition's own window or table) or on the window or table the plan names."""
    return _MAKERS[type(plan)](plan, engine, target)


def _matcher(m: MatchPlan, engine: "Runtime", target: Any) -> Matcher:
    if target is None:
        target = engine.services.named_windows.get(m.target)
    return Matcher(target, m.where, m.key_columns, m.key_fns, m.equalities)


_MAKERS: dict[type, Callable[[Any, Any, Any], Any]] = {
    OnSelectPlan: lambda p, e, t: OnSelectAction(_matcher(p.match, e, t), p.rows_plan, p.and_delete),
    OnDeletePlan: lambda p, e, t: OnDeleteAction(_matcher(p.match, e, t)),
    OnUpdatePlan: lambda p, e, t: OnUpdateAction(_matcher(p.match, e, t), p.assigns),
    OnMergePlan: lambda p, e, t: OnMergeAction(_matcher(p.match, e, t), p.clauses, p.always),
    OnSetPlan: lambda p, e, t: OnSetAction(e.services.variables, p.assigns, p.out_type, p.holder),
}


def start_on(plan: OnPlan, engine: "Runtime", statement: "Statement") -> list:
    """The starter of OnPlan: the statement's one instance, its trigger registered."""
    inst = OnInstance(engine, statement, plan)
    inst.start()
    return [inst]


class OnInstance:
    """A started on-statement: the trigger's registration; each trigger runs the action."""

    def __init__(self, engine: "Runtime", statement: "Statement", plan: OnPlan,
                 target: Any = None) -> None:
        from engine.instance import StatementContext
        self.engine = engine
        self.statement = statement
        self.plan = plan
        # `target`: a context partition's own window or table (else the one the plan names)
        self.action = make_action(plan.action, engine, target)
        self.ctx = StatementContext(engine, statement, statement._order_key)
        self.registration: Any = None
        self.bindings: Any = None
        self.subqueries: Any = None

    def start(self) -> None:
        if self.plan.subqueries:
            # subquery streams see an event before the trigger does (their handles sort first)
            self.subqueries = self.engine.services.subqueries.instantiate(self, self.plan.subqueries)
            self.subqueries.start()
        handle = _TriggerHandle(self)
        if self.plan.trigger_pattern is not None:
            from engine.patterns.run import start_pattern
            self.registration = start_pattern(self.plan.trigger_pattern, self, handle)
        else:
            self.registration = self.engine.filters.add(self.plan.trigger_filter.bind(None), handle)

    def stop(self) -> None:
        subs, self.subqueries = self.subqueries, None
        if subs is not None:
            subs.stop()
        reg, self.registration = self.registration, None
        if reg is None:
            return
        if self.plan.trigger_pattern is not None:
            reg.stop()
        else:
            self.engine.filters.remove(reg)

    def relocate(self, runtime: "Runtime") -> None:
        """Continue in another runtime (an isolated service, or the engine): the trigger's
        filter, or its pattern run with its state, and its schedules move there. The target
        window or table does not move: it is the same one wherever its triggers come from."""
        from engine.instance import move_filter
        reg = self.registration
        if reg is not None:
            if self.plan.trigger_pattern is not None:
                reg.relocate(runtime)
            elif runtime.filters is not self.engine.filters:
                self.registration = move_filter(reg, self.engine.filters, runtime.filters)
        move_schedules(self.ctx, runtime)
        self.engine = runtime

    def fire(self, trigger: EventBean) -> None:
        if self.subqueries is not None:
            self.subqueries.activate()
        new, old = self.action.run(trigger, self.engine)
        if new or old:
            self.statement._emit(new, old)

    def current_rows(self) -> list:
        return []


def move_schedules(ctx: Any, runtime: "Runtime") -> None:
    """Move the callbacks scheduled in a statement context's slots (the slot and the ones
    nested under it) to `runtime`'s scheduler, shifted by the gap between the clocks."""
    ctx.shift_to(runtime.scheduler)


class _TriggerHandle:
    __slots__ = ("instance", "order", "drop", "statement")

    def __init__(self, instance: OnInstance) -> None:
        self.instance = instance
        self.statement = instance.statement
        self.order = instance.statement._match_key
        self.drop = instance.statement.drop

    def on_event(self, bean: EventBean) -> None:
        self.instance.fire(bean)
