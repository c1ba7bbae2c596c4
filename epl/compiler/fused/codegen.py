"""The source of a fused statement: one function per event (`on_event`, for the filter
index's handle) and one batch loop (`run`, for send_many when the statement is the only
consumer of its event type), both with the window, where, aggregation and select steps
inlined, in the order the general chain takes them.

Names and literals reach the source only through repr() of validated identifiers and ints;
everything else is a global of the generated module (`_`-prefixed names bound by
engine/fused.py)."""
from __future__ import annotations

import io
import tokenize
from typing import Any, Iterable, Optional, Sequence

from .shape import Shape

# how each aggregator class is updated and read inline (by the class's name in
# engine.aggregation.basic); anything else is called through enter/leave/value
INLINE_ENTER = {
    "CountAll": ["{a}.n += 1"],
    "CountValues": ["if {v} is not None:", "    {a}.n += 1"],
    "FloatSum": ["if {v} is not None:", "    {a}.total += {v} if type({v}) is float else float({v})",
                 "    {a}.n += 1"],
    "IntSum32": ["if {v} is not None:", "    {a}.total += {v} if type({v}) is int else int({v})",
                 "    {a}.n += 1"],
}
INLINE_ENTER["FloatAvg"] = INLINE_ENTER["FloatSum"]
INLINE_ENTER["IntSum64"] = INLINE_ENTER["IntSum32"]
INLINE_LEAVE = {
    "CountAll": ["if {a}.n > 0:", "    {a}.n -= 1"],
    "CountValues": ["if {v} is not None and {a}.n > 0:", "    {a}.n -= 1"],
    "FloatSum": ["if {v} is not None:", "    if {a}.n <= 1:", "        {a}.n = 0", "        {a}.total = 0.0",
                 "    else:", "        {a}.total -= {v} if type({v}) is float else float({v})",
                 "        {a}.n -= 1"],
    "IntSum32": ["if {v} is not None:", "    if {a}.n <= 1:", "        {a}.n = 0", "        {a}.total = 0",
                 "    else:", "        {a}.total -= {v} if type({v}) is int else int({v})",
                 "        {a}.n -= 1"],
}
INLINE_LEAVE["FloatAvg"] = INLINE_LEAVE["FloatSum"]
INLINE_LEAVE["IntSum64"] = INLINE_LEAVE["IntSum32"]
# one event in and one out of a full window, in one step: the enter and then the leave of
# INLINE_ENTER/INLINE_LEAVE with the same result (the same IEEE operations in the same order),
# without storing the state between them ({v} enters, {w} leaves)
def _leaving(lines: list[str]) -> list[str]:
    return [x.replace("{v}", "{w}") for x in lines]


INLINE_SLIDE = {
    "CountAll": [],          # in and out: the count stays (it is at least 1 between them)
    "CountValues": ["if {v} is not None:", "    if {w} is None:", "        {a}.n += 1",
                    "elif {w} is not None and {a}.n > 0:", "    {a}.n -= 1"],
    # (two doubles, the common case, first: the same operations without the conversions)
    "FloatSum": ["if type({v}) is float and type({w}) is float:",
                 "    if {a}.n > 0:",
                 "        {a}.total = ({a}.total + {v}) - {w}",
                 "    else:",
                 "        {a}.total = 0.0",
                 "elif {v} is not None and {w} is not None:",
                 "    if {a}.n > 0:",
                 "        {a}.total = ({a}.total + ({v} if type({v}) is float else float({v}))) - "
                 "({w} if type({w}) is float else float({w}))",
                 "    else:         # entered as the only value, then left: a fresh sum",
                 "        {a}.total = 0.0",
                 "else:"] + ["    " + x for x in INLINE_ENTER["FloatSum"] + _leaving(INLINE_LEAVE["FloatSum"])],
    "IntSum32": ["if type({v}) is int and type({w}) is int:",
                 "    if {a}.n > 0:",
                 "        {a}.total = ({a}.total + {v}) - {w}",
                 "    else:",
                 "        {a}.total = 0",
                 "elif {v} is not None and {w} is not None:",
                 "    if {a}.n > 0:",
                 "        {a}.total = ({a}.total + ({v} if type({v}) is int else int({v}))) - "
                 "({w} if type({w}) is int else int({w}))",
                 "    else:",
                 "        {a}.total = 0",
                 "else:"] + ["    " + x for x in INLINE_ENTER["IntSum32"] + _leaving(INLINE_LEAVE["IntSum32"])],
}
INLINE_SLIDE["FloatAvg"] = INLINE_SLIDE["FloatSum"]
INLINE_SLIDE["IntSum64"] = INLINE_SLIDE["IntSum32"]
INLINE_VALUE = {
    "CountAll": "{a}.n",
    "CountValues": "{a}.n",
    "FloatSum": "({a}.total if {a}.n else None)",
    "FloatAvg": "({a}.total / {a}.n if {a}.n else None)",
}


def _ident(name: str) -> str:
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"not an identifier: {name!r}")
    return name


def _read(u: str, prop: str, pre: dict[str, str]) -> str:
    """A property of the new event (`u`) is read once, into a local, before the steps."""
    if u == "u" and prop in pre:
        return pre[prop]
    return f"{u}.get({_ident(prop)!r})"


def _update(shape: Shape, classes: Sequence[str], u: str, enter: bool, ind: str,
            pre: dict[str, str], load: bool = True) -> list[str]:
    """Enter (or leave) the values of the event whose underlying is `u` into row `row`
    (its aggregators already in locals a0, a1, ... unless `load`)."""
    out = []
    table = INLINE_ENTER if enter else INLINE_LEAVE
    for i, (agg, cls) in enumerate(zip(shape.aggs, classes)):
        a, v = f"a{i}", f"v{i}"
        if load:
            out.append(f"{a} = row[{i}]")
        if agg.prop is not None:
            out.append(f"{v} = {_read(u, agg.prop, pre)}")
        tmpl = table.get(cls)
        if tmpl is None:
            out.append(f"{a}.{'enter' if enter else 'leave'}({v if agg.prop is not None else 'None'})")
        else:
            out.extend(t.format(a=a, v=v) for t in tmpl)
    return [ind + line for line in out]


