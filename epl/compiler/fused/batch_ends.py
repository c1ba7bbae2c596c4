"""A fused window sink's grouped update: its one-event cases and its batch ends (general and one-pass)."""
from __future__ import annotations

from typing import Callable, Sequence

from .codegen import _ident
from .one_event import _arrival, _departure, _emit_one
from .shape import Shape
from .sink_steps import GROUPS, _EXACT, _FIELDS, _load, _local_steps, _row, _store, holds_raw


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
