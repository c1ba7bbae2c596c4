"""The source of a fused sink: what a statement's one data window posts to (`update(new,
old)`, in place of the general SingleStreamSink, result-set processor and direct output),
with the where clause, the grouped or ungrouped aggregation and the rows inlined, the same
steps in the same order as the general chain; and the statement's `on_event`, which hands
each event to the window as the general handle does (an event joining a non-empty time
batch is appended in place, and joins the batch's split by group where the statement sums
one property: _split_lines).

The window itself is the one the general chain builds (its timers, batches, iteration,
stop and checkpoints unchanged): any data window posts through the sink, whatever the
number of events it posts at once (a batch's end: the batch as new, the previous one as
old; a sliding window: one in, the expired out).

Names and literals reach the source only through repr() of validated identifiers and ints;
everything else is a global of the generated module (`_`-prefixed names bound by
engine/fused_windows.py)."""
from __future__ import annotations

from typing import Callable, Sequence

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


def _grouped(shape: Shape, classes: Sequence[str], names: Sequence[str], reclaim: bool,
             want_new: bool, want_old: bool, values: "str | None" = None) -> list[str]:
    """`values`: the one summed property whose values the timed loop's split holds in place
    of the events (see _values_prop)."""
    G = repr(_ident(shape.group))
    exact = not shape.where and bool(classes) and all(c in _EXACT for c in classes)
    raw = holds_raw(shape)
    L = list(GROUPS)

    def rows(target: str) -> list[str]:
        # one row per group the update touched, in Java hash-map order, from the group's
        # last event in the update (its key as that event has it; a raw batch's `reps` hold
        # that key itself, the only property a row reads: shape.py)
        row = _row(shape, classes, names, "    ", True, "out")
        if raw:
            row = [line.replace(f"ru.get({G})", "ru") for line in row]
        return [f"{target} = []",
                "for k in order:",
                "    row = get(k)",
                "    if row is None:",
                "        row = _new_row()",
                "    ru = reps[k]",
                *row,
                f"    {target}.append(out)",
                f"if not {target}:",
                f"    {target} = None"]

    # (a raw batch's first entry is a bean: see holds_raw)
    # one event in, none out (a sliding window's arrival): its group alone, no ordering
    L += ["if new and len(new) == 1 and not old:",
          "    u = new[0].underlying",
          *_arrival(shape, classes, names, want_new, want_old, _emit_one(want_new, want_old, ""), "    "),
          "    return"]
    # none in, one out (a sliding window's expiry): its group alone
    L += ["if not new and old and len(old) == 1:",
          "    u = old[0].underlying",
          *_departure(shape, classes, names, reclaim, want_new, want_old, _emit_one(want_new, want_old, ""), "    "),
          "    return"]
    # the events of each group in update order (a group's aggregators take its events in
    # that order: the same running sums), groups in order of first appearance
    def split(var: str, src: str, ind: str) -> list[str]:
        return [ind + f"{var} = {{}}", ind + f"for b in {src}:",
                ind + ("    u = b if type(b) is dict else b.underlying" if raw else "    u = b.underlying"),
                ind + f"    k = u.get({G})", ind + f"    l = {var}.get(k)", ind + "    if l is None:",
                ind + f"        {var}[k] = [u]", ind + "    else:", ind + "        l.append(u)"]
    acc = raw and values is None
    if values is not None:
        L += _values_end(shape, classes, values, reclaim, want_new, rows("new_rows"))
        L += ["acc = _acc", "acc[0] = acc[2] = None", *split("gn", "new or ()", "")]
    elif acc:
        # send_many's timed loop split the batch as it filled it (`_acc`: the batch list, how
        # many of its events the split holds, the split, whether every one of them passed
        # send's check on its fast path): taken when it is this batch, whole
        L += ["acc = _acc",
              "if new is not None and new is acc[0] and len(new) == acc[1]:",
              "    gn = acc[2]",
              "    fast = acc[3]",
              "else:",
              *split("gn", "new or ()", "    "),
              "    fast = False",
              "acc[0] = acc[2] = None       # (the batch leaves the loop's hands)"]
    else:
        L += split("gn", "new or ()", "")
    if shape.where:
        L += split("go", "old or ()", "")
    else:
        # a batch window posts its previous batch as the remove stream: its groups are the
        # ones split when it was posted as new (without a where clause, which is evaluated
        # afresh for the remove stream)
        L += ["if old is not None and old is _memo[0] and _memo[1] is not None:", "    go = _memo[1]"]
        L += ["    gd = _memo[2]", "else:", "    gd = None"] if exact else ["else:"]
        L += split("go", "old or ()", "    ")
        L += ["_memo[0] = new", "_memo[1] = gn"] + (["_memo[2] = None"] if exact else [])
        # the events of the batch that left at the previous post: referenced by nothing
        # else once the window dropped it, their beans are reused by send_many's loops (for
        # a statement whose batches those loops fill; no garbage for the collector to chase
        # per event); the reference counts show that nothing else holds them
        L += [] if raw else ["rl = _memo[3]",
              "if _memo[4]:",
              "    _memo[4] = False",
              "    _memo[3] = old",
              "    if rl and _refcount(rl) == 2 and len(_pool) < 4096 and _max(_map(_refcount, rl)) == 2:",
              "        _pool.extend(rl)",
              "else:",
              "    _memo[3] = None      # (kept only while the loops fill the batches)"]
    merged = exact and acc and not want_old
    if merged:
        L += _merged(shape, classes, reclaim, G)
        top = L
        L = []
    # a group's representative is its last event in the update, the remove stream's last
    last = f"l[-1].get({G})" if raw else "l[-1]"
    L += [f"reps = {{k: {last} for k, l in gn.items()}}", "for k, l in go.items():", f"    reps[k] = {last}",
          "order = _order(reps) if len(reps) > 1 else reps"]
    # with the remove stream, the prior rows come first
    if want_old:
        L += rows("old_rows")
    else:
        L.append("old_rows = None")
    fields = [f"{f[0]}{i}" for i, cls in enumerate(classes) for f in _FIELDS[cls]] if exact else []
    L += ["dl = {}"] if exact else []
    if exact and acc:
        # every event of the split passed send's check on its fast path, and `_sumfast`
        # says that makes each summed value an int (none null, none missing): the batch's
        # changes per group are its count and C sums of its values (what entering them one
        # by one adds: integers, in any order)
        L += ["if fast and _sumfast:", "    for k, l in gn.items():", "        row = get(k)",
              "        if row is None:", "            row = groups[k] = _new_row()", "        c = len(l)"]
        deltas = []
        for i, cls in enumerate(classes):
            L.append(f"        a{i} = row[{i}]")
            for f in _FIELDS[cls]:     # (a total is an IntSum's: its property summed)
                d = "c" if f == "n" else f"_sum(_map(_ig{i}, l))"
                L += [f"        d_{f[0]}{i} = {d}", f"        a{i}.{f} += d_{f[0]}{i}"]
                deltas.append(f"d_{f[0]}{i}")
        L += [f"        dl[k] = ({', '.join(deltas)}, c, l[-1].get({G}))", "        refc[k] = count(k, 0) + c",
              "else:"]
        body_ind = "    "
    else:
        body_ind = ""
    L += [body_ind + line for line in [
          "for k, l in gn.items():", "    row = get(k)", "    if row is None:", "        row = groups[k] = _new_row()",
          *[f"    a{i} = row[{i}]" for i in range(len(shape.aggs))], *_load(classes, "    "),
          *([f"    s_{f} = {f}" for f in fields] if exact else []),
          "    for u in l:", *_local_steps(shape, classes, "u", True, "        "),
          *_store(classes, "    "),
          *([f"    dl[k] = ({', '.join(f'{f} - s_{f}' for f in fields)}, len(l), {last})"] if exact else []),
          "    refc[k] = count(k, 0) + len(l)"]]
    if exact:
        # the groups' changes of the batch that now leaves, recorded when it entered: with
        # exact aggregators (counts, integer sums) undoing them at once is what leaving
        # its events one by one gives (a running integer sum that reaches its last value
        # is that value: its reset to 0 is the subtraction)
        L += ["_memo[2] = dl"]
    L += ["for k, l in go.items():", "    row = get(k)", "    if row is None:", "        continue",
          *[f"    a{i} = row[{i}]" for i in range(len(shape.aggs))]]
    if exact:
        L += ["    d = gd.get(k) if gd is not None else None",
              "    if d is not None:",
              *[f"        a{i}.{f} -= d[{n}]" for n, (i, f) in enumerate(
                  (i, f) for i, cls in enumerate(classes) for f in _FIELDS[cls])],
              "        rc = count(k, 0) - len(l)"]
        if reclaim:
            L += ["        if rc <= 0:", "            del groups[k]", "            refc.pop(k, None)",
                  "        else:", "            refc[k] = rc"]
        else:
            L += ["        refc[k] = rc"]
        L += ["        continue"]
    L += [*_load(classes, "    "),
          "    rc = count(k, 0)",
          "    for u in l:", *_local_steps(shape, classes, "u", False, "        "),
          "        rc -= 1"]
    if reclaim:
        # the group goes with its last event; later ones find no row (as leave_group)
        L += ["        if rc <= 0:", *_store(classes, "            "), "            del groups[k]",
              "            refc.pop(k, None)", "            break", "    else:",
              *_store(classes, "        "), "        refc[k] = rc"]
    else:
        L += _store(classes, "    ") + ["    refc[k] = rc"]
    if merged:
        L = top + ["    " + line for line in L]
    if want_new:
        L += rows("new_rows")
    else:
        L.append("new_rows = None")
    L += ["if new_rows or old_rows:", "    _stmt._emit(new_rows, old_rows)"]
    return L