def _slide(shape: Shape, classes: Sequence[str], ou: str, ind: str, pre: dict[str, str]) -> list[str]:
    """The new event (`u`) enters and the expelled one (underlying `ou`) leaves the
    aggregators a0, a1, ... (in locals): per aggregator, its enter then its leave."""
    out = []
    for i, (agg, cls) in enumerate(zip(shape.aggs, classes)):
        a, v, w = f"a{i}", f"v{i}", f"w{i}"
        if agg.prop is not None:
            out += [f"{v} = {_read('u', agg.prop, pre)}", f"{w} = {ou}.get({_ident(agg.prop)!r})"]
        tmpl = INLINE_SLIDE.get(cls)
        if tmpl is None:
            arg_v, arg_w = (v, w) if agg.prop is not None else ("None", "None")
            out += [f"{a}.enter({arg_v})", f"{a}.leave({arg_w})"]
        else:
            out.extend(t.format(a=a, v=v, w=w) for t in tmpl)
    return [ind + line for line in out]


def _row_source(shape: Shape, classes: Sequence[str], names: Sequence[str], rep: Optional[str] = None,
                locals_of: Optional[dict[int, str]] = None, positive: bool = False) -> str:
    """The output row's dict display: the group-by property of the representative event
    (`ru`'s, or the local `rep`) and the aggregations' values (of those in `locals_of`,
    from the locals t<i>/c<i> the batch loop's update left, see LOCAL_VALUE; with
    `positive`, their counts known to be positive: LOCAL_POSITIVE)."""
    parts = []
    for name, (kind, what) in zip(names, shape.columns):
        if kind == "prop":
            val = rep if rep is not None else f"ru.get({_ident(what)!r})"
        else:
            a = f"a{int(what)}"
            cls = classes[what]
            tmpl = INLINE_VALUE.get(cls)
            if locals_of and what in locals_of and cls in LOCAL_VALUE:
                val = (LOCAL_POSITIVE if positive else LOCAL_VALUE)[cls].format(i=int(what))
            else:
                val = f"{a}.value()" if tmpl is None else tmpl.format(a=a)
        parts.append(f"{str(name)!r}: {val}")
    return "{" + ", ".join(parts) + "}"


def used_properties(shape: Shape) -> list[str]:
    """The new event's properties the steps read, in a fixed order."""
    props = [shape.groupwin, shape.group, *(a.prop for a in shape.aggs)]
    return list(dict.fromkeys(p for p in props if p is not None))


# the bean of a new event in the batch loop, made without EventBean.__init__'s frame; with
# `recycle`, of the loop's own class (_Loop, an EventBean subclass with no slots of its own)
# so that the bean the full window expels can carry the next event (see _stable_body)
def _new_bean(cls: str) -> list[str]:
    return [f"bean = _new_bean({cls})", "bean.event_type = _et", "bean.underlying = u"]


def fault_lines(ind: str, typed: bool = False) -> list[str]:
    """The fault report of a batch loop whose body made the bean (_stable_body with
    `recycle`; `typed`: _recycling_body's): a bean for the report when there is none yet,
    and the report's bean never reused (a SpentBean: reports keep it)."""
    loops = "type(bean) is _Loop or type(bean) is _LoopT" if typed else "type(bean) is _Loop"
    # (a bean that kept values only, KeptLoopBean, takes its event: a SpentBean keeps it)
    return [ind + x for x in ["if bean is None:"] + ["    " + y for y in _new_bean("_Bean")] + [
        f"elif {loops}:", "    bean.__class__ = _Spent", "    bean.underlying = u",
        "_failed(engine, stmt, bean, exc)"]]


# the aggregators whose value the batch loop reads from locals: after each update,
# t<i> (the running total) and c<i> (the count), and in the common slide (two doubles, or
# two ints) both come out of the update itself (see _slide_local)
LOCAL_VALUE = {
    "FloatSum": "(t{i} if c{i} else None)",
    "FloatAvg": "(t{i} / c{i} if c{i} else None)",
}
LOCAL_POSITIVE = {"FloatSum": "t{i}", "FloatAvg": "t{i} / c{i}"}
_SLIDE_TYPE = {"FloatSum": "float", "FloatAvg": "float", "IntSum32": "int", "IntSum64": "int"}


def local_values(classes: Sequence[str]) -> dict[int, str]:
    """Per aggregation index, the class name of those _stable_body leaves in t<i>/c<i>
    when it makes the beans (`recycle`)."""
    return {i: cls for i, cls in enumerate(classes) if cls in _SLIDE_TYPE}


def _slide_local(cls: str, i: int, v: str, w: str) -> list[str]:
    """INLINE_SLIDE of aggregator a<i> (`v` enters, `w` leaves) that leaves the new total
    and count in t<i>/c<i>: the same operations in the same order; in the common branch
    (two values of the column's type: the count stays) without reading them again."""
    tp = _SLIDE_TYPE[cls]
    a, t, c = f"a{i}", f"t{i}", f"c{i}"
    fast = [f"if type({v}) is {tp} and type({w}) is {tp}:",
            f"    {c} = {a}.n",
            f"    if {c} > 0:",
            f"        {t} = {a}.total = ({a}.total + {v}) - {w}",
            "    else:",
            f"        {t} = {a}.total = {'0.0' if tp == 'float' else '0'}"]
    reads = [f"    {t} = {a}.total", f"    {c} = {a}.n"]
    out = []
    # the mixed and null branches (from the `elif` on) each read the state at their end
    for line in INLINE_SLIDE[cls][5:]:
        if not line.startswith(" ") and out:
            out += reads
        out.append(line.format(a=a, v=v, w=w))
    return fast + out + reads


