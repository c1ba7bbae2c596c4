"""Statement nodes: select, create schema/window/table/variable/context, on-actions."""
from __future__ import annotations

import enum
from dataclasses import field
from typing import Any, Optional, Union

from engine.contracts.frozen import frozen_dataclass
from .common import NO_SPAN, Node, Span
from .expressions import Expr
from .patterns import EventFilter, PatternExpr


class Statement(Node):
    __slots__ = ()


@frozen_dataclass(slots=True)
class Annotation(Node):
    """`@name('x')`, `@priority(2)`, `@drop`, `@Hint('...')`: `value` is the single positional
    value (None when absent); `attrs` holds `@Foo(a=1, b='x')` style attributes."""

    name: str
    value: object = None
    attrs: tuple[tuple[str, object], ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


class StreamSelector(enum.Enum):
    ISTREAM = "istream"
    IRSTREAM = "irstream"
    RSTREAM = "rstream"


@frozen_dataclass(slots=True)
class SelectItem(Node):
    """One select-list entry. `expr` may be Wildcard or StreamWildcard."""

    expr: Expr
    alias: Optional[str] = None
    span: Span = field(default=NO_SPAN, compare=False)
    event_bean: bool = False    # `expr @eventbean as name`: a collection of events stays events


@frozen_dataclass(slots=True)
class SelectClause(Node):
    items: tuple[SelectItem, ...]
    selector: Optional[StreamSelector] = None   # None: not written (istream)
    distinct: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class InsertInto(Node):
    """`insert [istream|rstream|irstream] into Name[(c1, c2)]`."""

    stream_name: str
    columns: tuple[str, ...] = ()
    selector: Optional[StreamSelector] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class ViewSpec(Node):
    """`#length(5)` or `.win:length(5)`: `namespace` is 'win'/'std'/'ext' for the dotted
    form, None for `#`. Both compile the same."""

    name: str
    args: tuple[Expr, ...] = ()
    namespace: Optional[str] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class FilterStream(Node):
    """`Type(filter)#views as alias [unidirectional]` (Type may name a named window or table)."""

    event_filter: EventFilter
    views: tuple[ViewSpec, ...] = ()
    alias: Optional[str] = None
    unidirectional: bool = False
    retain_union: bool = False
    retain_intersection: bool = False
    span: Span = field(default=NO_SPAN, compare=False)
    contained: Optional[str] = None     # `Type[prop]`: the events in property `prop` (a path)


@frozen_dataclass(slots=True)
class PatternStream(Node):
    """`pattern [ ... ]#views as alias`."""

    pattern: PatternExpr
    views: tuple[ViewSpec, ...] = ()
    alias: Optional[str] = None
    unidirectional: bool = False
    annotations: tuple[Annotation, ...] = ()   # `pattern @SuppressOverlappingMatches [...]`
    span: Span = field(default=NO_SPAN, compare=False)


StreamSpec = Union[FilterStream, PatternStream]


class JoinKind(enum.Enum):
    INNER = "inner"
    LEFT = "left outer"
    RIGHT = "right outer"
    FULL = "full outer"


@frozen_dataclass(slots=True)
class OuterJoin(Node):
    """The join of stream `index` (>= 1) with the streams before it, SQL-92 style:
    `A as a left outer join B as b on a.id = b.id`."""

    kind: JoinKind
    on: Optional[Expr] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class FromClause(Node):
    """Streams in order. `joins[i]` is the OuterJoin that attached streams[i+1], or None when
    the streams were comma-separated (then `joins` is empty)."""

    streams: tuple[StreamSpec, ...]
    joins: tuple[Optional[OuterJoin], ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)
    # `from T#win match_recognize (...)` (epl.ast.rowrecog.MatchRecognize); after `span`
    # because the grammar builds FromClause positionally
    match_recognize: Optional[Any] = None


@frozen_dataclass(slots=True)
class GroupingSet(Node):
    """One group-by element that is not a plain expression."""

    kind: str                                  # 'rollup' | 'cube' | 'sets'
    items: tuple[Union[Expr, tuple[Expr, ...], "GroupingSet"], ...]
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class OrderItem(Node):
    expr: Expr
    descending: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Limit(Node):
    """`limit n [offset m]` or `limit m, n` (offset first) — normalised to count/offset."""

    count: Expr
    offset: Optional[Expr] = None
    comma_form: bool = field(default=False, compare=False)
    span: Span = field(default=NO_SPAN, compare=False)


class OutputKind(enum.Enum):
    DEFAULT = "default"   # `output every ...` (all)
    ALL = "all"
    FIRST = "first"
    LAST = "last"
    SNAPSHOT = "snapshot"


@frozen_dataclass(slots=True)
class Assignment(Node):
    """`name = expr` in `then set`, `on ... set`, `update set`."""

    target: Expr
    value: Expr
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class OutputClause(Node):
    """The output clause. Exactly one condition form is set, or none (`output after ...`
    alone, or `output when terminated`):
    - `every_events`: `every N events`
    - `every_time`: `every <time period>`
    - `at`: `at (crontab params)`
    - `when`: `when <expr>` with optional `then set` assignments"""

    kind: OutputKind = OutputKind.DEFAULT
    every_events: Optional[Expr] = None
    every_time: Optional[Expr] = None
    at: Optional[tuple[Expr, ...]] = None
    when: Optional[Expr] = None
    then_set: tuple[Assignment, ...] = ()
    after_time: Optional[Expr] = None
    after_events: Optional[Expr] = None
    when_terminated: bool = False
    terminated_and: Optional[Expr] = None
    terminated_then_set: tuple[Assignment, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class SelectStatement(Statement):
    select: SelectClause
    from_: Optional[FromClause]
    where: Optional[Expr] = None
    group_by: tuple[Union[Expr, GroupingSet], ...] = ()
    having: Optional[Expr] = None
    output: Optional[OutputClause] = None
    order_by: tuple[OrderItem, ...] = ()
    limit: Optional[Limit] = None
    insert_into: Optional[InsertInto] = None
    context: Optional[str] = None
    annotations: tuple[Annotation, ...] = ()
    into_table: Optional[str] = None        # `into table T select ...`: aggregate into T's rows
    span: Span = field(default=NO_SPAN, compare=False)
    # `for grouped_delivery(a, b)` / `for discrete_delivery`: how listeners receive a batch
    for_clause: Optional["ForClause"] = None


@frozen_dataclass(slots=True)
class ForClause(Node):
    """`for grouped_delivery(exprs)` (one listener call per group of output rows) or `for
    discrete_delivery` (one call per row)."""

    kind: str                      # 'grouped_delivery' | 'discrete_delivery'
    exprs: tuple[Expr, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class TypeRef(Node):
    """A property type as written: `string`, `int`, `long[]`, `SomeEvent`."""

    name: str
    array: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class ColumnDef(Node):
    name: str
    type: Optional[TypeRef] = None
    primary_key: bool = False          # tables
    aggregation: Optional[Expr] = None  # tables: `total sum(int)`
    event_type: Optional[str] = None    # tables: `w window(*) @type(T)`
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class CreateSchema(Statement):
    """`create [map|objectarray] schema Name (cols) [inherits A, B] [starttimestamp s
    [endtimestamp e]]`, or `create schema Name as ClassName`."""

    name: str
    columns: tuple[ColumnDef, ...] = ()
    inherits: tuple[str, ...] = ()
    start_timestamp: Optional[str] = None
    end_timestamp: Optional[str] = None
    representation: Optional[str] = None     # 'map', 'objectarray', ...
    class_name: Optional[str] = None         # `as ClassName`
    annotations: tuple[Annotation, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)
    # `create variant schema V as T1, T2` (members) or `as *` (any type)
    variant_types: tuple[str, ...] = ()
    variant_any: bool = False


@frozen_dataclass(slots=True)
class CreateWindow(Statement):
    """`create window Name#views as [select ... from] Type` or `as (cols)`, `insert [where]`."""

    name: str
    views: tuple[ViewSpec, ...] = ()
    as_type: Optional[str] = None
    columns: tuple[ColumnDef, ...] = ()
    select: Optional[SelectClause] = None
    insert: bool = False
    insert_where: Optional[Expr] = None
    annotations: tuple[Annotation, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)
    context: Optional[str] = None           # `context X create window ...`: one per partition
    retain_union: bool = False              # `create window W#a#b retain-union as ...`


@frozen_dataclass(slots=True)
class CreateTable(Statement):
    name: str
    columns: tuple[ColumnDef, ...]
    annotations: tuple[Annotation, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)
    context: Optional[str] = None           # `context X create table ...`: one per partition


@frozen_dataclass(slots=True)
class IndexColumn:
    """One column of `create index`: the property and the index kind ('hash' or 'btree')."""

    name: str
    kind: str = "hash"
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class SpatialIndexColumn:
    """`(px, py) pointregionquadtree(0, 0, 100, 100)` or `(x, y, w, h) mxcifquadtree(...)` in
    `create index`: the row expressions, the index kind (lowercase) and its parameters."""

    exprs: tuple[Expr, ...]
    kind: str
    params: tuple[Expr, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class CreateIndex(Statement):
    """`create [unique] index name on window_or_table (col [hash|btree], ...)`."""

    name: str
    target: str
    columns: tuple[IndexColumn, ...]
    unique: bool = False
    annotations: tuple[Annotation, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)
    context: Optional[str] = None


@frozen_dataclass(slots=True)
class CreateVariable(Statement):
    """`create [constant] variable type name [= expr]`."""

    name: str
    type: TypeRef
    initial: Optional[Expr] = None
    constant: bool = False
    annotations: tuple[Annotation, ...] = ()
    context: Optional[str] = None      # `context C create variable ...`: a value per partition
    span: Span = field(default=NO_SPAN, compare=False)


# Context specs -------------------------------------------------------------

@frozen_dataclass(slots=True)
class KeyedItem(Node):
    """`partition by a, b from Type(filter)`."""

    properties: tuple[Expr, ...]
    event_filter: EventFilter
    alias: Optional[str] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class ContextCondition(Node):
    """A start/end/initiated/terminated condition: exactly one of `event_filter` (with
    `alias`), `pattern`, `crontab`, `after` (time period), or `now` (`@now`). The one
    combination: `initiated by @now and <condition>` sets `now` together with that
    condition's field (start at once, then at each occurrence)."""

    event_filter: Optional[EventFilter] = None
    alias: Optional[str] = None
    pattern: Optional[PatternExpr] = None
    crontab: Optional[tuple[Expr, ...]] = None
    after: Optional[Expr] = None
    now: bool = False
    inclusive: bool = False          # `@inclusive` on pattern conditions
    distinct: tuple[Expr, ...] = ()  # `initiated by distinct(expr, ...) Type as a`
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class KeyedContext(Node):
    items: tuple[KeyedItem, ...]
    initiated_by: tuple[KeyedItem, ...] = ()
    terminated_by: Optional[ContextCondition] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class HashContext(Node):
    """`coalesce by hash_code(a) from A, ... granularity N [preallocate]`."""

    items: tuple[tuple[Expr, EventFilter], ...]
    granularity: Optional[Expr] = None
    preallocate: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class CategoryContext(Node):
    """`group by expr as label, ... from Type`."""

    items: tuple[tuple[Expr, str], ...]
    event_filter: EventFilter
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class TemporalContext(Node):
    """`start A end B` (overlapping=False) or `initiated by A terminated by B`
    (overlapping=True)."""

    start: ContextCondition
    end: Optional[ContextCondition] = None
    overlapping: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class NestedContext(Node):
    """`context A partition by ..., context B start ...`."""

    contexts: tuple[tuple[str, "ContextSpec"], ...]
    span: Span = field(default=NO_SPAN, compare=False)


ContextSpec = Union[KeyedContext, HashContext, CategoryContext, TemporalContext, NestedContext]


@frozen_dataclass(slots=True)
class CreateContext(Statement):
    name: str
    spec: ContextSpec
    annotations: tuple[Annotation, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


# On-actions ----------------------------------------------------------------

@frozen_dataclass(slots=True)
class OnSelect(Node):
    """`on T select ... from Window as w [where ...]` (also `insert into`, `and delete`)."""

    select: SelectClause
    window: str
    window_alias: Optional[str] = None
    where: Optional[Expr] = None
    insert_into: Optional[InsertInto] = None
    and_delete: bool = False
    group_by: tuple[Union[Expr, GroupingSet], ...] = ()
    having: Optional[Expr] = None
    order_by: tuple[OrderItem, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class OnDelete(Node):
    window: str
    window_alias: Optional[str] = None
    where: Optional[Expr] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class OnUpdate(Node):
    window: str
    window_alias: Optional[str] = None
    assignments: tuple[Assignment, ...] = ()
    where: Optional[Expr] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class MergeAction(Node):
    """One action of a `when [not] matched` clause: 'update' (assignments), 'delete', or
    'insert' (select clause, optional into stream); `condition` is its `where`."""

    action: str
    assignments: tuple[Assignment, ...] = ()
    select: Optional[SelectClause] = None
    insert_into: Optional[str] = None
    columns: tuple[str, ...] = ()
    condition: Optional[Expr] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class MergeWhen(Node):
    matched: bool
    actions: tuple[MergeAction, ...]
    condition: Optional[Expr] = None    # `when matched and <expr>`
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class OnMerge(Node):
    window: str
    window_alias: Optional[str] = None
    where: Optional[Expr] = None
    whens: tuple[MergeWhen, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)
    direct_insert: Optional[MergeAction] = None    # `merge W insert select ...` (no when-clause)


@frozen_dataclass(slots=True)
class OnSet(Node):
    assignments: tuple[Assignment, ...]
    span: Span = field(default=NO_SPAN, compare=False)


OnAction = Union[OnSelect, OnDelete, OnUpdate, OnMerge, OnSet]


@frozen_dataclass(slots=True)
class OnStatement(Statement):
    """`on Type(filter) as alias <action>` or `on pattern [...] <action>`."""

    trigger: Union[EventFilter, PatternExpr]
    action: OnAction
    trigger_alias: Optional[str] = None
    context: Optional[str] = None
    annotations: tuple[Annotation, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


# Fire-and-forget -------------------------------------------------------------

@frozen_dataclass(slots=True)
class InsertValues(Statement):
    """`insert into Window [(cols)] select ...` without from, or `values (...)`."""

    target: str
    columns: tuple[str, ...] = ()
    values: tuple[Expr, ...] = ()
    select: Optional[SelectClause] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class UpdateStatement(Statement):
    """`update Window [as w] set a = b [where ...]` (fire-and-forget) or `update istream
    Type set ... where ...` (istream=True)."""

    target: str
    alias: Optional[str] = None
    assignments: tuple[Assignment, ...] = ()
    where: Optional[Expr] = None
    istream: bool = False
    annotations: tuple[Annotation, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class DeleteStatement(Statement):
    """`delete from Window [as w] [where ...]` (fire-and-forget)."""

    target: str
    alias: Optional[str] = None
    where: Optional[Expr] = None
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class Module(Node):
    """A `;`-separated list of statements (`engine.deploy`)."""

    statements: tuple[Statement, ...]
    texts: tuple[str, ...] = field(default=(), compare=False)
    span: Span = field(default=NO_SPAN, compare=False)
    # Esper's module headers: `module name;`, `uses other;`, `import a.b.*;`
    name: Optional[str] = None
    uses: tuple[str, ...] = ()
    imports: tuple[str, ...] = ()
    lines: tuple[int, ...] = field(default=(), compare=False)   # each statement's first line


@frozen_dataclass(slots=True)
class ExpressionDecl(Node):
    """`expression name { params => body }` (Esper's expression declaration), or with
    `alias=True` `expression name alias for { body }` (used by its name without parentheses).
    `lambda_form` remembers that the body was written with `=>` (`{ () => 1 }`)."""

    name: str
    params: tuple[str, ...]
    body: Expr
    alias: bool = False
    lambda_form: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class DeclaringStatement(Statement):
    """A statement preceded by expression declarations that only it sees:
    `@name('s') expression twice {x => x * 2} select twice(v) from T`."""

    declarations: tuple[ExpressionDecl, ...]
    statement: Statement
    annotations: tuple[Annotation, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)


@frozen_dataclass(slots=True)
class CreateExpression(Statement):
    """`create expression name { params => body }`: visible to every later statement."""

    declaration: ExpressionDecl
    annotations: tuple[Annotation, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)