GROUPS = ["groups = _groups", "get = groups.get", "refc = _refc", "count = refc.get"]


def _arrival(shape: Shape, classes: Sequence[str], names: Sequence[str], want_new: bool, want_old: bool,
             emit: list[str], ind: str) -> list[str]:
    """A grouped sliding window's one event in, none out (the underlying `u`): its group
    alone, no ordering (the prior row first with the remove stream), then `emit` (the
    rows `out`, `prior`); the locals of GROUPS bound."""
    G = repr(_ident(shape.group))
    # (the group column of its rows: the key just read, `ru.get(G)` again)
    L = [f"k = u.get({G})", "ru = u"]
    if want_old:
        L += ["row = get(k)", "if row is None:", "    row = _new_row()",
              *_row(shape, classes, names, "", True, "prior")]
    L += ["row = get(k)", "if row is None:", "    row = groups[k] = _new_row()",
          *_steps(shape, classes, "u", True, "", True),
          "refc[k] = count(k, 0) + 1"]
    if want_new:
        L += _row(shape, classes, names, "", False, "out")
    return [ind + line.replace(f"ru.get({G})", "k") for line in L + emit]


def _departure(shape: Shape, classes: Sequence[str], names: Sequence[str], reclaim: bool, want_new: bool,
               want_old: bool, emit: list[str], ind: str) -> list[str]:
    """A grouped sliding window's none in, one out (the underlying `u`): its group alone
    (the prior row first with the remove stream; a group whose last event left goes),
    then `emit`; the locals of GROUPS bound."""
    G = repr(_ident(shape.group))
    L = [f"k = u.get({G})", "ru = u", "row = get(k)"]
    if want_old:
        L += ["prow = row if row is not None else _new_row()", *_row(shape, classes, names, "", True, "prior", "prow")]
    L += ["if row is not None:", *_steps(shape, classes, "u", False, "    ", True), "    rc = count(k, 0) - 1"]
    if reclaim:
        L += ["    if rc <= 0:", "        del groups[k]", "        refc.pop(k, None)", "        row = None", "    else:",
              "        refc[k] = rc"]
    else:
        L += ["    refc[k] = rc"]
    if want_new:
        L += ["if row is None:", "    row = _new_row()", *_row(shape, classes, names, "", True, "out")]
    return [ind + line.replace(f"ru.get({G})", "k") for line in L + emit]


def _old_batch_lines(used: Sequence[int], fields: Sequence[tuple[int, str]], reclaim: bool,
                     record: str = "dl") -> list[str]:
    """The one-pass batch end's step for the groups of the batch leaving (`od`): take back
    the changes they recorded when they entered, then the memo (the new batch's `record`)
    and the groups' order."""
    L = ["    for k, d in od.items():",
         "        reps[k] = d[-1]",
         "        row = get(k)",
         "        if row is None:",
         "            continue",
         *[f"        a{i} = row[{i}]" for i in used],
         *[f"        a{i}.{f} -= d[{n}]" for n, (i, f) in enumerate(fields)],
         "        rc = count(k, 0) - d[-2]"]
    if reclaim:
        L += ["        if rc <= 0:", "            del groups[k]", "            refc.pop(k, None)",
              "        else:", "            refc[k] = rc"]
    else:
        L += ["        refc[k] = rc"]
    return L + [f"    _memo[2] = {record}", "    order = _order(reps) if len(reps) > 1 else reps"]


