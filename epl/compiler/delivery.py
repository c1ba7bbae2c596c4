"""The for-clause: `for discrete_delivery` calls listeners once per output row, `for
grouped_delivery(exprs)` once per group of rows with equal expression values (groups in
order of first appearance; the insert stream's rows of a group, then its remove stream's)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def delivery_splitter(clause: Any, statement: Any, engine: "Runtime", text: str
                      ) -> Optional[Callable[[Optional[list], Optional[list]], Iterator[tuple]]]:
    """How the statement's batch (new, old) is split into listener calls; None without a
    for-clause. Grouping expressions read the statement's output rows."""
    if clause is None:
        return None
    if clause.kind == "discrete_delivery":
        return _discrete
    key_of = _key_function(clause.exprs, statement, engine, text)

    def grouped(new: Optional[list], old: Optional[list]) -> Iterator[tuple]:
        groups: dict[Any, list] = {}
        for rows, side in ((new, 0), (old, 1)):
            for row in rows or ():
                entry = groups.get(k := key_of(row))
                if entry is None:
                    entry = groups[k] = [[], []]
                entry[side].append(row)
        if not groups:
            yield new, old
        for n, o in groups.values():
            yield (n or None), (o or None)
    return grouped


def _discrete(new: Optional[list], old: Optional[list]) -> Iterator[tuple]:
    if not new and not old:
        yield new, old
        return
    for row in new or ():
        yield [row], None
    for row in old or ():
        yield None, [row]


def _key_function(exprs: tuple, statement: Any, engine: "Runtime", text: str) -> Callable[[Any], Any]:
    from epl.compiler.core import compile_expr
    from epl.compiler.scope import Scope, StreamInfo
    from engine.contracts.errors import EPLValidationError
    out_type = statement.event_type
    if out_type is None:
        raise EPLValidationError("The for-clause 'grouped_delivery' needs a statement with "
                                 "output rows", text)
    scope = Scope(streams=[StreamInfo(0, out_type, None, out_type.name)],
                  functions=engine.functions, variables=engine.services.variables,
                  epl=text)
    fns = tuple(compile_expr(e, scope).fn for e in exprs)
    if len(fns) == 1:
        f = fns[0]
        return lambda row: _hashable(f((row,)))
    return lambda row: tuple(_hashable(fn((row,))) for fn in fns)


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted(v.items()))
    return v
