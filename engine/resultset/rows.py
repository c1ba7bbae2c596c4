"""Output rows of a select clause over a fixed set of matched events (on-select triggers,
fire-and-forget queries): a fresh result-set processor per trigger or query, fed the matched
events-per-stream tuples once (the plan: epl/compiler/rowselect.py, RowsPlan)."""
from __future__ import annotations

from typing import Any, Sequence

from .processors import make_processor


def select_rows(plan: Any, eps_list: Sequence[Sequence[Any]], empty_aggregate: bool = False) -> list:
    """Output rows for the matched events-per-stream tuples (a fresh aggregation each call).
    With `empty_aggregate`, an aggregate over no rows still yields its one row."""
    if not eps_list and not empty_aggregate:
        return []
    proc = make_processor(plan.result_set)
    new, _ = proc.process(list(eps_list), [])
    if new is None and not eps_list and proc.kind == "row-for-all":
        new = proc.iterate([])
    return new or []
