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
engine/fused_windows.py).

The parts beside it: sink_steps.py (the aggregators' steps, a row, the shared tables),
one_event.py (a grouped sliding window's one event in or out), batch_ends.py (the grouped
update and its batch ends), expiry.py (the time window's expiry and at-once deliveries),
sink_loops.py (send_many's loops and the batch's split)."""
from __future__ import annotations

from typing import Sequence

from .batch_ends import _grouped, _values_prop
from .codegen import _ident
from .expiry import _arrival_emit, _direct_update, _expire_source, _expiry_emit
from .one_event import _arrival, _departure, _emit_one
from .shape import Shape
from .sink_loops import _batch_loop, _split_lines, _timed_batch_loop, _timed_window_loop
from .sink_steps import GROUPS, _load, _local_steps, _row, _store
from .sink_steps import holds_raw as holds_raw      # (the sink's, named here by the engine's comments)


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
