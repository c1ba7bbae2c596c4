"""send_many's loops of a fused window sink (`run`, `run_timed`), their inlined checks and the batch's split."""
from __future__ import annotations

from typing import Sequence

from .codegen import _ident
from .expiry import _rearm_lines


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
    src += _each_checked(checked, "            ")
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
    src += [*_bean_step("        ", ["w.update([bean], None)"]), "    return n", ""]
    return src



# the timed loops' first event of a batch: posted at its own time, then the next due time
_BEGIN_TIMED = ["sched.now = now", "w.update([bean], None)", "heap = sched._heap",
                "due = heap[0].time if heap else _INF"]


def _bean_step(ind: str, begin: list[str]) -> list[str]:
    """A loop's step into a batch of beans: the event's bean (a pooled one when there is
    one) appended to the batch, or, the batch empty, `begin` (the bean posted)."""
    return [ind + x for x in ("bean = _pool.pop() if _pool else _new_bean(_Bean)", "bean.event_type = _et",
                              "bean.underlying = u", "b = w._batch", "if b:", "    b.append(bean)", "else:")] \
        + [ind + "    " + x for x in begin]


def _each_checked(checked: Sequence[str], ind: str) -> list[str]:
    """send's check of `u` property by property: `check(u)` (which raises, or passes a
    subclass) for a value of a type send does not pass as it is."""
    out = []
    for i, p in enumerate(checked):
        out += [ind + f"v = u.get({_ident(p)!r})",
                ind + f"if type(v) not in _ok{i} and v is not None:",
                ind + "    check(u)"]
    return out

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
    out += _each_checked(checked, ind + "        ")
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
    out += _each_checked(checked, ind + "        ")
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
        src += _bean_step("            ", _BEGIN_TIMED)
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