def _group_window(shape: Shape, pre: dict[str, str]) -> list[str]:
    """The lines finding the event's `#groupwin` window `w` (key `k`); grouped by the same
    key, with the group's aggregators a0.. from one `_wins` record (its row never goes)."""
    L = [f"k = {_read('u', shape.groupwin, pre)}"]
    if shape.group is None:
        return L + ["w = _wins.get(k)",
                    "if w is None:",
                    "    views = _gwgroups.get(k)",
                    "    w = _wins[k] = (views if views is not None else _gw._group(k))[0]._events"]
    aggs = ", ".join(f"a{i}" for i in range(len(shape.aggs)))
    return L + ["rec = _wins.get(k)",
                "if rec is None:",
                "    views = _gwgroups.get(k)",
                "    w = (views if views is not None else _gw._group(k))[0]._events",
                "    row = _groups.get(k)",
                "    if row is None:",
                "        row = _groups[k] = _new_row()",
                "    rec = _wins[k] = (w, *row)",
                f"w, {aggs}, = rec"]


def _stable_body(shape: Shape, classes: Sequence[str], names: Sequence[str], pre: dict[str, str],
                 recycle: bool, kept: bool = False) -> list[str]:
    """body() without a where clause: every event enters and, once its window is full, the
    oldest event leaves, so a group's row never goes (its count is its window's length) and
    its aggregators are read from the row once. With `recycle` (the batch loops) the bean of
    the new event is made here (`bean` is None before): see _recycling_body."""
    if recycle and shape.length is not None:
        return _recycling_body(shape, classes, names, pre, kept=kept)
    L: list[str] = []
    hoist = [f"a{i} = row[{i}]" for i in range(len(shape.aggs))]
    grouped = shape.group is not None
    length = shape.length
    if length is not None and shape.groupwin is not None:
        L += _group_window(shape, pre)
    elif length is not None:
        L.append("w = _events")
    if grouped:
        if shape.groupwin is None:
            L.append(f"k = {_read('u', shape.group, pre)}")
        if not (length is not None and shape.groupwin is not None):
            L += ["row = _groups.get(k)", "if row is None:", "    row = _groups[k] = _new_row()"]
    else:
        L.append("row = _single")
    if not (grouped and length is not None and shape.groupwin is not None):
        L += hoist
    old = "ru" if grouped else "ou"     # the expelled event's underlying
    enter = ["    w.append(bean)"] if length is not None else []
    if grouped:
        enter.append("    ru = u")
    enter += _update(shape, classes, "u", True, "    ", pre, False)
    if grouped:
        enter.append("    _refc[k] = _refc.get(k, 0) + 1")
    if length is None:
        L += [x[4:] for x in enter]
    else:
        # one in and one out of the full window (the window keeps the same events as
        # appending first and then expelling the oldest)
        L += [f"if len(w) >= {int(length)}:", "    ob = w.popleft()", f"    {old} = ob.underlying"]
        L.append("    w.append(bean)")
        L += _slide(shape, classes, old, "    ", pre)
        L.append("else:")
        L += enter
    L += ["out = _new_bean(_Bean)", "out.event_type = _out_type",
          f"out.underlying = {_row_source(shape, classes, names)}"]
    return L


def cached_property(shape: Shape) -> Optional[str]:
    """The one property the aggregations read, which the batch loops keep on the beans they
    make (LoopBean.v) for when the event leaves; None when they read none or several."""
    props = list(dict.fromkeys(a.prop for a in shape.aggs if a.prop is not None))
    return props[0] if len(props) == 1 else None


def kept_values(shape: Shape) -> Optional[tuple[Optional[str], str]]:
    """(the group-by property or None, the aggregated property) when the beans the batch
    loops make keep only those values and not their event (engine/fused.py KeptLoopBean),
    else None. That is when the statement reads nothing else of an event in its window:
    its aggregations read one property (cached_property), it selects nothing but them and
    the group-by property (shape.py), has no where clause (_recycling_body serves only
    shapes without one) and a length window."""
    vprop = cached_property(shape)
    if vprop is None or shape.where or shape.length is None:
        return None
    return shape.group, vprop


def kept_prelude(kept: Optional[tuple[Optional[str], str]]) -> list[str]:
    """The module's first lines: with kept values (kept_values), its bean classes are the
    KeptLoopBean pair for those properties (before the functions, whose defaults read them)."""
    if kept is None:
        return []
    group, vprop = kept
    names = (None if group is None else _ident(group), _ident(vprop))
    return [f"_Loop, _LoopT = _kept_classes({names!r})"]


