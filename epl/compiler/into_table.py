"""`into table T select ...`: the select plan's aggregations named like T's aggregation
columns aggregate into T's rows (the group-by keys are T's primary key)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import epl.ast as A
from engine.contracts.errors import EPLValidationError
from epl.ast.walk import walk
from epl.compiler.context_use import check_context_use
from epl.compiler.core import expr_text

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def compile_into_table(plan: Any, node: A.SelectStatement, engine: "Runtime", text: str) -> Any:
    """Point the plan's aggregations named like the table's aggregation columns at the table's
    rows; the group-by keys are the table's primary key."""
    import dataclasses

    from engine.contracts.aggregation import is_aggregation as _is_aggregation

    def is_aggregation(name: str) -> bool:      # registered aggregations count too
        return _is_aggregation(name, engine.aggregations)

    from epl.plans.resultset import IntoTable

    table = engine.services.named_windows.get(node.into_table)
    if table is None or not table.is_table:
        raise EPLValidationError(f"A table by name '{node.into_table}' has not been declared", text)
    check_context_use(table, node.context, text)
    if any(isinstance(g, A.GroupingSet) for g in node.group_by):
        raise EPLValidationError("Grouping sets cannot aggregate into a table", text)
    if len(node.group_by) != len(table.primary_keys):
        raise EPLValidationError(
            f"Incompatible number of group-by expressions for use with table '{table.name}', the "
            f"table expects {len(table.primary_keys)} primary key(s) and the statement groups by "
            f"{len(node.group_by)}", text)
    texts = _aggregation_texts([i.expr for i in node.select.items] + [node.having] +
                               [o.expr for o in node.order_by], is_aggregation, expr_text)
    columns: list = [None] * len(texts)
    targeted = 0
    for item in node.select.items:
        e = item.expr
        if not (isinstance(e, A.Call) and is_aggregation(e.name.lower())):
            continue
        col = item.alias or expr_text(e)
        if col not in table.aggregation_columns:
            continue
        ci = table.aggregation_columns.index(col)
        declared = _declared_function(table, col, engine)
        if declared == "countminsketch" and e.name.lower() == "countminsketchadd":
            declared = "countminsketchadd"      # the sketch column takes what is added to it
        if declared is not None and declared != e.name.lower():
            raise EPLValidationError(f"Incompatible aggregation function for table '{table.name}' "
                                     f"column '{col}', expecting '{declared}' and received "
                                     f"'{e.name.lower()}'", text)
        columns[texts.index(expr_text(e))] = ci
        targeted += 1
    if not targeted:
        raise EPLValidationError(f"The select clause does not aggregate into any aggregation column "
                                 f"of table '{table.name}'", text)
    # the processor's aggregation rows are the table's (engine/resultset/processors.py); a
    # context partition aggregates into its own table (engine.contexts binds it)
    into = IntoTable(table, tuple(columns))
    return dataclasses.replace(plan, result_set=dataclasses.replace(plan.result_set, into_table=into))


def _declared_function(table: Any, column: str, engine: "Runtime") -> Any:
    return table.declarations.get(column)


def _aggregation_texts(exprs: list, is_aggregation: Any, expr_text: Any) -> list[str]:
    """Aggregation calls in the order the select compiler collects them (one per text)."""
    out: list[str] = []

    def is_agg(n: Any) -> bool:
        return isinstance(n, A.Call) and is_aggregation(n.name.lower()) and not (
            n.name.lower() in ("max", "min") and len(n.args) >= 2)
    for e in exprs:
        if e is not None:
            for n in walk(e, prune=is_agg):      # pre-order, as the select compiler collects
                if is_agg(n):
                    t = expr_text(n)
                    if t not in out:
                        out.append(t)
    return out
