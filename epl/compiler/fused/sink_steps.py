"""The shared parts of a fused window sink's source: aggregator steps on state locals, a row, tables."""
from __future__ import annotations

from typing import Sequence

from .codegen import _ident, _row_source, _update
from .shape import Shape


def _steps(shape: Shape, classes: Sequence[str], u: str, enter: bool, ind: str, load: bool) -> list[str]:
    """Enter (or leave) the values of the event whose underlying is `u` into the
    aggregators a0, a1, ... (read from `row` first when `load`): codegen's `_update`, every
    property read from the event."""
    return _update(shape, classes, u, enter, ind, {}, load)


# the inlined aggregators' state fields, held in locals (`n<i>`, `t<i>`) over a loop of
# events and stored back after it, and their enter/leave steps on those locals (the same
# steps as engine.aggregation.basic's methods)
_FIELDS = {"CountAll": ("n",), "CountValues": ("n",), "FloatSum": ("n", "total"),
           "FloatAvg": ("n", "total"), "IntSum32": ("n", "total"), "IntSum64": ("n", "total")}
_LOCAL_ENTER = {
    "CountAll": ["{n} += 1"],
    "CountValues": ["if {v} is not None:", "    {n} += 1"],
    "FloatSum": ["if {v} is not None:", "    {t} += {v} if type({v}) is float else float({v})", "    {n} += 1"],
    "IntSum32": ["if {v} is not None:", "    {t} += {v} if type({v}) is int else int({v})", "    {n} += 1"],
}
_LOCAL_LEAVE = {
    "CountAll": ["if {n} > 0:", "    {n} -= 1"],
    "CountValues": ["if {v} is not None and {n} > 0:", "    {n} -= 1"],
    "FloatSum": ["if {v} is not None:", "    if {n} <= 1:", "        {n} = 0", "        {t} = 0.0",
                 "    else:", "        {t} -= {v} if type({v}) is float else float({v})", "        {n} -= 1"],
    "IntSum32": ["if {v} is not None:", "    if {n} <= 1:", "        {n} = 0", "        {t} = 0",
                 "    else:", "        {t} -= {v} if type({v}) is int else int({v})", "        {n} -= 1"],
}
for _t in (_LOCAL_ENTER, _LOCAL_LEAVE):
    _t["FloatAvg"], _t["IntSum64"] = _t["FloatSum"], _t["IntSum32"]


def _load(classes: Sequence[str], ind: str) -> list[str]:
    """The aggregators' state into locals (inlined ones)."""
    out = []
    for i, cls in enumerate(classes):
        for f in _FIELDS.get(cls, ()):
            out.append(f"{ind}{f[0]}{i} = a{i}.{f}")
    return out


def _store(classes: Sequence[str], ind: str) -> list[str]:
    out = []
    for i, cls in enumerate(classes):
        for f in _FIELDS.get(cls, ()):
            out.append(f"{ind}a{i}.{f} = {f[0]}{i}")
    return out


def _local_steps(shape: Shape, classes: Sequence[str], u: str, enter: bool, ind: str) -> list[str]:
    """_steps on the state locals of the inlined aggregators (between _load and _store)."""
    out = []
    table = _LOCAL_ENTER if enter else _LOCAL_LEAVE
    read: dict[str, str] = {}           # each property read once per event
    for i, (agg, cls) in enumerate(zip(shape.aggs, classes)):
        v = f"v{i}"
        if agg.prop is not None:
            if agg.prop in read:
                v = read[agg.prop]
            else:
                read[agg.prop] = v
                out.append(f"{v} = {u}.get({_ident(agg.prop)!r})")
        tmpl = table.get(cls)
        if tmpl is None:
            out.append(f"a{i}.{'enter' if enter else 'leave'}({v if agg.prop is not None else 'None'})")
        else:
            out.extend(t.format(n=f"n{i}", t=f"t{i}", v=v) for t in tmpl)
    return [ind + line for line in out]


# integer sums' values inlined (codegen.INLINE_VALUE's others): IntSum.value, the wrap
# called only past the type's range
_INT_VALUE = {"IntSum32": ("(({a}.total if -2147483648 <= {a}.total <= 2147483647 else {a}.wrap({a}.total))"
                           " if {a}.n else None)"),
              "IntSum64": ("(({a}.total if -9223372036854775808 <= {a}.total <= 9223372036854775807 else "
                           "{a}.wrap({a}.total)) if {a}.n else None)")}


def _inline_sums(row: str, classes: Sequence[str]) -> str:
    """codegen's row source with the integer sums' `a<i>.value()` calls written out."""
    for i, cls in enumerate(classes):
        tmpl = _INT_VALUE.get(cls)
        if tmpl is not None:
            row = row.replace(f"a{i}.value()", tmpl.format(a=f"a{i}"))
    return row


def _row(shape: Shape, classes: Sequence[str], names: Sequence[str], ind: str, load: bool,
         target: str, row: str = "row") -> list[str]:
    """Lines building the output row of the current aggregators (and the group's
    representative underlying `ru`) into the local `target`."""
    L = []
    if load:
        used = sorted({what for kind, what in shape.columns if kind == "agg"})
        L += [f"a{int(i)} = {row}[{int(i)}]" for i in used]
    # EventBean(type, underlying) without its __init__ frame: the same two slots
    L += [f"{target} = _new_bean(_Bean)", f"{target}.event_type = _out_type",
          f"{target}.underlying = {_inline_sums(_row_source(shape, classes, names), classes)}"]
    return [ind + line for line in L]


# aggregators whose state after leaving a batch's values one by one equals their state less
# what entering those values added (integer arithmetic: no rounding)
_EXACT = frozenset(("CountAll", "CountValues", "IntSum32", "IntSum64"))


GROUPS = ["groups = _groups", "get = groups.get", "refc = _refc", "count = refc.get"]


def holds_raw(shape: Shape) -> bool:
    """Whether a fused time batch's batches hold, after the bean of their first event
    (every batch begins with one: TimeBatchWindow.update), the underlying dicts of the
    later events of that bean's type in place of beans (the sink reads nothing else of
    them, and no where clause takes beans; the window, engine/fused_windows.py
    RawBatchWindow, makes beans of them when iterated): a grouped statement without a
    where clause, whose batches the timed loop splits as it fills them (and, for a summed
    property, on_event and send's front too: _split_lines)."""
    return shape.window == "time_batch" and shape.group is not None and not shape.where