def _merged(shape: Shape, classes: Sequence[str], reclaim: bool, G: str) -> list[str]:
    """The batch end of _grouped in one pass over the groups, for exact aggregators, the
    insert stream alone and a batch whose every event passed send's check on its fast path
    (`_sumfast`: its values are summed in C) after a batch whose changes were recorded
    (`gd`, or no batch before): each group of the new batch takes its changes less the old
    batch's for that group, then the groups of the old batch alone leave theirs (the same
    final state as entering the one and leaving the other; the representative of a group
    in both is its last event of the old batch, as there). Opens an `if` whose `else` is
    _grouped's general steps; the `order` of the groups computed."""
    fields = [(i, f) for i, cls in enumerate(classes) for f in _FIELDS[cls]]
    used = sorted({i for i, _ in fields})
    L = ["if fast and _sumfast and (gd is not None or old is None):",
         "    od = gd if gd is not None else {}",
         "    pop = od.pop",
         "    reps = {}",
         "    old_rows = None",
         "    dl = {}"]
    # (a total is an IntSum's: its property summed over the group's events)
    L += _group_changes(fields, used, "gn", lambda i: f"_sum(_map(_ig{i}, l))",
                        [f"        rk = l[-1].get({G})"], "rk")
    return L + [*_old_batch_lines(used, fields, reclaim), "else:"]


def _group_changes(fields: Sequence[tuple[int, str]], used: Sequence[int], split: str,
                   total: Callable[[int], str], rep_lines: list[str], rep: str,
                   record: bool = True) -> list[str]:
    """The one-pass batch ends' step per group of the new batch (`split`: key -> list `l`
    of its events or values; aggregator i's total over it `total(i)`): its aggregators take
    its changes less the old batch's recorded ones for that group (popped from `od`), its
    representative is `rep` (after `rep_lines`) or the old batch's, and its changes are
    recorded in `dl` for the next batch end."""
    L = [f"    for k, l in {split}.items():",
         "        row = get(k)",
         "        if row is None:",
         "            row = groups[k] = _new_row()",
         "        c = len(l)",
         *[f"        a{i} = row[{i}]" for i in used]]
    L += [f"        d_{f[0]}{i} = " + ("c" if f == "n" else total(i)) for i, f in fields]
    return L + [
        *rep_lines,
        "        d = pop(k, None)",
        "        if d is None:",
        *[f"            a{i}.{f} += d_{f[0]}{i}" for i, f in fields],
        "            refc[k] = count(k, 0) + c",
        f"            reps[k] = {rep}",
        "        else:",
        *[f"            a{i}.{f} += d_{f[0]}{i} - d[{n}]" for n, (i, f) in enumerate(fields)],
        "            refc[k] = count(k, 0) + c - d[-2]",
        "            reps[k] = d[-1]",
        *([f"        dl[k] = ({', '.join(f'd_{f[0]}{i}' for i, f in fields)}, c, {rep})"] if record else [])]


def _values_prop(shape: Shape, classes: Sequence[str], want_old: bool, checked: Sequence[str]) -> "str | None":
    """The property whose values the timed loop's split of a raw batch holds in place of
    its events: the one property of the integer sums of a statement whose aggregators are
    all exact, without the remove stream, when send's check tests it and the group key
    (None: the split holds the events)."""
    if not holds_raw(shape) or want_old or not classes or not all(c in _EXACT for c in classes):
        return None
    summed = {a.prop for a, cls in zip(shape.aggs, classes) if cls in ("IntSum32", "IntSum64")}
    if len(summed) != 1:
        return None
    prop = summed.pop()
    return prop if prop in checked and shape.group in checked else None


def _values_end(shape: Shape, classes: Sequence[str], prop: str, reclaim: bool, want_new: bool,
                rows: list[str]) -> list[str]:
    """_merged's batch end from a split holding each group's values of `prop` (the one the
    ways that fill the batch keep, `_acc`: send's front, on_event, the timed loop; see
    _split_lines; or, for a batch whose split is short, one made here in C when every
    aggregator reads `prop` or nothing): taken when every event of the batch passed send's
    check on its fast path, `_sumfast` says that makes every value an int and `_keyexact` says the group key
    of such an event is the one of its group's last event (a str or an int: equal keys are
    the same value); the groups of the old batch from its recorded changes (each with its
    count and its last event's key). Returns from update; otherwise goes on to the general
    steps."""
    fields = [(i, f) for i, cls in enumerate(classes) for f in _FIELDS[cls]]
    used = sorted({i for i, _ in fields})
    # the batch's split (`_acc`, see _split_lines) is taken when it holds a value for each
    # of the batch's events: then every event of the batch joined it (nothing joins the
    # split but an event just appended to its batch) and each passed send's check on its
    # fast path (the only ones that join)
    L = ["acc = _acc",
         "gv = None",
         "if new is not None and _sumfast and _keyexact and (old is None or (old is _memo[0] and _memo[2] is not None)):",
         "    s = acc[2]",
         "    if new is acc[0] and _sum(_map(len, s.values())) == len(new):",
         "        gv = s"]
    if all(a.prop in (None, prop) for a in shape.aggs):
        # a batch the timed loop did not split (per-event sends): its keys and values
        # read and grouped in C (dict.__getitem__, list.append over the groups' lists)
        # when every event is a dict holding both, each of its usual type exactly
        K, V = repr(_ident(shape.group)), repr(_ident(prop))
        L += ["    else:",
              "        u = new[0]",
              "        if type(u) is not dict:",
              "            u = u.underlying",
              "        try:",
              "            if type(u) is not dict:",
              "                raise _KeyError",
              f"            ks = [u[{K}]]",
              f"            ks += _map(_dget, _islice(new, 1, None), _repeat({K}))",
              f"            vs = [u[{V}]]",
              f"            vs += _map(_dget, _islice(new, 1, None), _repeat({V}))",
              "        except (_KeyError, _TypeError):     # (a missing property, an event kept as its bean:",
              "            ks = None                       # dict.__getitem__ takes dicts alone)",
              "        if ks is not None and _set(_map(type, ks)) <= _tk and _set(_map(type, vs)) <= _tv:",
              "            gv = _split()",
              "            _any(_map(_append, _map(gv.__getitem__, ks), vs))"]
    L += ["if gv is not None:",
          "    acc[0] = acc[2] = None",
          # the split becomes the record of the batch's changes (`_memo[2]`, and `_memo[5]`
          # the same object: a record in this form); after a batch whose end went the
          # general way the record is that end's, a dict from key to its changes
          "    _memo[0] = new",
          "    _memo[1] = None         # (no events by group: the general steps split them)",
          "    og = _memo[5] if old is not None else None",
          "    if old is None or og is _memo[2]:",
          *_values_steady(classes, reclaim, want_new, rows),
          "    od = _memo[2]",
          "    pop = od.pop",
          "    reps = {}"]
    L += _group_changes(fields, used, "gv", lambda i: "_sum(l)", [], "k", record=False)
    L += _old_batch_lines(used, fields, reclaim, record="gv")
    L += ["    _memo[5] = gv"]
    if want_new:
        L += ["    " + line for line in rows] + ["    if new_rows:", "        _stmt._emit(new_rows, None)"]
    L += ["    return"]
    return L


