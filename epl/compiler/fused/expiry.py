"""The fused sliding time window's expiry callback and the at-once deliveries of its on_event and expiry."""
from __future__ import annotations


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