def _recycling_body(shape: Shape, classes: Sequence[str], names: Sequence[str],
                    pre: dict[str, str], typed: Optional[str] = None, key_t: Optional[str] = None,
                    kept: bool = False) -> list[str]:
    """_stable_body of the batch loops (a length window, no where clause). The bean of the
    new event is made here (`bean` is None before): when the window is full, the bean it
    expels becomes the new event's if a loop made it (of class _Loop: nothing but the
    window ever held it), which costs slot writes instead of an allocation. A bean the loop
    makes carries, besides the event, what the statement reads of the event when it leaves
    (LoopBean): the aggregations' one property (`v`) and the group-by value (`k`, which
    the group's row shows when the expelled event represents it), so an expelled event's
    dict, long out of the caches, is not read again (events are immutable once sent, as in
    Esper). Sums and averages leave their value in locals (t<i>, c<i>: LOCAL_VALUE); with
    a group by, the group's window and aggregators are one record (`_wins`). Leaves the
    group-by value of the row's representative in `rk`.

    `typed` (the name of the exact type, float or int, of the aggregated property's values
    on the loop's fast path: see _fast_block): the body of the loop's other events, which
    also keeps what the fast path relies on: a bean whose `v` is of that type (and with
    `key_t`, fast_key, whose `k` is of that type) is of class _LoopT (else _Loop), a full
    window is noted (`_full`, or the local `full` without a
    groupwin), and the row's bean is the loop's `out` when it has one to reuse.

    `kept` (kept_values, and the module binds the KeptLoopBean classes: kept_prelude): the
    beans keep `k` and `v` only, not the event."""
    L: list[str] = []
    n_aggs = len(shape.aggs)
    grouped = shape.group is not None
    length = int(shape.length)
    if shape.groupwin is not None:
        L += _group_window(shape, pre)
    else:
        L.append("w = _events")
    if not grouped:
        L += ["row = _single"] + [f"a{i} = row[{i}]" for i in range(n_aggs)]
    vprop = cached_property(shape)
    gprop = shape.group
    stores = []
    if gprop is not None:
        stores.append(f"bean.k = {_read('u', gprop, pre)}")
    if vprop is not None:
        stores.append(f"bean.v = {_read('u', vprop, pre)}")
    if typed is not None:
        vt = _read("u", vprop, pre)
        # (the class of the new event's bean: whether its v is of the fast path's type)
        kt = f" and type({_read('u', gprop, pre)}) is {key_t}" if key_t is not None and gprop is not None else ""
        cls = f"(_LoopT if type({vt}) is {typed}{kt} else _Loop)"
        loops = "type(ob) is _Loop or type(ob) is _LoopT"
        noted = ["full = True"] if shape.groupwin is None else \
            ["_full[k] = rec" if grouped else "_full[k] = w"]
    else:
        cls, loops, noted = "_Loop", "type(ob) is _Loop", []
    locals_of = local_values(classes)
    # one in and one out of the full window (the window keeps the same events as
    # appending first and then expelling the oldest)
    L += [f"if len(w) >= {length}:"] + ["    " + x for x in noted] + ["    ob = w.popleft()", f"    if {loops}:"]
    # the leaving values: from the bean, or from the event for a bean made elsewhere
    reads_loop, reads_dict = [], ["ou = ob.underlying"]
    for i, agg in enumerate(shape.aggs):
        if agg.prop is None:
            continue
        reads_dict.append(f"w{i} = ou.get({_ident(agg.prop)!r})")
        reads_loop.append(f"w{i} = ob.v" if vprop is not None else f"w{i} = ob.underlying.get({_ident(agg.prop)!r})")
    if gprop is not None:
        reads_loop.append("rk = ob.k")
        reads_dict.append(f"rk = ou.get({_ident(gprop)!r})")
    L += ["        " + x for x in reads_loop] + ["        bean = ob", "    else:"]
    L += ["        " + x for x in reads_dict]
    L += ["        bean = _new_bean(_Loop)", "        bean.event_type = _et"]
    event = [] if kept else ["    bean.underlying = u"]      # (a kept bean holds k and v only)
    L += event + ["    " + x for x in stores]
    if typed is not None:
        L += [f"    bean.__class__ = {cls}"]
    L += ["    w.append(bean)"]
    for i, (agg, cls_name) in enumerate(zip(shape.aggs, classes)):
        a, w = f"a{i}", f"w{i}"
        v = _read("u", agg.prop, pre) if agg.prop is not None else "None"
        if i in locals_of:
            lines = _slide_local(cls_name, i, v, w)
        else:
            tmpl = INLINE_SLIDE.get(cls_name)
            if tmpl is None:
                lines = [f"{a}.enter({v})", f"{a}.leave({w if agg.prop is not None else 'None'})"]
            else:
                lines = [t.format(a=a, v=v, w=w) for t in tmpl]
        L += ["    " + x for x in lines]
    L += ["else:", f"    bean = _new_bean({cls})", "    bean.event_type = _et"] + event
    L += ["    " + x for x in stores] + ["    w.append(bean)"]
    if gprop is not None:
        L.append(f"    rk = {_read('u', gprop, pre)}")
    L += _update(shape, classes, "u", True, "    ", pre, False)
    for i in locals_of:
        L += [f"    t{i} = a{i}.total", f"    c{i} = a{i}.n"]
    if grouped:
        L.append("    _refc[k] = _refc.get(k, 0) + 1")
    if typed is not None:
        return L + _row_lines(shape, classes, names, locals_of)
    # the row's bean: the last one, when the listener kept neither it nor its list (`spare`,
    # see direct_delivery)
    L += ["if spare is None:", "    out = _new_bean(_Bean)", "else:", "    out = spare", "    spare = None",
          "out.event_type = _out_type",
          f"out.underlying = {_row_source(shape, classes, names, 'rk', locals_of)}"]
    return L


def _row_lines(shape: Shape, classes: Sequence[str], names: Sequence[str], locals_of: dict[int, str],
               rep: str = "rk") -> list[str]:
    """The typed batch loop's row (the representative's group-by value in `rep`, the
    aggregations' values from the locals the update left) into its bean `out`: the one the
    last row was delivered in when nothing kept it, else a new one that the delivery made
    (see _typed_delivery: `out` is never None here)."""
    return ["out.event_type = _out_type",
            f"out.underlying = {_row_source(shape, classes, names, rep, locals_of)}"]


# the exact types a fast path takes as a #groupwin key (hashing them cannot raise)
_KEY_TYPES = (str, int, float, bool)


def fast_type(shape: Shape, classes: Sequence[str], checked: Sequence[str],
              exact: Sequence[Any]) -> Optional[str]:
    """The name of the type (float or int) of the aggregated property's values that the
    batch loop's fast path (_fast_block) takes, or None when the statement has none: a
    length window, no where clause, one aggregated property, aggregations whose slide is
    inlined with that type (sum, avg) or that only count, and the type check's exact types
    (`exact`, parallel to `checked`: bind_checks' _t<i>) known for every checked property:
    for the aggregated one that type, for a #groupwin key one whose hash cannot raise."""
    vprop = cached_property(shape)
    if shape.where or shape.length is None or vprop is None or len(exact) != len(checked) \
            or any(t is None for t in exact):
        return None
    types = dict(zip(checked, exact))
    vt = types.get(vprop)
    name = {float: "float", int: "int"}.get(vt)  # type: ignore[call-overload]
    if name is None:
        return None
    for agg, cls in zip(shape.aggs, classes):
        if agg.prop is None:
            if cls != "CountAll":
                return None
        elif cls != "CountValues" and _SLIDE_TYPE.get(cls) != name:
            return None
    if shape.groupwin is not None and types.get(shape.groupwin) not in _KEY_TYPES:
        return None         # (with a group by, the group-by property is the #groupwin one)
    return name


