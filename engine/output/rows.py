"""Rows for output-limited delivery: each row with its order-by key, so that a whole batch can
be ordered when it is output (Esper orders the batch, not each update), then made distinct
and limited by the statement's row shaper; and the aggregation steps the batches share."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, Sequence

from engine.resultset.processors import passes_having

Eps = Sequence[Any]
Pair = tuple  # (order-by key or None, row)
Rows = Optional[list]


def _sort_key(order_keys: Sequence[Any], eps: Eps) -> tuple:
    """The order-by values of a row; all null for a fully aggregated row (no event to read)."""
    if not eps:
        return (None,) * len(order_keys)
    return tuple(f(eps) for f, _ in order_keys)


def keyed(p: Any, eps_list: Iterable[Eps], point: Optional[Callable[[Eps], None]] = None) -> list[Pair]:
    """Rows of `eps_list` that pass `having`, with their sort keys; `point(eps)` first aims the
    aggregation context at the event's group."""
    shaper = p.shaper
    having = shaper.having
    order_keys = shaper.order_keys
    select = p.select
    out = []
    for eps in eps_list:
        if point is not None:
            point(eps)
        if having is not None and not passes_having(having, eps):
            continue
        key = _sort_key(order_keys, eps) if order_keys else None
        out.append((key, select(eps)))
    return out


def keyed_groups(p: Any, items: Iterable[tuple[Any, Eps]]) -> list[Pair]:
    """Rows for (group key, representative event) items, each read against its group's
    current aggregates."""
    ctx, aggs = p.ctx, p.aggs
    shaper = p.shaper
    having = shaper.having
    order_keys = shaper.order_keys
    select = p.select
    out = []
    for key, eps in items:
        ctx.row = aggs.peek(key)
        if having is not None and not passes_having(having, eps):
            continue
        sort_key = _sort_key(order_keys, eps) if order_keys else None
        out.append((sort_key, select(eps)))
    return out


def finish(p: Any, pairs: Sequence[Pair]) -> Rows:
    """Order the batch's rows, then distinct and limit; None when nothing remains."""
    if not pairs:
        return None
    shaper = p.shaper
    if shaper.order_keys:
        pairs = shaper.order(list(pairs))
    return shaper.finish([r for _, r in pairs])


def apply_ungrouped(p: Any, new: Sequence[Eps], old: Sequence[Eps]) -> list:
    """Let one view update enter and leave the ungrouped aggregation; returns its row."""
    aggs = p.aggs
    row = aggs.ungrouped()
    for eps in new:
        aggs.enter(row, eps)
    for eps in old:
        aggs.leave(row, eps)
    return row


def apply_grouped(p: Any, new: Sequence[Eps], old: Sequence[Eps]) -> tuple[list, list]:
    """Let one view update enter and leave its groups; returns the group keys of the insert
    and of the remove events."""
    key_of, aggs = p.key_of, p.aggs
    new_keys = [key_of(eps) for eps in new]
    old_keys = [key_of(eps) for eps in old]
    for k, eps in zip(new_keys, new):
        aggs.enter_group(k, eps)
    for k, eps in zip(old_keys, old):
        aggs.leave_group(k, eps)
    return new_keys, old_keys


def forget_ended(p: Any, reps: dict) -> None:
    """After an output: drop the groups whose aggregation ended. Esper outputs such a group
    once more, with fresh (null) aggregates, and forgets it when it next touches the group's
    aggregation."""
    aggs = p.aggs
    if aggs.reclaim:
        groups = aggs.groups
        for k in [k for k in reps if k not in groups]:
            del reps[k]
