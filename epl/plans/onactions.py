"""Plan data of on-statements (`on <trigger> select|delete|update|merge|set ...`) and of the
fire-and-forget update and delete: which rows of which named window or table an action
matches and what it does to them (epl/compiler/onactions.py, fireandforget.py build it;
engine/namedwindows/actions.py makes the actions when the statement starts)."""
from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Mapping, Optional

from engine.contracts.frozen import frozen_dataclass
from epl.plans.started import StartedByRuntime

Eps = tuple
Fn = Callable[[Eps], Any]


@frozen_dataclass
class MatchPlan:
    """The target rows a trigger selects: `where(trigger, row)`, or all rows; `key_columns`
    and `key_fns` look rows up by an index the target keeps on exactly those columns;
    `equalities` (every `target.col = <trigger expression>` conjunct) let an index created
    after the statement answer too. `target`: the window's or table's name."""

    target: str
    where: Optional[Fn] = None
    key_columns: tuple = ()
    key_fns: tuple = ()
    equalities: Mapping[str, Fn] = field(default_factory=dict)


@frozen_dataclass
class OnSelectPlan:
    match: MatchPlan
    rows_plan: Any                   # the select clause's rows (epl/compiler/rowselect.py)
    and_delete: bool = False


@frozen_dataclass
class OnDeletePlan:
    match: MatchPlan


@frozen_dataclass
class OnUpdatePlan:
    match: MatchPlan
    assigns: tuple[tuple[str, Fn], ...]


@frozen_dataclass
class MergeStep:
    """One action of a when-clause: 'update' (assigns), 'delete', or 'insert' (`make(eps)`
    builds the event; `into_target` False routes it as an event of its type)."""

    kind: str
    condition: Optional[Fn] = None
    assigns: tuple = ()
    make: Optional[Callable[[Eps], Any]] = None
    into_target: bool = True


@frozen_dataclass
class MergeClause:
    matched: bool
    condition: Optional[Fn]
    steps: tuple[MergeStep, ...]


@frozen_dataclass
class OnMergePlan:
    match: MatchPlan
    clauses: tuple[MergeClause, ...]
    always: Optional[MergeClause] = None     # `merge W insert select ...`: inserts, no lookup


@frozen_dataclass
class OnSetPlan:
    """`on ... set v = expr, ...`: (variable, value fn, check) in order; `holder`: in a
    context, what has the partition's properties in place (its variables)."""

    assigns: tuple[tuple[str, Fn, Callable[[Any], Any]], ...]
    out_type: Any
    holder: Any = None


@frozen_dataclass
class OnPlan(StartedByRuntime):
    """A compiled on-statement. Exactly one of `trigger_filter` (a template with `bind`) and
    `trigger_pattern` (a pattern plan with `start(instance, handle)`) is set; `action` is
    one of the plans above."""

    action: Any
    out_type: Any
    columns: tuple[str, ...]
    trigger_filter: Any = None
    trigger_pattern: Any = None
    passthrough: bool = False
    selector: str = "istream"
    insert_into: Any = None
    subqueries: tuple = ()           # subquery window plans (engine/subqueries.py)