def _values_steady(classes: Sequence[str], reclaim: bool, want_new: bool, rows: list[str]) -> list[str]:
    """_values_end's steps after a batch whose record is a split of values (`og`, or no
    batch before), in `if` two levels in; returns from update. A group of the old batch
    alone leaves its changes (its values' count and sum) first. Each group of the new batch
    has its aggregators and count set to its count and sum: what taking its changes less
    the old batch's gives, the old batch's being all its state (the groups' state is the
    window's events' alone, and the record was made when they entered: the premise of
    every one-pass end). That is done group by group in the rows' order (Java hash-map
    order of the keys, each key its group's representative: an exact str or int, the old
    batch's equal to the new one's), with the group's row (a group new to the state joins
    it then: nothing reads the groups' order), into the beans of the rows of the end before
    when nothing else holds those any more; each row as `rows` (_grouped's) makes it, its
    representative `ru` the key."""
    has_total = any(f != "n" for cls in classes for f in _FIELDS[cls])
    sets = []       # (a total is an IntSum's: the one property summed)
    for i, cls in enumerate(classes):
        sets.append(f"a{i} = row[{i}]")
        sets += [f"a{i}.{f} = " + ("c" if f == "n" else "s") for f in _FIELDS[cls]]
    leave = []
    for i, cls in enumerate(classes):
        leave.append(f"a{i} = row[{i}]")
        leave += [f"a{i}.{f} -= " + ("c" if f == "n" else "_sum(l)") for f in _FIELDS[cls]]
    enter = ["    if row is None:",
             "        row = groups[k] = _new_row()",
             "    c = len(l)",
             *(["    s = _sum(l)"] if has_total else []),
             *["    " + x for x in sets],
             "    refc[k] = c"]
    # the groups of the old batch alone, in its order after the new one's
    L = ["ks = _list(gv)",
         "if og is not None and not og.keys() <= gv.keys():",
         "    for k, l in og.items():",
         "        if k in gv:",
         "            continue",
         "        ks.append(k)",
         "        row = get(k)",
         "        if row is None:",
         "            continue",
         "        c = len(l)",
         *["        " + x for x in leave],
         "        rc = count(k, 0) - c"]
    if reclaim:
        L += ["        if rc <= 0:", "            del groups[k]", "            refc.pop(k, None)",
              "        else:", "            refc[k] = rc"]
    else:
        L += ["        refc[k] = rc"]
    L += ["_memo[2] = _memo[5] = gv"]
    if not want_new:
        L += ["for k, l in gv.items():", "    row = get(k)", *enter]
        return ["        " + x for x in L + ["return"]]
    # (the lines of `rows` making one row, out of its loop: `ru` and the group's `row` set)
    row = [x[4:] for x in rows[rows.index("    ru = reps[k]") + 1:rows.index("    new_rows.append(out)")]
           if "_new_bean" not in x]
    L += ["order = _order(ks) if len(ks) > 1 else ks",
          # the beans of the last rows, when neither they nor their list are held by
          # anything but `_memo[6]` (the listeners kept none: reference counts)
          "m = len(order)",
          "sp = _memo[6]",
          "_memo[6] = None",
          "if not sp or _refcount(sp) != 2 or _max(_map(_refcount, sp)) != 2:",
          "    sp = []",
          "if len(sp) < m:",
          "    sp += _map(_new_bean, _repeat(_Bean, m - len(sp)))",
          "elif len(sp) > m:",
          "    del sp[m:]",
          "vget = gv.get",
          "for out, k in _zip(sp, order):",
          "    l = vget(k)",
          "    row = get(k)",
          "    if l is not None:",
          *["    " + x for x in enter],
          "    elif row is None:",
          "        row = _new_row()",
          "    ru = k",
          *["    " + x for x in row],
          "_memo[6] = sp",
          "_stmt._emit(sp, None)"]
    return ["        " + x for x in L + ["return"]]


def _ungrouped(shape: Shape, classes: Sequence[str], names: Sequence[str],
               want_new: bool, want_old: bool) -> list[str]:
    # the one row's aggregators never change identity (cleared in place): read them once
    L = ["row = _single"] + [f"a{i} = row[{i}]" for i in range(len(shape.aggs))]
    L += _row(shape, classes, names, "", False, "prior") if want_old else []
    L += ["if new:", *_load(classes, "    "), "    for b in new:", "        u = b.underlying",
          *_local_steps(shape, classes, "u", True, "        "), *_store(classes, "    "),
          "if old:", *_load(classes, "    "), "    for b in old:", "        u = b.underlying",
          *_local_steps(shape, classes, "u", False, "        "), *_store(classes, "    ")]
    L += _row(shape, classes, names, "", False, "out") if want_new else []
    if want_new or want_old:
        L += _emit_one(want_new, want_old, "")
    return L


def _emit_one(want_new: bool, want_old: bool, ind: str) -> list[str]:
    """The statement's rows for one event in or out. When send_many's timed loop has said
    so (`_direct[0]`: the statement delivers its insert stream to listeners alone, nothing
    waits for dispatch, and this update is the last step of the event's processing or of
    the window's expiry) the listeners are called at once, as the drain that follows would
    call them."""
    emit = "_stmt._emit(" + ("[out]" if want_new else "None") + ", " + ("[prior]" if want_old else "None") + ")"
    if not want_new:
        return [ind + emit]
    # (Statement._deliver_now: with one two-argument listener and no subscriber, that
    # listener's call, a subscriber it sets getting the row after it; else _dispatch)
    return [ind + "if _direct[0]:", ind + "    _direct[0] = False", ind + "    _stmt._deliver_now(out)",
            ind + "else:", ind + "    " + emit]


