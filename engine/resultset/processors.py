"""The five result-set kinds of Esper's output model. Each takes what the views (or the
join) produced, as lists of events-per-stream tuples, and returns the rows to deliver:
`process(new, old) -> (new_rows, old_rows)`; `iterate(eps_list)` gives the current result
for `for row in statement`.

- Simple: no aggregation; a row per event.
- RowForAll: only aggregates, no group by; one row per update, prior row as remove stream.
- AggregatedUngrouped: aggregates and properties, no group by; a row per event.
- RowPerGroup: every property is grouped; a row per changed group, prior as remove stream.
- AggregatedGrouped: grouped, with ungrouped properties; a row per event with its group's
  aggregates.
Rows of one update are filtered by `having`, made distinct, ordered and limited here.
`make_processor(plan)` builds the processor of a ResultSetPlan (epl/plans/resultset.py, the
compiler's) for one statement instance.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from epl.plans.resultset import ResultSetPlan, SelectClause
from epl.plans.aggregation import AggregationContext
from .aggregation_rows import AggregationRows
from .java_order import hashmap_order
from .select import SelectEvaluator

Rows = Optional[list]
Eps = Sequence[Any]


class RowShaper:
    """Having, distinct, order by and limit/offset over the rows of one delivery."""

    __slots__ = ("having", "order_keys", "distinct", "limit", "offset", "plain")

    def __init__(self, having: Optional[Callable[[Eps], Any]] = None,
                 order_keys: Sequence[tuple[Callable[[Eps], Any], bool]] = (),
                 distinct: bool = False, limit: Optional[int] = None, offset: int = 0) -> None:
        self.having = having
        self.order_keys = tuple(order_keys)
        self.distinct = distinct
        self.limit = limit
        self.offset = offset
        # nothing to shape at all (is_identity, and no offset): rows go out as built
        self.plain = self.is_identity and not offset

    @property
    def is_identity(self) -> bool:
        return self.having is None and not self.order_keys and not self.distinct and self.limit is None

    def order(self, pairs: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
        """Stable multi-key sort of (sort-key-values, row) pairs; nulls sort first ascending."""
        for i in range(len(self.order_keys) - 1, -1, -1):
            desc = self.order_keys[i][1]
            pairs.sort(key=lambda p, _i=i: _null_key(p[0][_i]), reverse=desc)
        return pairs

    def finish(self, rows: list) -> Rows:
        """Distinct and limit on already ordered rows."""
        if self.distinct:
            seen = set()
            out = []
            for r in rows:
                k = _row_identity(r)
                if k not in seen:
                    seen.add(k)
                    out.append(r)
            rows = out
        if self.limit is not None or self.offset:
            end = None if self.limit is None else self.offset + self.limit
            rows = rows[self.offset:end]
        return rows or None


def passes_having(having: Callable[[Eps], Any], eps: Eps) -> bool:
    """Whether a row passes `having`. A fully aggregated row has no event: a property the
    having clause reads there is null (as Esper reads it from an empty event slot)."""
    if eps:
        return having(eps) is True
    try:
        return having(eps) is True
    except (IndexError, AttributeError):
        return False


def _sort_key(order_keys: Sequence[tuple[Callable[[Eps], Any], bool]], eps: Eps) -> tuple:
    """The order-by values of a row; all null for a fully aggregated row, which has no event
    to read them from."""
    if not eps:
        return (None,) * len(order_keys)
    return tuple(f(eps) for f, _ in order_keys)


def _null_key(v: Any) -> tuple:
    return (0, 0) if v is None else (1, v)


def _row_identity(bean: Any) -> Any:
    u = bean.underlying
    if isinstance(u, dict):
        return tuple((k, _hashable(v)) for k, v in u.items())
    return id(u)


def _hashable(v: Any) -> Any:
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)


class _Base:
    """Shared plumbing: evaluating rows with having/order-by against the right context."""

    kind = "base"
    __slots__ = ("select", "shaper", "want_old", "want_new", "ctx", "aggs")

    def __init__(self, select: SelectEvaluator, shaper: RowShaper, want_new: bool, want_old: bool,
                 ctx: Optional[AggregationContext] = None, aggs: Optional[AggregationRows] = None) -> None:
        self.select = select
        self.shaper = shaper
        self.want_new = want_new
        self.want_old = want_old
        self.ctx = ctx
        self.aggs = aggs

    def _rows(self, eps_list: Sequence[Eps], row_for: Optional[Callable[[Eps], Any]] = None) -> Rows:
        """Rows for events; `row_for(eps)` points the aggregation context first (grouped)."""
        shaper = self.shaper
        select = self.select
        if shaper.plain or (row_for is None and shaper.is_identity):
            build = select.build
            if row_for is None:
                return [build(eps) for eps in eps_list] or None
            rows = []
            for eps in eps_list:
                row_for(eps)
                rows.append(build(eps))
            return rows or None
        having = shaper.having
        keyed = bool(shaper.order_keys)
        pairs = []
        for eps in eps_list:
            if row_for is not None:
                row_for(eps)
            if having is not None and not passes_having(having, eps):
                continue
            sort_key = _sort_key(shaper.order_keys, eps) if keyed else None
            pairs.append((sort_key, select(eps)))
        if keyed:
            pairs = shaper.order(pairs)
        return shaper.finish([r for _, r in pairs])

    def reset(self) -> None:
        if self.aggs is not None:
            self.aggs.clear()


class SimpleProcessor(_Base):
    kind = "simple"
    __slots__ = ()

    def process(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Rows, Rows]:
        return (self._rows(new) if new and self.want_new else None,
                self._rows(old) if old and self.want_old else None)

    def iterate(self, eps_list: Sequence[Eps]) -> list:
        return self._rows(eps_list) or []


class RowForAllProcessor(_Base):
    kind = "row-for-all"
    __slots__ = ()

    def _one(self) -> Rows:
        self.ctx.row = self.aggs.ungrouped()
        return self._rows([()])

    def process(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Rows, Rows]:
        aggs = self.aggs
        if type(aggs) is AggregationRows and aggs.plain and self.shaper.plain:
            # the steps below in one frame: unshaped rows, aggregations without `filter:`
            row = aggs.ungrouped()
            ctx, build = self.ctx, self.select.build
            old_rows = None
            if self.want_old:
                ctx.row = row
                old_rows = [build(())]
            vofs = aggs.value_ofs
            if len(vofs) == 1:
                agg, vf = row[0], vofs[0]
                if new:
                    for eps in new:
                        agg.enter(vf(eps))
                if old:
                    for eps in old:
                        agg.leave(vf(eps))
            else:
                for eps in new or ():
                    for agg, vf in zip(row, vofs):
                        agg.enter(vf(eps))
                for eps in old or ():
                    for agg, vf in zip(row, vofs):
                        agg.leave(vf(eps))
            if not self.want_new:
                return None, old_rows
            ctx.row = aggs.ungrouped()
            return [build(())], old_rows
        old_rows = self._one() if self.want_old else None
        row = aggs.ungrouped()
        for eps in new or ():
            aggs.enter(row, eps)
        for eps in old or ():
            aggs.leave(row, eps)
        new_rows = self._one() if self.want_new else None
        return new_rows, old_rows

    def iterate(self, eps_list: Sequence[Eps]) -> list:
        return self._one() or []


class AggregatedUngroupedProcessor(_Base):
    kind = "aggregated-ungrouped"
    __slots__ = ()

    def process(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Rows, Rows]:
        aggs = self.aggs
        row = aggs.ungrouped()
        for eps in new or ():
            aggs.enter(row, eps)
        for eps in old or ():
            aggs.leave(row, eps)
        self.ctx.row = row
        return (self._rows(new) if new and self.want_new else None,
                self._rows(old) if old and self.want_old else None)

    def iterate(self, eps_list: Sequence[Eps]) -> list:
        self.ctx.row = self.aggs.ungrouped()
        return self._rows(eps_list) or []


class _Grouped(_Base):
    __slots__ = ("key_of", "key_types", "key_prop")

    def __init__(self, *args: Any, key_of: Callable[[Eps], Any], key_types: Sequence[Any], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.key_of = key_of
        self.key_types = tuple(key_types)
        # the map property the key is (epl.compiler.compiled's `map_property`), or None
        self.key_prop = getattr(key_of, "map_property", None)

    def _point(self, eps: Eps) -> None:
        self.ctx.row = self.aggs.peek(self.key_of(eps))


class RowPerGroupProcessor(_Grouped):
    kind = "row-per-group"
    __slots__ = ()

    def process(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Rows, Rows]:
        key_of, aggs = self.key_of, self.aggs
        if type(aggs) is AggregationRows and aggs.plain and self.shaper.plain:
            if new and len(new) == 1 and (not old or len(old) == 1):
                rows = self._slide(new[0], old[0] if old else None)
                if rows is not None:
                    return rows
            else:
                return self._batch(new, old)
        reps: dict[Any, Eps] = {}
        # one event in and at most one out is a sliding window's update: no loops for it
        if new and len(new) == 1:
            k = key_of(new[0])
            new_keys: Sequence[Any] = (k,)
            reps[k] = new[0]
        else:
            new_keys = []
            for eps in new or ():
                k = key_of(eps)
                new_keys.append(k)
                reps[k] = eps
        if old and len(old) == 1:
            k = key_of(old[0])
            old_keys: Sequence[Any] = (k,)
            reps[k] = old[0]
        else:
            old_keys = []
            for eps in old or ():
                k = key_of(eps)
                old_keys.append(k)
                reps[k] = eps
        order = hashmap_order(reps, self.key_types) if len(reps) > 1 else list(reps)
        old_rows = self._group_rows(order, reps) if self.want_old else None
        for k, eps in zip(new_keys, new or ()):
            aggs.enter_group(k, eps)
        for k, eps in zip(old_keys, old or ()):
            aggs.leave_group(k, eps)
        new_rows = self._group_rows(order, reps) if self.want_new else None
        return new_rows, old_rows

    def _slide(self, eps: Eps, oeps: Optional[Eps]) -> Optional[tuple[Rows, Rows]]:
        """`process([eps], [oeps] or None)` when both are of one group (a sliding window's
        update, unshaped rows, aggregations without `filter:`), in one frame; None when the
        events are of two groups (process then takes its general path)."""
        aggs = self.aggs
        prop = self.key_prop
        if prop is not None:
            k = eps[0].underlying.get(prop)
            ko = oeps[0].underlying.get(prop) if oeps is not None else None
        else:
            key_of = self.key_of
            k = key_of(eps)
            ko = key_of(oeps) if oeps is not None else None
        if oeps is not None:
            if ko is not k and ko != k:
                return None
            rep = oeps          # the later of the two in the update represents the group
        else:
            rep = eps
        groups, ctx, build = aggs.groups, self.ctx, self.select.build
        old_rows = None
        if self.want_old:
            row = groups.get(k)
            ctx.row = row if row is not None else aggs.new_row()
            old_rows = [build(rep)]
        row = groups.get(k)
        if row is None:
            row = groups[k] = aggs.new_row()
        vofs = aggs.value_ofs
        if len(vofs) == 1:
            agg = row[0]
            vf = vofs[0]
            vp = aggs.value_props[0]
            agg.enter(eps[0].underlying.get(vp) if vp is not None else vf(eps))
        else:
            for agg, vf in zip(row, vofs):
                agg.enter(vf(eps))
        refcounts = aggs.refcounts
        n = refcounts.get(k, 0) + 1
        if oeps is not None:
            if len(vofs) == 1:
                agg.leave(oeps[0].underlying.get(vp) if vp is not None else vf(oeps))
            else:
                for agg, vf in zip(row, vofs):
                    agg.leave(vf(oeps))
            n -= 1
            if n <= 0 and aggs.reclaim:
                del groups[k]
                refcounts.pop(k, None)
                row = None
                n = None
        if n is not None:
            refcounts[k] = n
        if not self.want_new:
            return None, old_rows
        ctx.row = row if row is not None else aggs.new_row()
        return [build(rep)], old_rows

    def _batch(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Rows, Rows]:
        """process for unshaped rows and aggregations without `filter:`: the same steps as
        the general path, in fused loops."""
        key_of, aggs = self.key_of, self.aggs
        new = new or ()
        old = old or ()
        prop = self.key_prop
        if prop is not None:
            new_keys = [eps[0].underlying.get(prop) for eps in new]
            old_keys = [eps[0].underlying.get(prop) for eps in old]
        else:
            new_keys = [key_of(eps) for eps in new]
            old_keys = [key_of(eps) for eps in old]
        reps: dict[Any, Eps] = dict(zip(new_keys, new))
        if old_keys:
            reps.update(zip(old_keys, old))
        order = hashmap_order(reps, self.key_types) if len(reps) > 1 else list(reps)
        old_rows = self._group_rows(order, reps) if self.want_old else None
        if new_keys:
            aggs.enter_groups(new_keys, new)
        if old_keys:
            aggs.leave_groups(old_keys, old)
        new_rows = self._group_rows(order, reps) if self.want_new else None
        return new_rows, old_rows

    def _group_rows(self, order: list, reps: dict) -> Rows:
        """A row per group, in `order`, from its representative event; the group's key is
        known, so unshaped rows skip computing it again."""
        if not self.shaper.plain:
            return self._rows([reps[k] for k in order], self._point)
        ctx, aggs, build = self.ctx, self.aggs, self.select.build
        if type(aggs) is AggregationRows:     # peek without its call
            get, make = aggs.groups.get, aggs.new_row
            rows = []
            for k in order:
                row = get(k)
                ctx.row = row if row is not None else make()
                rows.append(build(reps[k]))
            return rows or None
        peek = aggs.peek
        rows = []
        for k in order:
            ctx.row = peek(k)
            rows.append(build(reps[k]))
        return rows or None

    def iterate(self, eps_list: Sequence[Eps]) -> list:
        reps: dict[Any, Eps] = {}
        for eps in eps_list:
            reps.setdefault(self.key_of(eps), eps)
        return self._rows(list(reps.values()), self._point) or []


class AggregatedGroupedProcessor(_Grouped):
    kind = "aggregated-grouped"
    __slots__ = ()

    def process(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Rows, Rows]:
        key_of, aggs = self.key_of, self.aggs
        for eps in new or ():
            aggs.enter_group(key_of(eps), eps)
        for eps in old or ():
            aggs.leave_group(key_of(eps), eps)
        return (self._rows(new, self._point) if new and self.want_new else None,
                self._rows(old, self._point) if old and self.want_old else None)

    def iterate(self, eps_list: Sequence[Eps]) -> list:
        return self._rows(eps_list, self._point) or []


class RollupLevel:
    """One grouping level of `rollup`, `cube` or `grouping sets`: its key and the select,
    having and order-by compiled with the left-out group-by expressions as null."""

    __slots__ = ("key_of", "select", "having", "order_keys")

    def __init__(self, key_of: Callable[[Eps], Any], select: SelectEvaluator,
                 having: Optional[Callable[[Eps], Any]],
                 order_keys: Sequence[tuple[Callable[[Eps], Any], bool]]) -> None:
        self.key_of = key_of
        self.select = select
        self.having = having
        self.order_keys = tuple(order_keys)


class RollupProcessor(_Base):
    """Fully aggregated and grouped by rollup levels: per update, for each level in order, a
    row per group the update touched (groups in first-touched order), prior rows as the remove
    stream, as Esper's row-per-group-rollup."""

    kind = "row-per-group-rollup"
    __slots__ = ("levels",)

    def __init__(self, *args: Any, levels: Sequence[RollupLevel], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.levels = tuple(levels)

    def _touched(self, new: Sequence[Eps], old: Sequence[Eps]):
        bufs: list[dict] = [{} for _ in self.levels]
        new_keys = []
        for eps in new or ():
            keys = []
            for buf, lvl in zip(bufs, self.levels):
                k = lvl.key_of(eps)
                keys.append(k)
                buf[k] = eps
            new_keys.append(keys)
        old_keys = []
        for eps in old or ():
            keys = []
            for buf, lvl in zip(bufs, self.levels):
                k = lvl.key_of(eps)
                keys.append(k)
                buf[k] = eps
            old_keys.append(keys)
        return bufs, new_keys, old_keys

    def _keyed_rows(self, bufs: list[dict]) -> list:
        """((level, key), sort key, row) for every touched group that passes `having`."""
        ctx, aggs = self.ctx, self.aggs
        out = []
        for li, (buf, lvl) in enumerate(zip(bufs, self.levels)):
            for k, eps in buf.items():
                ctx.row = aggs.peek((li, k))
                if lvl.having is not None and lvl.having(eps) is not True:
                    continue
                sort_key = tuple(f(eps) for f, _ in lvl.order_keys) if lvl.order_keys else None
                out.append(((li, k), sort_key, lvl.select(eps)))
        return out

    def _level_rows(self, bufs: list[dict]) -> Rows:
        pairs = [(sk, row) for _, sk, row in self._keyed_rows(bufs)]
        if self.levels and self.levels[0].order_keys:
            pairs = self.shaper.order(pairs)
        return self.shaper.finish([r for _, r in pairs])

    def keyed_process(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[list, list]:
        """Like process, as ((level, group key), row) pairs (for `output last` per group)."""
        bufs, new_keys, old_keys = self._touched(new, old)
        old_pairs = [(gid, row) for gid, _, row in self._keyed_rows(bufs)] if self.want_old else []
        self._apply(new, old, new_keys, old_keys)
        new_pairs = [(gid, row) for gid, _, row in self._keyed_rows(bufs)] if self.want_new else []
        return new_pairs, old_pairs

    def _apply(self, new, old, new_keys, old_keys) -> None:
        aggs = self.aggs
        for eps, keys in zip(new or (), new_keys):
            for li, k in enumerate(keys):
                aggs.enter_group((li, k), eps)
        for eps, keys in zip(old or (), old_keys):
            for li, k in enumerate(keys):
                aggs.leave_group((li, k), eps)

    def process(self, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[Rows, Rows]:
        bufs, new_keys, old_keys = self._touched(new, old)
        old_rows = self._level_rows(bufs) if self.want_old else None
        self._apply(new, old, new_keys, old_keys)
        new_rows = self._level_rows(bufs) if self.want_new else None
        return new_rows, old_rows

    def iterate(self, eps_list: Sequence[Eps]) -> list:
        bufs, _, _ = self._touched(eps_list, ())
        return self._level_rows(bufs) or []


# -- from the plan (epl/plans/resultset.py) -----------------------------------------------------

_KINDS: dict[str, type] = {
    "simple": SimpleProcessor, "row-for-all": RowForAllProcessor,
    "aggregated-ungrouped": AggregatedUngroupedProcessor, "row-per-group": RowPerGroupProcessor,
    "aggregated-grouped": AggregatedGroupedProcessor, "row-per-group-rollup": RollupProcessor,
}


def select_evaluator(clause: SelectClause) -> SelectEvaluator:
    return SelectEvaluator(clause.names, clause.fns, clause.out_type, clause.passthrough,
                           clause.wildcard_streams)


def _shared(plan: ResultSetPlan) -> tuple:
    """The select evaluator, row shaper and rollup levels of a processor (they hold no state).
    Made per instance: a cache by plan would keep the plan's engine alive through the
    compiled closures the evaluator holds."""
    shape = plan.shape
    shaper = RowShaper(shape.having, shape.order_keys, shape.distinct, shape.limit, shape.offset)
    levels = tuple(RollupLevel(lv.key_of, select_evaluator(lv.select), lv.having, lv.order_keys)
                   for lv in plan.levels)
    return select_evaluator(plan.select), shaper, levels


def _aggregation_rows(plan: ResultSetPlan) -> Any:
    agg = plan.aggregation
    if agg is None:
        return None
    if plan.into_table is not None:
        into = plan.into_table      # the table's rows are the aggregation's
        return into.table.aggregation_rows(agg.entries, into.columns)
    if agg.aged_ms is not None and agg.clock is not None:
        from .aged_rows import AgedAggregationRows
        return AgedAggregationRows(agg.entries, agg.reclaim, agg.clock, agg.aged_ms, agg.freq_ms)
    return AggregationRows(agg.entries, agg.reclaim)


def make_processor(plan: ResultSetPlan) -> _Base:
    """A fresh result-set processor (its own aggregation state) for one statement instance,
    or one fire-and-forget query / on-select trigger."""
    cls = _KINDS[plan.kind]
    select, shaper, levels = _shared(plan)
    if plan.aggregation is None:
        return cls(select, shaper, plan.want_new, plan.want_old)
    aggs = _aggregation_rows(plan)
    ctx = plan.aggregation.context
    if levels:
        return cls(select, shaper, plan.want_new, plan.want_old, ctx, aggs, levels=levels)
    if plan.key_of is not None:
        return cls(select, shaper, plan.want_new, plan.want_old, ctx, aggs,
                   key_of=plan.key_of, key_types=plan.key_types)
    return cls(select, shaper, plan.want_new, plan.want_old, ctx, aggs)
