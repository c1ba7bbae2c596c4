"""A fused window sink's steps for one event in or out of a grouped sliding window, and its rows' emit."""
from __future__ import annotations

from typing import Sequence

from .codegen import _ident
from .shape import Shape
from .sink_steps import _row, _steps


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