def generate_sink(shape: Shape, classes: Sequence[str], names: Sequence[str], reclaim: bool,
                  want_new: bool, want_old: bool, checked: Sequence[str] = ()) -> str:
    """The module source defining `update(new, old)` (the sink the window posts to) and
    `on_event(bean)` (the statement's filter handle); for a time batch also `run(engine,
    events, i, n, check, find, type_name)`, send_many's loop (see codegen.generate;
    `checked` as there)."""
    src = ["def update(new, old):"]
    body: list[str] = []
    if shape.where:
        # the general sink: the where clause filters both streams; nothing left, no update
        body += ["if new:", "    new = [b for b in new if _where((b,))]",
                 "if old:", "    old = [b for b in old if _where((b,))]",
                 "if not new and not old:", "    return"]
    values = _values_prop(shape, classes, want_old, checked) if shape.group is not None else None
    if shape.group is not None:
        body += _grouped(shape, classes, names, reclaim, want_new, want_old, values)
    else:
        body += _ungrouped(shape, classes, names, want_new, want_old)
    src += ["    " + line for line in body]
    src += ["", "def on_event(bean):"]
    if shape.window == "time_batch" and holds_raw(shape) and values is not None:
        # as below, and the batch's split kept (_split_lines): a batch this begins is
        # paired with a new split
        src += ["    b = _w._batch", "    if b:", "        u = bean.underlying",
                "        if type(u) is dict and bean.event_type is b[0].event_type:",
                "            b.append(u)",
                "            acc = _acc",
                "            if acc[0] is b:",
                *_split_lines(checked, shape.group, values, "                "),
                "        else:", "            b.append(bean)", "    else:",
                "        _w.update([bean], None)",
                "        b = _w._batch",
                "        if b and b[0] is bean and bean.event_type is _et:",
                "            acc = _acc",
                "            acc[0] = b",
                "            acc[2] = {}",
                "            u = bean.underlying",
                "            if type(u) is dict:",
                *_split_lines(checked, shape.group, values, "                ")]
        # send's front does that append itself for a dict of the batch's type, without the
        # lock (engine/lean_send.py _raw_append): it does so only while this flag says that
        # on_event does nothing else for such an event but keep the split, and keeps the
        # split too (for events passing its fast test, whose key and value are then of
        # the types `_raw_split` names) while that says how (keep the three in step)
        src += ["", "_append_only = True",
                f"_raw_split = ({_ident(shape.group)!r}, {_ident(values)!r}, _t{list(checked).index(shape.group)}, "
                f"_t{list(checked).index(values)}, {tuple(_ident(c) for c in checked)!r}) "
                "if _sumfast and _keyexact else None",
                "_acc[1] = []         # (the front's spare list for a group new in the split)"]
    elif shape.window == "time_batch" and holds_raw(shape):
        # as below, a dict of the batch's first bean's type joining as itself
        src += ["    b = _w._batch", "    if b:", "        u = bean.underlying",
                "        if type(u) is dict and bean.event_type is b[0].event_type:",
                "            b.append(u)", "        else:", "            b.append(bean)", "    else:",
                "        _w.update([bean], None)"]
        # send's front does that append itself for a dict of the batch's type, without the
        # lock (engine/lean_send.py _raw_append): it does so only while this flag says that
        # on_event does nothing else for such an event (keep the two in step)
        src += ["", "_append_only = True"]
    elif shape.window == "time_batch":
        # TimeBatchWindow.update for one event joining a batch already begun (its timer
        # is set): an append; the first event of a batch goes through the window
        src += ["    b = _w._batch", "    if b:", "        b.append(bean)", "    else:",
                "        _w.update([bean], None)"]
    elif shape.window == "time":
        # TimeWindow.update for one event, its context's clock read in place (a
        # StatementContext: the scheduler's time less the statement's offset)
        src += ["    w = _w", "    c = w._ctx", "    now = c._scheduler.now - c.offset",
                "    if w._handle is None:", "        w._handle = c.schedule(now + w._period, w._expire_cb)",
                "    w._times.append(now)", "    w._events.append(bean)"]
        if shape.group is not None and not shape.where:
            # the sink's arrival in place (update's first case), its row handed to the
            # listeners at once when that is what the drain after this event would do
            src += ["    u = bean.underlying", *["    " + x for x in GROUPS],
                    *_arrival(shape, classes, names, want_new, want_old, _arrival_emit(want_new, want_old), "    ")]
        else:
            src += ["    " + x for x in _direct_update(want_new, want_old)]
        one = None
        if shape.group is not None and not shape.where:
            one = ["u = gone[0].underlying", *GROUPS,
                   *_departure(shape, classes, names, reclaim, want_new, want_old, _expiry_emit(want_new, want_old), "")]
        src += ["", *_expire_source(one)]
    else:
        src += ["    _w.update([bean], None)"]
    src.append("")
    if values is not None and all(a.prop in (None, values) for a in shape.aggs):
        # (_values_end's split in C: the usual types of the key and the values)
        src += [f"_tk = _frozenset((_t{list(checked).index(shape.group)},))",
                f"_tv = _frozenset((_t{list(checked).index(values)},))", ""]
    if shape.window == "time_batch":
        raw = holds_raw(shape)
        src += _batch_loop(checked, raw)
        src += _timed_batch_loop(checked, shape.group if raw else None, values)
        src += ["_raw_batches = True", ""] if raw else []
    elif shape.window == "time":
        src += _timed_window_loop(checked)
    return "\n".join(src)


def _lone_handle_test() -> list[str]:
    """`if ...:` and its nested `if ...:` (the caller adds their body, two levels in): the
    statement delivers to listeners alone, nothing waits for dispatch, the event is of its
    own type and the engine's routing hands that type to this handle alone. The router is
    one object per type for the filter index's life: cached in `_rt` with its index."""
    return ["stmt = _stmt",
            "e = stmt.engine",
            "if stmt._listeners_only and not e._dispatch_queue and bean.event_type is _et:",
            "    f = e.filters",
            "    rt = _rt",
            "    if rt[0] is not f:",
            "        rt[1] = f.router(_et)",
            "        rt[0] = f",
            "    roots = rt[1].roots",
            "    if len(roots) == 1 and roots[0].one is _self:"]


def _arrival_emit(want_new: bool, want_old: bool) -> list[str]:
    """on_event's rows of an arriving event (`out`, `prior`). Its insert stream goes to the
    listeners at once (Statement._deliver_now) when the drain that follows this event would
    do just that: the statement delivers to listeners alone, nothing waits for dispatch, and
    the event is one of the statement's own type that the engine's routing hands to this
    handle alone (so no other statement takes it after this one; each caller of a lone
    handle's on_event drains next: send, send_many, a routed event in the drain)."""
    emit = "_stmt._emit(" + ("[out]" if want_new else "None") + ", " + ("[prior]" if want_old else "None") + ")"
    if not want_new or want_old:
        return [emit]
    return [*_lone_handle_test(),
            "        stmt._deliver_now(out)",
            "        return",
            emit.replace("_stmt.", "stmt.")]


def _direct_update(want_new: bool, want_old: bool) -> list[str]:
    """on_event's post of an arriving event through update (a where clause, no group):
    `_direct` set for it on _arrival_emit's conditions (update's one-in case then hands
    its row to the listeners at once; with no row, the flag is cleared after it)."""
    if not want_new or want_old:
        return ["update([bean], None)"]
    return [*_lone_handle_test(),
            "        _direct[0] = True",
            "        try:",
            "            update([bean], None)",
            "        finally:",
            "            _direct[0] = False",
            "        return",
            "update([bean], None)"]