# group-by keys whose equal values of the same exact type cannot be told apart (a double's
# can: -0.0 and 0.0 are one group)
_PLAIN_KEYS = (str, int, bool)


def fast_key(shape: Shape, checked: Sequence[str], exact: Sequence[Any]) -> Optional[str]:
    """With a group by and a fast path: the global `_t<i>` of the group-by property when its
    exact type is one whose equal values cannot be told apart, else None. Then a _LoopT bean
    also has a group-by value of that type (a group's beans all have keys equal to the
    group's), so the fast path shows the new event's value for the leaving one's (the same
    value) and leaves the bean's as it is."""
    if shape.group is None or shape.group not in checked:
        return None
    i = list(checked).index(shape.group)
    return f"_t{i}" if i < len(exact) and exact[i] in _PLAIN_KEYS else None


def _fast_block(shape: Shape, classes: Sequence[str], names: Sequence[str], pre: dict[str, str],
                typed: str, slow: list[str], key_t: Optional[str] = None, kept: bool = False) -> list[str]:
    """The batch loop's steps for an event when the fast test passed (every checked
    property of its exact type, the window full: see fast_test): when the bean the window
    expels is one the loop made with a value of the fast type (_LoopT), it carries the new
    event and the sums slide with no type test and no conversion (INLINE_SLIDE's first
    branch, the same operations); nothing here can raise. Otherwise the expelled bean goes
    back and the event takes the `slow` steps."""
    gprop = shape.group
    vt = _read("u", cached_property(shape) or "", pre)
    L: list[str] = []
    if gprop is not None:
        L.append("w, " + ", ".join(f"a{i}" for i in range(len(shape.aggs))) + ", = rec")
    # (ungrouped: the window of a plain #length and the aggregators are the loop's, see
    # fast_locals)
    inner = ["wv = ob.v"]
    rk = "rk"
    if gprop is not None:
        if key_t is not None:
            rk = _read("u", gprop, pre)      # (fast_key: the bean's stays, an equal value)
        else:
            inner.append("rk = ob.k")
    if not kept:
        inner.append("ob.underlying = u")
    if gprop is not None and key_t is None:
        inner.append(f"ob.k = {_read('u', gprop, pre)}")
    inner += [f"ob.v = {vt}", "w.append(ob)"]
    locals_of = local_values(classes)
    zero = "0.0" if typed == "float" else "0"
    # (counts: one in and one out, both counted, stay as they were)
    slides = [(f"a{i}", f"t{i}", f"c{i}") for i in range(len(shape.aggs)) if i in locals_of]
    if len(slides) == 1 and any(locals_of[i] in LOCAL_POSITIVE for i in locals_of):
        # one sum: the row in each branch, with the value of a positive count plain
        (a, t, c), = slides
        row = _row_lines(shape, classes, names, locals_of, rk)
        pos = row[:-1] + [f"out.underlying = {_row_source(shape, classes, names, rk, locals_of, True)}"]
        # (a count is never negative: `if c` is `c > 0`, one test cheaper than `c <= 0`)
        inner += [f"{c} = {a}.n", f"if {c}:", f"    {t} = {a}.total = ({a}.total + {vt}) - wv"]
        inner += ["    " + x for x in pos] + ["else:", f"    {t} = {a}.total = {zero}"]
        inner += ["    " + x for x in row]
    else:
        for a, t, c in slides:
            inner += [f"{c} = {a}.n", f"if {c} > 0:", f"    {t} = {a}.total = ({a}.total + {vt}) - wv",
                      "else:", f"    {t} = {a}.total = {zero}"]
        inner += _row_lines(shape, classes, names, locals_of, rk)
    return L + ["ob = w.popleft()", "if type(ob) is _LoopT:"] + ["    " + x for x in inner] \
        + ["else:", "    w.appendleft(ob)"] + ["    " + x for x in slow]


def fast_locals(shape: Shape) -> list[str]:
    """Before the loop with a fast path, ungrouped: the aggregators (the row's, never
    replaced) and a plain #length window, in the locals the steps read (the other steps
    assign the same objects to them)."""
    if shape.group is not None:
        return []
    L = [f"a{i} = _single[{i}]" for i in range(len(shape.aggs))]
    return L + (["w = _events"] if shape.groupwin is None else [])


def fast_test(shape: Shape, checked: Sequence[str], pre: dict[str, str]) -> str:
    """The condition of the batch loop's fast path: every checked property of its exact type
    (so send's check passes it as it is) and the event's window full."""
    tests = [f"type({pre[p]}) is _t{i}" for i, p in enumerate(checked)]
    if shape.groupwin is None:
        tests.append("full")
    else:
        key = pre[shape.groupwin]
        tests.append(f"({'rec' if shape.group is not None else 'w'} := _full.get({key})) is not None")
    return " and ".join(tests)


