"""Fused code for a statement inside a keyed context: the shapes of shape.py declared with
`context C` (and properties of the event beside ungrouped aggregations), run for every
partition by one generated function given the partition's state (its window, aggregation
rows and context properties).

The per-partition state is a tuple laid out by `state_names`; the generated function unpacks
it into locals of the same names the shared body (codegen.body) reads as globals."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import epl.ast as A

from .codegen import (BUILTINS, INLINE_VALUE, LOCAL_VALUE, _ident, body, check_lines, direct_delivery,
                      fault_lines, hoisted, kept_prelude, kept_values, local_values, read_lines,
                      used_properties)
from .shape import Shape, _simple_property, analyze

# annotations that change only the order of the statement's handle (it carries the
# statement's own order and @drop flag, as the partition handles of the general chain do)
_ORDER_ANNOTATIONS = frozenset({"priority", "drop"})


@dataclass(frozen=True)
class ContextShape:
    """A fused context statement: `base` is the Shape of its aggregations; `columns` the
    select list in order: ('prop', p) the group-by property, ('event', p) a property of the
    new event beside ungrouped aggregations (`per_event`: a row per new event, as Esper's
    aggregated-ungrouped result set), ('agg', i) an aggregation of `base`."""

    base: Shape
    columns: tuple[tuple[str, Any], ...]
    per_event: bool


def analyze_in_context(node: Any) -> Optional[ContextShape]:
    """The shape of `context C <select>` when the select itself is of a fused shape, or
    selects properties of the event beside ungrouped aggregations."""
    if not isinstance(node, A.SelectStatement) or node.context is None:
        return None
    keep = tuple(a for a in node.annotations if a.name.lower() not in _ORDER_ANNOTATIONS)
    node = dataclasses.replace(node, context=None, annotations=keep)
    shape = analyze(node)
    if shape is not None:
        return ContextShape(shape, shape.columns, False)
    if node.group_by:
        return None
    items = node.select.items
    props = [None if item.event_bean else _simple_property(item.expr) for item in items]
    if all(p is None for p in props):
        return None
    rest = tuple(item for item, p in zip(items, props) if p is None)
    shape = analyze(dataclasses.replace(node, select=dataclasses.replace(node.select, items=rest)))
    if shape is None or shape.group is not None:
        return None
    aggs = iter(shape.columns)
    columns = tuple(("event", p) if p is not None else next(aggs) for p in props)
    return ContextShape(shape, columns, True)


def state_names(cshape: ContextShape) -> tuple[str, ...]:
    """The names of a partition's state tuple, in order: its context properties, then the
    window and aggregation objects the body reads."""
    shape = cshape.base
    names = ["_props"]
    if shape.length is not None:
        names += ["_events"] if shape.groupwin is None else ["_gw", "_gwgroups", "_wins"]
    names += ["_groups", "_refc", "_new_row"] if shape.group is not None else ["_single"]
    return tuple(names)


# the globals engine/contexts/keyed_fused.py binds before it runs the module, besides
# `_ok<i>`/`_t<i>`
_BOUND = ("_Bean", "_new_bean", "_out_type", "_where", "_stmt", "_holder", "_failed", "_wrap32",
          "_wrap64", "_epoch", "_late_sub", "_Loop", "_Spent", "_et", "_rc")
# (and `_kept_classes`, which only the module's first line calls: kept_prelude)


# integral sums read inline: the total, wrapped to the column's width as the aggregator's
# value() does (Java int/long overflow) only when out of range
_INT_BITS = {"IntSum32": 32, "IntSum64": 64}


def _value(cls: str, a: str, local: Optional[int] = None) -> str:
    """An aggregation's value inline; with `local`, from the locals t<i>/c<i> the batch
    loop's update left (codegen.LOCAL_VALUE)."""
    bits = _INT_BITS.get(cls)
    if local is not None:
        t, c = f"t{int(local)}", f"c{int(local)}"
        if bits is not None:
            lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
            return f"(({t} if {int(lo)} <= {t} <= {int(hi)} else _wrap{int(bits)}({t})) if {c} else None)"
        if cls in LOCAL_VALUE:
            return LOCAL_VALUE[cls].format(i=int(local))
    if bits is not None:
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        return f"(({a}.total if {int(lo)} <= {a}.total <= {int(hi)} else _wrap{int(bits)}({a}.total)) if {a}.n else None)"
    tmpl = INLINE_VALUE.get(cls)
    return f"{a}.value()" if tmpl is None else tmpl.format(a=a)


def _row(cshape: ContextShape, classes: Sequence[str], names: Sequence[str], pre: dict[str, str],
         recycle: bool = False) -> str:
    """The output row: the group's property (`ru`, as codegen's row; `rk` in the batch
    loop's body), the new event's properties (`u`, or the local `pre` read it into) and the
    aggregations (from the locals the batch loop's update left, where it left them)."""
    locals_of = local_values(classes) if recycle and cshape.base.length is not None else {}
    parts = []
    for name, (kind, what) in zip(names, cshape.columns):
        if kind == "event":
            val = pre.get(what) or f"u.get({_ident(what)!r})"
        elif kind == "prop":
            val = "rk" if recycle and cshape.base.length is not None else f"ru.get({_ident(what)!r})"
        else:
            val = _value(classes[what], f"a{int(what)}", what if what in locals_of else None)
        parts.append(f"{str(name)!r}: {val}")
    return "{" + ", ".join(parts) + "}"