def _expiry_emit(want_new: bool, want_old: bool) -> list[str]:
    """expire's rows of one event leaving (`out`, `prior`): at once when `direct`."""
    emit = "stmt._emit(" + ("[out]" if want_new else "None") + ", " + ("[prior]" if want_old else "None") + ")"
    if not want_new:
        return [emit]
    return ["if direct:", "    stmt._deliver_now(out)", "else:", "    " + emit]


def _rearm_lines(ind: str) -> list[str]:
    """The window's next expiry on handle `h`, the one just fired (off the heap, held by
    nothing): `c.schedule(wt[0] + w._period, w._expire_cb)` without a new handle."""
    return [ind + x for x in ("h.time = wt[0] + w._period + c.offset", "h.slot = c.slot",
                              "h.seq = _next(sched._seq)", "h.active = True", "sched._active += 1",
                              "_heappush(sched._heap, h)", "w._handle = h")]


def _expire_source(one: "list[str] | None") -> list[str]:
    """`expire()`, the fused time window's expiry callback (its `_expire_cb`): TimeWindow's
    _expire with the next expiry scheduled before the post, on the handle that just fired
    (off the heap, held by nothing else), as send_many's timed loop does; the post's rows
    go to the listeners at once (`_direct`) when the drain after this time step would do
    just that: no other callback is live (none left to fire in this step), the statement
    delivers to listeners alone and nothing waits for dispatch. `one`: the post of a lone
    event leaving (`gone[0]`) in place (update's second case), else update is called."""
    post = ["_direct[0] = direct", "update(None, gone)"]
    if one is not None:
        post = ["if len(gone) == 1:", *["    " + x for x in one], "else:", *["    " + x for x in post]]
    return ["def expire():",
            "    w = _w",
            "    c = w._ctx",
            "    sched = c._scheduler",
            "    h = w._handle",
            "    w._handle = None",
            "    wt = w._times",
            "    horizon = sched.now - c.offset - w._period",
            "    if wt and wt[0] <= horizon:",
            "        we = w._events",
            "        gone = []",
            "        while wt and wt[0] <= horizon:",
            "            wt.popleft()",
            "            gone.append(we.popleft())",
            "        stmt = _stmt",
            "        direct = not sched._active and stmt._listeners_only and not stmt.engine._dispatch_queue",
            "        if wt:",
            "            if h is not None and not h.active and h.callback is w._expire_cb:",
            "                # c.schedule(wt[0] + w._period, w._expire_cb) with the handle just fired",
            *_rearm_lines(" " * 16),
            "            else:",
            "                w._handle = c.schedule(wt[0] + w._period, w._expire_cb)",
            "        posted = False",
            "        try:",
            *["            " + x for x in post],
            "            posted = True",
            "        finally:",
            "            _direct[0] = False",
            "            if not posted and w._handle is not None:",
            "                # a failed post: the general order had not scheduled the next expiry yet",
            "                c.cancel(w._handle)",
            "                w._handle = None",
            "    elif wt:",
            "        w._handle = c.schedule(wt[0] + w._period, w._expire_cb)",
            ""]


def _batch_loop(checked: Sequence[str], raw: bool = False) -> list[str]:
    """send_many's loop for a time batch alone on its event type: each event is checked,
    wrapped and joins the batch (`raw`: a batch begun joined by the dict itself, see
    holds_raw). Nothing is posted before time moves, so no listener or other user code
    runs inside the loop: nothing to drain and the routing cannot change."""
    src = ["def run(engine, events, i, n, check, find, type_name):",
           "    w = _w"]
    if raw:
        src += ["    b = w._batch",
                "    if b and b[0].event_type is not _et:",
                "        return i            # (a batch begun by another type's event: send's path)"]
    else:
        src += ["    _memo[4] = True         # (its beans may be reused: see update)"]
    src += ["    for j in range(i, n):",
           "        u = events[j]",
           "        if type(u) is not dict:",
           "            return j",
           "        if check is not None:"]
    for i, p in enumerate(checked):
        src += [f"            v = u.get({_ident(p)!r})",
                f"            if type(v) not in _ok{i} and v is not None:",
                "                check(u)"]
    if not checked:
        src.append("            check(u)")
    if raw:
        src += ["        if b:",
                "            b.append(u)",
                "        else:",
                "            bean = _new_bean(_Bean)",
                "            bean.event_type = _et",
                "            bean.underlying = u",
                "            w.update([bean], None)",
                "            b = w._batch",
                "    return n", ""]
        return src
    src += ["        bean = _pool.pop() if _pool else _new_bean(_Bean)",
            "        bean.event_type = _et",
            "        bean.underlying = u",
            "        b = w._batch",
            "        if b:",
            "            b.append(bean)",
            "        else:",
            "            w.update([bean], None)",
            "    return n", ""]
    return src


def holds_raw(shape: Shape) -> bool:
    """Whether a fused time batch's batches hold, after the bean of their first event
    (every batch begins with one: TimeBatchWindow.update), the underlying dicts of the
    later events of that bean's type in place of beans (the sink reads nothing else of
    them, and no where clause takes beans; the window, engine/fused_windows.py
    RawBatchWindow, makes beans of them when iterated): a grouped statement without a
    where clause, whose batches the timed loop splits as it fills them (and, for a summed
    property, on_event and send's front too: _split_lines)."""
    return shape.window == "time_batch" and shape.group is not None and not shape.where


def _inline_check(checked: Sequence[str], ind: str) -> list[str]:
    """send's type check of the event `u`, as the other batch loops make it (codegen's
    check_lines: each property's usual type `_t<i>` tested first, then, in order, the types
    `_ok<i>` send passes as they are, `check(u)` for another), the values read here by
    subscript (a missing key: the test in order, where it reads None)."""
    if not checked:
        return [ind + "if check is not None:", ind + "    check(u)"]
    fast = " or ".join(f"type(u[{_ident(p)!r}]) is not _t{i}" for i, p in enumerate(checked))
    out = [ind + "if check is not None:",
           ind + "    try:",
           ind + f"        odd = {fast}",
           ind + "    except _KeyError:",
           ind + "        odd = True",
           ind + "    if odd:"]
    for i, p in enumerate(checked):
        out += [ind + f"        v = u.get({_ident(p)!r})",
                ind + f"        if type(v) not in _ok{i} and v is not None:",
                ind + "            check(u)"]
    return out