def body(shape: Shape, classes: Sequence[str], names: Sequence[str], reclaim: bool,
         pre: dict[str, str], recycle: bool = False, kept: bool = False) -> list[str]:
    """Lines computing `out`, the row for event `bean` (underlying `u`, its properties
    `pre` already read into locals), or None when the statement posts nothing for it.
    `recycle`: see _stable_body (shapes without a where clause)."""
    if not shape.where:
        return _stable_body(shape, classes, names, pre, recycle, kept)
    # with a where clause: an event enters only when it passes, leaves only when it had,
    # and a group's row goes when its count of events reaches 0 (with reclaim)
    L: list[str] = []
    if shape.length is not None:
        if shape.groupwin is not None:
            # _wins: each group's window deque (the group's LengthWindow's own), made through
            # the groupwin view so that its groups stay what the view iterates and stops
            L += [f"k = {_read('u', shape.groupwin, pre)}",
                  "w = _wins.get(k)",
                  "if w is None:",
                  "    views = _gwgroups.get(k)",
                  "    w = _wins[k] = (views if views is not None else _gw._group(k))[0]._events"]
        else:
            L.append("w = _events")
        L += ["w.append(bean)", f"ob = w.popleft() if len(w) > {int(shape.length)} else None"]
    else:
        L.append("ob = None")
    L += ["np = _where((bean,))", "op = ob is not None and _where((ob,))", "out = None", "if np or op:"]
    I = "    "
    J = I + "    "
    if shape.group is not None:
        G = repr(_ident(shape.group))
        L.append(I + "if np:")
        if shape.groupwin is None:
            L.append(J + f"k = {_read('u', shape.group, pre)}")
        L += [J + "row = _groups.get(k)", J + "if row is None:", J + "    row = _groups[k] = _new_row()"]
        L += _update(shape, classes, "u", True, J, pre)
        # the group's count of events: one in and one out leave it as it was (a positive
        # count is stored already; at 0 the group goes, or 0 is stored without reclaim)
        L += [J + "if op:", J + "    ru = ob.underlying"]
        L += _update(shape, classes, "ru", False, J + "    ", pre)
        L += [J + "    rc = _refc.get(k, 0)", J + "    if rc <= 0:"]
        if reclaim:
            L += [J + "        del _groups[k]", J + "        _refc.pop(k, None)", J + "        row = None"]
        else:
            L += [J + "        _refc[k] = rc"]
        L += [J + "else:", J + "    ru = u", J + "    _refc[k] = _refc.get(k, 0) + 1"]
        L += [I + "else:", J + "ru = ob.underlying", J + f"k = ru.get({G})",
              J + "row = _groups.get(k)", J + "if row is not None:"]
        L += _update(shape, classes, "ru", False, J + "    ", pre)
        L.append(J + "    rc = _refc.get(k, 0) - 1")
        if reclaim:
            L += [J + "    if rc <= 0:", J + "        del _groups[k]", J + "        _refc.pop(k, None)",
                  J + "        row = None", J + "    else:", J + "        _refc[k] = rc"]
        else:
            L.append(J + "    _refc[k] = rc")
        L += [I + "if row is None:", I + "    row = _new_row()"]
    else:
        L += [I + "row = _single", I + "if np:"]
        L += _update(shape, classes, "u", True, J, pre)
        L += [I + "if op:", I + "    ou = ob.underlying"]
        L += _update(shape, classes, "ou", False, I + "    ", pre)
    used = sorted({what for kind, what in shape.columns if kind == "agg"})
    L += [I + f"a{i} = row[{int(i)}]" for i in used]
    # EventBean(type, underlying) without its __init__ frame: the same two slots
    L += [I + "out = _new_bean(_Bean)", I + "out.event_type = _out_type",
          I + f"out.underlying = {_row_source(shape, classes, names)}"]
    return L


# after the loop dropped the list a row was delivered in (`rows = None`), what holds the
# row's bean when the listener kept neither it nor the list: the loop's local and
# getrefcount's argument
SPARE_TEST = "_rc(out) == 2"


def listener_call(ind: str) -> list[str]:
    """Row `out` in a list of its own (`rows`) to the one two-argument listener `fn1`; one
    that raises is reported as Statement._dispatch reports it."""
    return [ind + "rows = [out]", ind + "try:", ind + "    fn1(rows, empty)",
            ind + "except Exception as exc:", ind + "    stmt._failed('Listener', fn1, exc)"]


def direct_delivery(ind: str) -> list[str]:
    """The batch loops' delivery of row `out` to the one two-argument listener `fn1` read
    when the loop began, while the change counter says no receiver changed since (`e0`):
    called as Statement._dispatch would; the caller adds the `else` branch."""
    return [ind + "if fn1 is not None and _epoch.n == e0:",
            *listener_call(ind + "    "),
            # a subscriber the listener set gets the row too, as in _dispatch
            ind + "    if _epoch.n != e0 and stmt._subscriber is not None:",
            ind + "        _late_sub(stmt, rows, empty)",
            # nothing else holds the row: its bean carries the next row (the loop's body)
            ind + "    rows = None",
            ind + f"    if {SPARE_TEST}:",
            ind + "        spare = out"]


def read_lines(reads: Sequence[tuple[str, str]], ind: str) -> list[str]:
    """The batch loops' reads of dict event `u`'s properties into locals, (local, property)
    each: subscripts (cheaper than dict.get), and for an event without one of them, get."""
    if not reads:
        return []
    sub = [ind + f"    {v} = u[{_ident(p)!r}]" for v, p in reads]
    get = [ind + f"    {v} = u.get({_ident(p)!r})" for v, p in reads]
    return [ind + "try:"] + sub + [ind + "except KeyError:"] + get


def check_lines(checked: Sequence[str], pre: dict[str, str], ind: str) -> list[str]:
    """The batch loops' inline type check of dict event `u` (its used properties already in
    the locals `pre` names): when `check` is set, each checked property is read once and
    tested first against the global `_t<i>` (one type its `_ok<i>` set passes: all of them
    exactly of those types, the common case, passes at once); otherwise, in order, against
    `_ok<i>` (the exact types send's check passes without a closer look), calling `check(u)`
    (which raises, or passes a subclass) for a value of another type, as send does."""
    if not checked:
        return [ind + "if check is not None:", ind + "    check(u)"]
    names = [pre.get(p) or f"q{i}" for i, p in enumerate(checked)]
    out = [ind + "if check is not None:"]
    out += read_lines([(v, p) for p, v in zip(checked, names) if p not in pre], ind + "    ")
    fast = " or ".join(f"type({v}) is not _t{i}" for i, v in enumerate(names))
    out.append(ind + f"    if {fast}:")
    for i, v in enumerate(names):
        out += [ind + f"        if type({v}) not in _ok{i} and {v} is not None:",
                ind + "            check(u)"]
    return out