def generate_partitioned(cshape: ContextShape, classes: Sequence[str], names: Sequence[str],
                         reclaim: bool, key: Optional[str] = None, checked: Sequence[str] = ()) -> str:
    """The module source defining `on_event(st, bean)`: the fused steps for an event of
    the partition whose state tuple is `st` (each partition's filter handle calls it with
    its own state bound first); and with `key` (the partition key property of the
    statement's events) `run(...)`, send_many's loop over a batch when the statement's
    partitions and the context's creating filter are the only filters on the type (see
    engine/contexts/keyed_fused.py `run_batch`), else `run = None`. `checked`: the
    properties send's type check tests, each against the global `_ok<i>` (as codegen.generate)."""
    shape = cshape.base
    props = used_properties(shape)
    pre = {p: f"p{i}" for i, p in enumerate(props)}
    # beans that keep only the values the statement reads (codegen.kept_values): not with a
    # row per event, whose columns read other properties of the events in the window
    kept = None if cshape.per_event else kept_values(shape)

    def steps_of(recycle: bool, pre: dict[str, str]) -> list[str]:
        b = body(shape, classes, names, reclaim, pre, recycle, recycle and kept is not None)
        # the body's last line sets the row: here with integral sums inline, and for a
        # per-event statement the new event's (none without one)
        last = b[-1]
        indent = last[:len(last) - len(last.lstrip())]
        if not last.lstrip().startswith("out.underlying = "):
            raise ValueError("unexpected fused body")
        b[-1] = indent + f"out.underlying = {_row(cshape, classes, names, pre, recycle and not shape.where)}"
        if cshape.per_event and shape.where:
            b += [indent + "if not np:", indent + "    out = None"]
        return b
    b = steps_of(False, pre)
    steps = ["    u = bean.underlying"]
    steps += [f"    {pre[p]} = u.get({_ident(p)!r})" for p in props]
    steps.append("    " + ", ".join(state_names(cshape)) + " = st")
    if shape.where:     # a where clause may read context properties
        steps.append("    _holder.properties = _props")
    steps += ["    " + line for line in b]
    src = ["def on_event(st, bean):"] + steps
    if key is not None:
        src = kept_prelude(kept) + src
    if shape.where or cshape.per_event:
        src += ["    if out is not None:", "        _stmt._emit([out], None)", ""]
    else:
        src += ["    _stmt._emit([out], None)", ""]
    if key is None:
        return "\n".join(src + ["run = None", ""])
    # the loop reads the key (and the checked properties) once too
    seen = dict(pre)
    if key not in seen:
        seen[key] = "pk"
    key_expr = seen[key]
    ind = " " * 16
    head = len(src)
    src += ["    stmt = _stmt",
            # the receivers and the type's route as they are now: valid while the change
            # counter (_epoch, bumped by every listener or subscriber change, type removal
            # and route change) stays at e0
            "    e0 = _epoch.n",
            "    ls0 = stmt._listeners",
            "    fn1 = ls0[0][0] if stmt._listeners_only and len(ls0) == 1 and ls0[0][1] == 2 \\",
            "        and stmt._subscriber is None else None",
            "    empty = None if engine.none_for_empty else ()",
            "    feed = engine.feed",
            "    expected = filters._filters",
            # evaluation faults name the current statement (a where clause evaluates)
            "    engine.current_statement = stmt",
            "    spare = None",
            "    for j in range(i, n):",
            "        u = events[j]",
            "        if type(u) is not dict:",
            "            return j"]
    src += read_lines([(v, p) for p, v in seen.items()], "        ")
    src += check_lines(checked, seen, "        ")
    make = ["bean = _new_bean(_Bean)", "bean.event_type = et", "bean.underlying = u"]
    src += [f"        st = states.get({key_expr})",
            "        if st is None:"]
    # a new key: the creator, as routing hands it (the new partition sees it there)
    src += ["            " + x for x in make]
    src += ["            feed(bean, creator)",
            "            expected = filters._filters",
            "            engine.current_statement = stmt",
            "        else:"]
    # without a where clause the body makes the bean, reusing the one the partition's
    # full window expels (codegen._stable_body)
    src += ["            " + x for x in make] if shape.where else ["            bean = None"]
    src += ["            try:",
            "                " + ", ".join(state_names(cshape)) + " = st"]
    if shape.where:
        src.append(ind + "_holder.properties = _props")
    src += [ind + line for line in (b if shape.where else steps_of(True, seen))]
    src += ["            except Exception as exc:   # the statement skips the event (engine/faults.py)"]
    src += ["                _failed(engine, stmt, bean, exc)"] if shape.where else fault_lines("                ")
    src += ["                out = None",
            "            if out is not None:",
            *direct_delivery("                "),
            "                else:",
            "                    stmt._emit([out], None)",
            "        if engine.pending:",
            "            engine.drain()",
            "            if _epoch.n != e0:",
            "                return j + 1",
            "            engine.current_statement = stmt",
            # (a change of the type's route moves the counter too: filterindex/tree.py)
            "        if _epoch.n != e0 or filters._filters != expected:",
            "            return j + 1",
            "    return n", ""]
    # the globals the loop reads, as locals (codegen.hoisted; keyed_fused.py binds them)
    names = [*_BOUND, *BUILTINS, *(f"_ok{i}" for i in range(len(checked))),
             *(f"_t{i}" for i in range(len(checked)))]
    src.insert(head, "def run(engine, events, i, n, check, find, type_name, states, creator, filters, route, et"
               f"{hoisted(src[head:], names)}):")
    return "\n".join(src)