def _split_lines(checked: Sequence[str], key: str, value: str, ind: str) -> list[str]:
    """The event `u`, just appended to the batch `acc[0]`, joins its split (`acc[2]`, a
    dict from group key to the list of the group's values of `value`, in the groups'
    order of first appearance) when it passes send's check on its fast path (each
    checked property's value of its usual type `_t<i>` exactly: the batch end's sums and
    counts take it as it is, _values_end); otherwise it stays out of it, and the batch
    end, finding the split short of the batch, splits the batch itself.

    The split protocol (engine/lean_send.py, "Raw appends without the lock"): `_acc` is
    [the batch the split belongs to (None: none), a spare empty list (send's front's list
    for a group new in the split; None while taken), the split, unused]. Whoever begins
    a batch with a bean of the statement's type may pair it with a new split (on_event,
    the timed loop); nothing joins a split but an event appended to its batch just before
    (by the same code, holding the lock or as send's front argues); splits and their lists
    are never reused. So the split holds at most one value per event of its batch, and
    one for each exactly when every event of the batch joined it."""
    K, V = repr(_ident(key)), repr(_ident(value))
    tests = " and ".join("type(k) is _t%d" % i if p == key else "type(v) is _t%d" % i if p == value
                         else f"type(u[{_ident(p)!r}]) is _t{i}" for i, p in enumerate(checked))
    return [ind + "try:",
            ind + f"    k = u[{K}]",
            ind + f"    v = u[{V}]",
            ind + f"    ok = {tests}",
            ind + "except _KeyError:",
            ind + "    ok = False",
            ind + "if ok:",
            ind + "    s = acc[2]",
            ind + "    l = s.get(k)",
            ind + "    if l is None:",
            ind + "        s[k] = [v]",
            ind + "    else:",
            ind + "        l.append(v)"]


def _keyed_check(checked: Sequence[str], key: str, ind: str, value: "str | None" = None) -> list[str]:
    """_inline_check that also reads the group key `k` of the event `u` (as u.get(key)),
    in the fast test's subscripts when the check tests the key's property, and sets `odd`
    (the event did not pass on the fast path, or is not checked) and then `fast` False;
    with `value` (a checked property) its value `v` too, and no `fast` (the values loop
    keeps none: an odd event stays out of the split, _split_lines)."""
    lines = _keyed_check_lines(checked, key, ind, value)
    if value is not None:
        lines = [x for x in lines if x.strip() != "fast = False"]
    return lines


def _keyed_check_lines(checked: Sequence[str], key: str, ind: str, value: "str | None") -> list[str]:
    K = repr(_ident(key))
    read = key in checked
    V = repr(_ident(value)) if value is not None else None
    after = [f"k = u.get({K})"] + ([f"v = u.get({V})"] if value is not None else [])
    if not checked:
        return [ind + "if check is not None:", ind + "    check(u)", ind + "odd = True", ind + "fast = False",
                *[ind + x for x in after]]
    tests = " or ".join("type(k) is not _t%d" % i if p == key else "type(v) is not _t%d" % i if p == value
                        else f"type(u[{_ident(p)!r}]) is not _t{i}" for i, p in enumerate(checked))
    out = [ind + "if check is not None:",
           ind + "    try:",
           *([ind + f"        k = u[{K}]"] if read else []),
           *([ind + f"        v = u[{V}]"] if value is not None else []),
           ind + f"        odd = {tests}",
           ind + "    except _KeyError:",
           ind + "        odd = True",
           ind + "    if odd:",
           ind + "        fast = False"]
    for i, p in enumerate(checked):
        out += [ind + f"        v = u.get({_ident(p)!r})",
                ind + f"        if type(v) not in _ok{i} and v is not None:",
                ind + "            check(u)"]
    if read:
        out += [ind + "        " + x for x in after]
    out += [ind + "else:", ind + "    odd = True", ind + "    fast = False"]
    out += [ind + "    " + x for x in after] if read else [ind + x for x in after]
    return out


def _timed_batch_loop(checked: Sequence[str], key: "str | None" = None, value: "str | None" = None) -> list[str]:
    """send_many's loop with times for a time batch alone on its event type
    (engine/fused.py run_batch): event i's time step is made by the caller; before each
    later event the loop steps time itself (two comparisons: nothing due, not backwards)
    and returns at the event whose time reaches the next due callback (the batch's end:
    the caller fires it and comes back) or moves backwards (the caller raises), or ~j at an
    event that is not a dict (its step made: the caller sends it without one). `due` is
    the scheduler's earliest time, after `now` (else ~i at once: a callback scheduled while
    the last step fired waits for the next step, even to the same time); only the window's
    own schedule changes it here (no user code runs before time moves).

    With a group `key` (a grouped statement without a where clause) the loop also splits
    the batch by group as it fills it (`_acc`, see _grouped: the batch's end then needs no
    pass over its events to group them); events that joined the batch elsewhere (send) are
    split when the loop next starts. With a `value` property (_values_prop) the split holds
    each group's values of it instead of its events (the protocol of _split_lines, which
    on_event and send's front keep too): an event that does not pass the check on its fast
    path stays out of it, and the batch end, finding it short, splits the batch itself."""
    src = ["def run_timed(engine, events, i, n, check, find, type_name, times):",
           "    w = _w",
           *([] if key is not None else ["    _memo[4] = True"]),
           "    sched = engine.scheduler",
           "    now = sched.now",
           "    heap = sched._heap",
           "    due = heap[0].time if heap else _INF",
           "    if due <= now:",
           "        return ~i           # a callback waits for the next step: the engine's loop"]
    ind = "            "
    if key is not None and value is not None:
        # the split protocol of _split_lines: a batch begun elsewhere and not paired is
        # paired now with a new split (short of the batch: its end splits the batch)
        src += ["    b = w._batch",
                "    if b and b[0].event_type is not _et:",
                "        return i            # (a batch begun by another type's event: send's path)",
                "    acc = _acc",
                "    gn = acc[2]",
                "    if b and acc[0] is not b:",
                "        acc[0] = b",
                "        acc[2] = gn = {}",
                "    get = gn.get if gn is not None else None"]
    elif key is not None:
        K = repr(_ident(key))
        src += ["    b = w._batch",
                "    if b and b[0].event_type is not _et:",
                "        return i            # (a batch begun by another type's event: send's path)",
                "    acc = _acc",
                "    gn = acc[2]",
                "    m = acc[1]",
                "    if acc[0] is not b or gn is None or len(b) < m:",
                "        acc[0] = b",
                "        acc[2] = gn = _split()",
                "        m = 0",
                "        fast = True",
                "    else:",
                "        fast = acc[3]",
                "    if len(b) > m:",
                "        fast = False        # (events that send added: split now)",
                "        for x in b[m:]:",
                "            if type(x) is not dict:",
                "                x = x.underlying",
                f"            k = x.get({K})",
                "            l = gn.get(k)",
                "            if l is None:",
                "                gn[k] = [x]",
                "            else:",
                "                l.append(x)"]
    src += ["    engine.current_statement = _stmt",
            "    try:",
            "        for j in range(i, n):",
            "            t = times[j]",
            "            if t >= due or t < now:     # (due > now: the same time goes on)",
            "                return j",
            "            now = t",
            "            u = events[j]",
            "            if type(u) is not dict:",
            "                return ~j           # (its step made: nothing due before `due`)",
            *(_inline_check(checked, ind) if key is None else _keyed_check(checked, key, ind, value))]
    if key is None:
        src += ["            bean = _pool.pop() if _pool else _new_bean(_Bean)",
                "            bean.event_type = _et",
                "            bean.underlying = u",
                "            b = w._batch",
                "            if b:",
                "                b.append(bean)",
                "            else:",
                "                sched.now = now",
                "                w.update([bean], None)",
                "                heap = sched._heap",
                "                due = heap[0].time if heap else _INF"]
    elif value is not None:
        # (b is the window's batch: it changes only at a post, and posts are the caller's;
        # an event joins the split after its append, when it passed the fast test)
        src += [*_append_or_begin(["                acc[2] = gn = {}", "                get = gn.get"]),
                "            if not odd:",
                "                l = get(k)",
                "                if l is None:",
                "                    gn[k] = [v]",
                "                else:",
                "                    l.append(v)"]
    else:
        # (b is the window's batch: it changes only at a post, and posts are the caller's)
        src += [*_append_or_begin(["                acc[2] = gn = _split()", "                fast = not odd"]),
                "            gn[k].append(u)"]
    src += ["        return n",
            "    finally:",
            "        sched.now = now"]
    if key is not None and value is None:
        src += ["        acc[1] = len(b)", "        acc[3] = fast"]
    src.append("")
    return src