# builtins the generated modules bind as globals (engine/fused.py's namespace)
BUILTINS = ("type", "float", "int", "len", "dict", "range", "Exception", "KeyError")
# the globals engine/fused.py binds before it runs a generated statement module, besides
# `_ok<i>`/`_t<i>` and the window's (send_many's hook also rebinds `_route`, `_roots`, `_root`
# and `_h` per call, for the window sinks' loops: these loops trust the change counter)
BOUND = ("_Bean", "_new_bean", "_out_type", "_where", "_groups", "_refc", "_new_row", "_single",
         "_stmt", "_failed", "_et", "_epoch", "_late_sub", "_Loop", "_LoopT", "_Spent", "_rc")


def hoisted(lines: Sequence[str], names: Iterable[str]) -> str:
    """Keyword-only parameters `, *, x=x, ...` for those of `names` that the loop `lines` read
    as globals: defaults are evaluated once, when the module runs, so the loop reads locals
    (the runtime binds all of them before; none is rebound afterwards)."""
    wanted = set(names)
    used: list[str] = []
    prev = None
    for tok in tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline):
        if tok.type == tokenize.NAME and tok.string in wanted and prev != "." and tok.string not in used:
            used.append(tok.string)
        if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT):
            prev = tok.string
    return "".join(f", {x}={x}" for x in sorted(used)).replace(", ", ", *, ", 1) if used else ""


def generate(shape: Shape, classes: Sequence[str], names: Sequence[str], reclaim: bool,
             listeners_only: bool, checked: Sequence[str] = (), exact: Sequence[Any] = ()) -> str:
    """The module source defining `on_event(bean)` and `run(engine, events, i, n, check, find,
    type_name)`. `checked`: the properties send's type check tests, each against the global
    `_ok<i>` (the exact types it passes without a closer look): `run` tests them inline and
    calls `check(u)` (which raises, or passes a subclass) only for a value of another type.
    `exact` (parallel to `checked`): the type each one's values mostly have (the global
    `_t<i>`), which decides whether `run` has a fast path (fast_type).
    A shape with a `window` gets a fused sink instead (source.py chooses)."""
    props = used_properties(shape)
    pre = {p: f"p{i}" for i, p in enumerate(props)}
    reads = [f"{pre[p]} = u.get({_ident(p)!r})" for p in props]
    b = body(shape, classes, names, reclaim, pre)
    kept = kept_values(shape)
    src = kept_prelude(kept) + ["def on_event(bean):", "    u = bean.underlying"]
    src += ["    " + line for line in reads]
    src += ["    " + line for line in b]
    if shape.where:
        src += ["    if out is not None:", "        _stmt._emit([out], None)", ""]
    else:
        src += ["    _stmt._emit([out], None)", ""]
    typed = fast_type(shape, classes, checked, exact)
    key_t = fast_key(shape, checked, exact) if typed is not None else None
    # the batch loop: events i..n-1 of one map type no other statement wants; it returns
    # where it stopped: after an event whose delivery queued work or changed the routing
    # (the caller drains and looks again), or at an event that is not a dict
    loop = ["    stmt = _stmt",
            # the receivers and the routing as they are now: valid while the change counter
            # (_epoch, bumped by every listener or subscriber change, type removal and
            # change of a route: see engine/contracts/epoch.py) stays at e0
            "    e0 = _epoch.n",
            "    ls1 = stmt._listeners",
            "    if len(ls1) == 1 and ls1[0][1] == 2 and stmt._subscriber is None:",
            "        fn1 = ls1[0][0]",
            "    else:",
            "        fn1 = None",
            "    empty = None if engine.none_for_empty else ()",
            # evaluation faults name the current statement: only a where clause evaluates
            # compiled expressions here (per event, since listeners may send events)
            "    engine.current_statement = stmt",
            # the row's bean to reuse: the last one when nothing kept it (typed: the bean
            # the next row goes in, never None in the loop: see _typed_delivery)
            "    out = _new_bean(_Bean)" if typed is not None else "    spare = None"]
    if typed is not None:
        loop += ["    " + x for x in fast_locals(shape)]
        if shape.groupwin is None:
            loop.append(f"    full = len(_events) >= {int(shape.length)}")
    loop += ["    for j in range(i, n):",
             "        u = events[j]",
             "        if type(u) is not dict:",
             "            return j"]
    if typed is not None:
        loop += _typed_steps(shape, classes, names, pre, checked, typed, key_t, kept is not None)
        loop += _typed_delivery(listeners_only)
    else:
        loop += _steps(shape, classes, names, reclaim, pre, checked, b, kept is not None)
        loop += _delivery(listeners_only)
    loop += ["        if engine.pending:",
             "            engine.drain()",
             "            return j + 1",
             # the receivers, the routing or the type changed: the caller looks again
             "        if _epoch.n != e0:",
             "            return j + 1",
             "    return n", ""]
    windows = ("_events",) if shape.groupwin is None else ("_gw", "_gwgroups", "_wins", "_full")
    bound = [*BOUND, *BUILTINS, *windows, *(f"_ok{i}" for i in range(len(checked))),
             *(f"_t{i}" for i in range(len(checked)))]
    src.append(f"def run(engine, events, i, n, check, find, type_name{hoisted(loop, bound)}):")
    src += loop
    return "\n".join(src)


