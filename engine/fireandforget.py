"""Running a compiled fire-and-forget query (epl/compiler/fireandforget.py): a select's rows
over a named window or table (in each partition, when the query names a context), or the
insert, update or delete the compiler made into a function."""
from __future__ import annotations

from typing import Any

from .resultset.rows import select_rows


def run_query(query: Any) -> list:
    """The rows the query selected, inserted, updated or deleted."""
    if callable(query):
        return query()
    holder = query.holder
    if holder is None:
        return _over(query, query.target)
    # Esper: with the context named, the query runs in each partition with its context
    # properties; the partitions' rows follow one another (oldest partition first)
    out: list = []
    for p, inst in query.target.partitions():
        holder.properties = p.props
        out.extend(_over(query, inst))
    return out


def _over(query: Any, events: Any) -> list:
    eps = [(b,) for b in events]
    for p in query.predicates:
        eps = [e for e in eps if p(e)]
    return select_rows(query.rows, eps, empty_aggregate=True)