def _append_or_begin(split: list[str]) -> list[str]:
    """The keyed timed loop's step into the batch: a later event's dict appended; a first
    one posted as its bean (the batch begun), its new split made (`split`), and the next
    due time read again."""
    return ["            if b:",
            "                b.append(u)",
            "            else:",
            "                bean = _new_bean(_Bean)",
            "                bean.event_type = _et",
            "                bean.underlying = u",
            "                sched.now = now",
            "                w.update([bean], None)",
            "                b = acc[0] = w._batch",
            *split,
            "                heap = sched._heap",
            "                due = heap[0].time if heap else _INF"]

def _timed_window_loop(checked: Sequence[str]) -> list[str]:
    """send_many's loop with times for a sliding time window alone on its event type: per
    event, advance_time's step (the window's own expiry, when it alone is due, fired in
    place as the engine fires a callback: one processing step, its results drained), then
    what send does with the event (on_event's steps in place, the statement's faults
    isolated, the drain). Listeners run here, so after each drain the routing is looked at
    again. Returns j when event j's step is still to make, ~j when it is made (the caller
    processes event j next without one); a time moving backwards raises here as
    advance_time does."""
    return ["def run_timed(engine, events, i, n, check, find, type_name, times):",
            "    w = _w",
            "    c = w._ctx",
            "    sched = engine.scheduler",
            "    if c._scheduler is not sched:",
            "        return i",
            "    stmt = _stmt",
            "    now = sched.now",
            "    for j in range(i, n):",
            "        if j != i:",
            "            t = times[j]",
            "            if t < now:",
            "                sched.set_time(t)     # raises: time cannot move backwards",
            "            sched.now = now = t",
            "            heap = sched._heap",
            "            if heap and heap[0].time <= t:",
            "                h = heap[0]",
            "                if h is w._handle and h.active and h.callback is w._expire_cb \\",
            "                        and (len(heap) < 2 or heap[1].time > t) \\",
            "                        and (len(heap) < 3 or heap[2].time > t):",
            "                    # the window's expiry alone is due: Scheduler.fire in a step",
            "                    _heappop(heap)",
            "                    h.active = False",
            "                    sched._active -= 1",
            "                    engine._depth += 1",
            "                    try:",
            "                        engine.current_statement = None",
            "                        try:",
            "                            # TimeWindow._expire, the next expiry scheduled before",
            "                            # the post instead of after it (nothing schedules in",
            "                            # between: the same order), so that the post is the",
            "                            # step's last and its rows may go to the listeners at once",
            "                            w._handle = None",
            "                            wt = w._times",
            "                            we = w._events",
            "                            horizon = now - c.offset - w._period",
            "                            out = []",
            "                            while wt and wt[0] <= horizon:",
            "                                wt.popleft()",
            "                                out.append(we.popleft())",
            "                            if wt:",
            "                                # c.schedule(wt[0] + w._period, w._expire_cb) with the",
            "                                # handle just fired (off the heap, held by nothing)",
            *_rearm_lines(" " * 32),
            "                            if out:",
            "                                _direct[0] = stmt._listeners_only and not engine._dispatch_queue",
            "                                posted = False",
            "                                try:",
            "                                    update(None, out)",
            "                                    posted = True",
            "                                finally:",
            "                                    _direct[0] = False",
            "                                    if not posted and w._handle is not None:",
            "                                        # a failed post: the general order had not",
            "                                        # scheduled the next expiry yet",
            "                                        c.cancel(w._handle)",
            "                                        w._handle = None",
            "                        except Exception as exc:",
            "                            _callback_failed(engine, h, exc)",
            "                        if engine.pending:",
            "                            engine.drain()",
            "                    finally:",
            "                        engine._depth -= 1",
            "                else:",
            "                    engine._fire_due(t)",
            "                if _route.roots is not _roots or _root.one is not _h or find(type_name) is not _et:",
            "                    return ~j",
            "        u = events[j]",
            "        if type(u) is not dict:",
            "            return ~j",
            *_inline_check(checked, "        "),
            "        bean = _new_bean(_Bean)",
            "        bean.event_type = _et",
            "        bean.underlying = u",
            "        engine.current_statement = stmt",
            "        try:",
            "            at = now - c.offset",
            "            if w._handle is None:",
            "                w._handle = c.schedule(at + w._period, w._expire_cb)",
            "            w._times.append(at)",
            "            w._events.append(bean)",
            "            # (the update is on_event's last step: its rows may go to the listeners",
            "            # at once when only they take them and nothing else waits)",
            "            _direct[0] = stmt._listeners_only and not engine._dispatch_queue",
            "            update([bean], None)",
            "        except Exception as exc:   # the statement skips the event (engine/faults.py)",
            "            _failed(engine, stmt, bean, exc)",
            "        finally:",
            "            _direct[0] = False",
            "        if engine.pending:",
            "            engine.drain()",
            "        # (listeners ran: called at once, or by the drain)",
            "        if _route.roots is not _roots or _root.one is not _h or find(type_name) is not _et:",
            "            return j + 1",
            "    return n",
            ""]