def _steps(shape: Shape, classes: Sequence[str], names: Sequence[str], reclaim: bool,
           pre: dict[str, str], checked: Sequence[str], b: list[str], kept: bool = False) -> list[str]:
    """The batch loop's steps for event `u` without a fast path: read, check, the body
    (`b`, or the recycling body without a where clause); `out` is the row or None."""
    props = used_properties(shape)
    loop = read_lines([(pre[p], p) for p in props], "        ")
    loop += check_lines(checked, pre, "        ")
    if shape.where:
        loop += ["        " + x for x in _new_bean("_Bean")]
        loop += ["        engine.current_statement = stmt", "        try:"]
        loop += ["            " + line for line in b]
        fault = ["            _failed(engine, stmt, bean, exc)"]
    else:
        # the body makes the bean (_stable_body); a bean the fault report gets is the
        # report's: a plain EventBean, never reused
        loop += ["        bean = None", "        try:"]
        loop += ["            " + line for line in body(shape, classes, names, reclaim, pre, True, kept)]
        fault = fault_lines("            ")
    loop += ["        except Exception as exc:   # the statement skips the event (engine/faults.py)"]
    loop += fault
    return loop + ["            out = None"]


def _delivery(listeners_only: bool) -> list[str]:
    """The batch loop's delivery of row `out` (None: no row) without a fast path."""
    loop = ["        if out is not None:"]
    if not listeners_only:
        return loop + ["            stmt._emit([out], None)"]
    # one two-argument listener and no subscriber, unchanged since the loop began (the
    # loop returns after any event whose user code changed the counter): called here
    # as Statement._dispatch would, and then the one test of everything user code may
    # have changed; otherwise Statement._dispatch
    return loop + [
        "            if fn1 is not None:",
        *listener_call(" " * 16),
        "                if _epoch.n == e0 and not engine.pending:",
        # nothing else holds the row: its bean carries the next row (the body)
        "                    rows = None",
        f"                    if {SPARE_TEST}:",
        "                        spare = out",
        "                    continue",
        # a subscriber the listener set gets the row too, as in _dispatch
        "                if _epoch.n != e0 and stmt._subscriber is not None:",
        "                    _late_sub(stmt, rows, empty)",
        "            elif stmt.has_receivers:",
        "                stmt._dispatch([out], None)"]


def _typed_steps(shape: Shape, classes: Sequence[str], names: Sequence[str], pre: dict[str, str],
                 checked: Sequence[str], typed: str, key_t: Optional[str] = None,
                 kept: bool = False) -> list[str]:
    """The batch loop's steps for event `u` with a fast path (fast_type): the used and the
    checked properties read once (with a #groupwin, a checked property the statement does
    not read is only tested on the way to the group's record, and read again by the slow
    steps); when all have their exact types and the window is full, _fast_block; otherwise
    the check, then the recycling body that keeps what the fast path relies on, and after a
    fault the loop returns. Leaves the row in `out`."""
    seen = dict(pre)
    for i, p in enumerate(checked):
        seen.setdefault(p, f"q{i}")
    unread = [(v, p) for p, v in seen.items() if p not in pre]
    if shape.groupwin is not None:
        # the group's record found in the reads' try when every checked property has its
        # exact type (a property the statement does not read tested by subscript, not kept:
        # the slow steps read it again); a missing property: None, the slow steps
        target = "rec" if shape.group is not None else "w"
        tests = " and ".join(f"type({pre[p]}) is _t{i}" if p in pre else f"type(u[{_ident(p)!r}]) is _t{i}"
                             for i, p in enumerate(checked))
        found = f"{target} = _full.get({pre[shape.groupwin]}) if {tests} else None"
        loop = ["        try:", *[f"            {v} = u[{_ident(p)!r}]" for p, v in pre.items()],
                f"            {found}", "        except KeyError:",
                *[f"            {v} = u.get({_ident(p)!r})" for p, v in pre.items()], f"            {target} = None"]
        test = f"{target} is not None"
        slow = [f"{v} = u.get({_ident(p)!r})" for v, p in unread]
    else:
        loop = read_lines([(v, p) for p, v in seen.items()], "        ")
        test = fast_test(shape, checked, seen)
        slow = []
    slow += check_lines(checked, seen, "")
    slow += ["bean = None", "try:"]
    slow += ["    " + x for x in _recycling_body(shape, classes, names, pre, typed, key_t, kept)]
    slow += ["except Exception as exc:   # the statement skips the event (engine/faults.py)"]
    slow += fault_lines("    ", typed=True)
    slow += ["    out = None", "    if engine.pending:", "        engine.drain()", "    return j + 1"]
    fast = _fast_block(shape, classes, names, pre, typed, slow, key_t, kept)
    loop += [f"        if {test}:"] + ["            " + x for x in fast]
    loop += ["        else:"] + ["            " + x for x in slow]
    return loop


def _typed_delivery(listeners_only: bool) -> list[str]:
    """The fast-path batch loop's delivery of row `out`: as _delivery, and the row's bean
    stays in `out` for the next row when nothing kept it (the listener kept neither it nor
    the list it came in, by reference counts: a row a listener keeps never changes). A
    bean handed on is replaced by a new one here, so the rows' steps find a bean in `out`
    without testing it (_row_lines)."""
    if not listeners_only:
        return ["        stmt._emit([out], None)", "        out = _new_bean(_Bean)"]
    return ["        if fn1 is not None:",
            *listener_call(" " * 12),
            "            if _epoch.n == e0 and not engine.pending:",
            "                del rows        # (one step cheaper than rows = None)",
            # (getrefcount's argument and the local `out`: nothing else)
            "                if _rc(out) != 2:",
            "                    out = _new_bean(_Bean)",
            "                continue",
            "            if _epoch.n != e0 and stmt._subscriber is not None:",
            "                _late_sub(stmt, rows, empty)",
            "            out = _new_bean(_Bean)",
            "        elif stmt.has_receivers:",
            "            stmt._dispatch([out], None)",
            "            out = _new_bean(_Bean)"]
