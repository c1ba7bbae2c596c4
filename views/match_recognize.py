"""The match_recognize matcher: a view at the end of the stream's data windows that turns
arriving rows into match rows (an insert stream only, as Esper delivers it).

Per partition it holds the partial matches in compiled form (`_Entry`: a position of the
automaton, the first row's sequence number and time, the last event per variable for the
defines, and the matched events as a shared linked list). A partition with no partial match,
no pending match and no `prev` rows is dropped. Rows leaving the data window remove the
partial matches that contain them. With `interval`, matches found are held until the
interval after their first row has passed (a timer through the statement's scheduler), or,
`or terminated`, until the partial match that produced them can go no further."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

from views.base import Events, View

from views.match_recognize_plan import PAST_LAST_ROW, TO_NEXT_ROW, RowRecogPlan
from views.match_recognize_rank import rank


class _Entry:
    """One partial (or complete) match."""

    __slots__ = ("pos", "begin", "btime", "binds", "path", "end")

    def __init__(self, pos: int, begin: int, btime: int, binds: list, path: tuple, end: int) -> None:
        self.pos = pos
        self.begin = begin
        self.btime = btime
        self.binds = binds
        self.path = path      # (position, event, parent path, seq) — prefixes are shared
        self.end = end


class _Partition:
    __slots__ = ("entries", "pending", "rows")

    def __init__(self, prev_depth: int) -> None:
        self.entries: list[_Entry] = []
        self.pending: list[_Entry] = []       # matches held for `interval`
        # the partition's latest rows for `prev`: a short list (a deque costs ~600 bytes)
        self.rows: Optional[list] = [] if prev_depth else None


def _contains(path: Optional[tuple], event: Any) -> bool:
    while path is not None:
        if path[1] is event:
            return True
        path = path[2]
    return False


class MatchRecognizeView(View):
    __slots__ = ("plan", "ctx", "partitions", "seq", "_timer", "_timer_at", "_tracked", "_blank",
                 "source")

    def __init__(self, plan: RowRecogPlan, ctx: Any) -> None:
        super().__init__()
        self.plan = plan
        self.ctx = ctx
        self.partitions: dict[Any, _Partition] = {}
        self.seq = 0
        self._timer: Any = None
        self._timer_at: Optional[float] = None
        self._tracked = dict(plan.tracked)
        self._blank = [None] * len(plan.nfa.variables) + [()] * len(plan.tracked)
        # the view before this one (set by views.make_chain): the pull API matches over it
        self.source: Any = None

    # -- the view contract ------------------------------------------------------------------
    def update(self, new: Events, old: Events) -> None:
        if old:
            for e in old:
                self._remove(e)
        if new:
            rows: list = []
            for e in new:
                self._on_event(e, rows)
            if rows:
                self.child.update(rows, None)

    def __iter__(self) -> Iterator[Any]:
        """Esper's pull API: the pattern matched on demand over the data window's current
        rows, by a fresh matcher (the live one's partial matches are left as they are);
        matches an interval would complete later are not included."""
        if self.source is None:
            return iter(())
        fresh = MatchRecognizeView(self.plan, _NoTimers(self.ctx))
        rows: list = []
        for e in list(self.source):
            fresh._on_event(e, rows)
        return iter(rows)

    def stop(self) -> None:
        if self._timer is not None:
            self.ctx.cancel(self._timer)
            self._timer = None
        self.partitions.clear()

    # -- matching ---------------------------------------------------------------------------
    def _on_event(self, event: Any, rows: list) -> None:
        plan = self.plan
        nfa = plan.nfa
        key = plan.key_of(event) if plan.key_of is not None else None
        parts = self.partitions
        part = parts.get(key)
        self.seq = seq = self.seq + 1
        if part is None:
            part = _Partition(plan.prev_depth)
        prows = part.rows
        if prows is not None:
            prows.append(event)
            if len(prows) > plan.prev_depth + 1:
                del prows[0]
            plan.prev_holder.rows = prows
        follow, var_of, exits, preds = nfa.follow, nfa.var_of, nfa.exits, plan.preds
        tracked = self._tracked
        now = self.ctx.now() if plan.interval is not None else 0
        nxt_entries: list[_Entry] = []
        ends: list[_Entry] = []
        terminated: Optional[set] = set() if plan.or_terminated else None
        for en in part.entries:
            binds = en.binds
            failed = False
            for p in follow[en.pos]:
                vi = var_of[p]
                pred = preds[vi]
                if pred is not None:
                    held = binds[vi]
                    binds[vi] = event
                    ok = pred(binds)
                    binds[vi] = held
                    if ok is not True:
                        failed = True
                        continue
                nb = binds.copy()
                nb[vi] = event
                if tracked and vi in tracked:
                    slot = tracked[vi]
                    nb[slot] = nb[slot] + (event,)
                ne = _Entry(p, en.begin, en.btime, nb, (p, event, en.path, seq), seq)
                if exits[p]:
                    ends.append(ne)
                if follow[p]:
                    nxt_entries.append(ne)
            if failed and terminated is not None and exits[en.pos]:
                terminated.add(en.begin)
        blank = self._blank
        for p in nfa.starts:
            vi = var_of[p]
            pred = preds[vi]
            binds = blank.copy()
            binds[vi] = event
            if pred is not None and pred(binds) is not True:
                continue
            if tracked and vi in tracked:
                binds[tracked[vi]] = (event,)
            ne = _Entry(p, seq, now, binds, (p, event, None, seq), seq)
            if exits[p]:
                ends.append(ne)
            if follow[p]:
                nxt_entries.append(ne)
        if plan.interval is None:
            if ends:
                taken = rank(ends, nfa.greedy, plan.all_matches, plan.skip)
                for m in taken:
                    rows.append(self._row(m))
                nxt_entries = self._skip_live(nxt_entries, taken)
        else:
            self._held(part, ends, terminated, rows)
        part.entries = nxt_entries
        if nxt_entries or part.pending or part.rows is not None:
            if key not in parts:
                parts[key] = part
        elif key in parts:
            del parts[key]

    def _skip_live(self, entries: list[_Entry], taken: list[_Entry]) -> list[_Entry]:
        skip = self.plan.skip
        if skip == PAST_LAST_ROW:
            cutoff = max(m.end for m in taken)
            return [e for e in entries if e.begin > cutoff]
        if skip == TO_NEXT_ROW:
            cutoff = max(m.begin for m in taken)
            return [e for e in entries if e.begin > cutoff]
        return entries      # to current row: every partial match goes on (Esper)

    def _skip_pending(self, pending: list[_Entry], taken: list[_Entry]) -> list[_Entry]:
        skip = self.plan.skip
        if skip == PAST_LAST_ROW:
            cutoff = max(m.end for m in taken)
        elif skip == TO_NEXT_ROW:
            cutoff = max(m.begin for m in taken)
        else:
            return pending
        return [e for e in pending if e.begin > cutoff]

    def _held(self, part: _Partition, ends: list[_Entry], terminated: Optional[set],
              rows: list) -> None:
        """Interval mode: matches wait in `pending`; with `or terminated` a match whose
        partial match can go no further is delivered at once."""
        plan = self.plan
        follow = plan.nfa.follow
        if terminated is not None:
            final = [e for e in ends if not follow[e.pos]]
            ends = [e for e in ends if follow[e.pos]]
            begins = terminated | {e.begin for e in final}
            if begins:
                flush = [e for e in final if e.begin in begins] + \
                    [e for e in part.pending if e.begin in begins]
                part.pending = [e for e in part.pending if e.begin not in begins]
                if flush:
                    taken = rank(flush, plan.nfa.greedy, plan.all_matches, plan.skip)
                    for m in taken:
                        rows.append(self._row(m))
                    part.pending = self._skip_pending(part.pending, taken)
        if ends:
            part.pending.extend(ends)
            due = min(plan.due(e.btime) for e in ends)
            if self._timer is None or due < self._timer_at:
                self._schedule(due)

    def _schedule(self, due: float) -> None:
        if self._timer is not None:
            self.ctx.cancel(self._timer)
        at = max(due, self.ctx.now())
        self._timer_at = at
        self._timer = self.ctx.schedule(at, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._timer_at = None
        plan = self.plan
        now = self.ctx.now()
        rows: list = []
        nxt: Optional[float] = None
        due_parts = []
        for key, part in list(self.partitions.items()):
            if not part.pending:
                continue
            due = [e for e in part.pending if plan.due(e.btime) <= now]
            if due:
                due_parts.append((min(e.btime for e in due), key, part, due))
        # partitions in the order their due matches began (Esper's schedule is by time)
        due_parts.sort(key=lambda d: d[0])
        for _, key, part, due in due_parts:
            part.pending = [e for e in part.pending if plan.due(e.btime) > now]
            taken = rank(due, plan.nfa.greedy, plan.all_matches, plan.skip)
            for m in taken:
                rows.append(self._row(m))
            part.pending = self._skip_pending(part.pending, taken)
        for key, part in list(self.partitions.items()):
            for e in part.pending:
                d = plan.due(e.btime)
                if nxt is None or d < nxt:
                    nxt = d
            if not part.pending and not part.entries and part.rows is None:
                del self.partitions[key]
        if nxt is not None:
            self._schedule(nxt)
        if rows:
            self.child.update(rows, None)

    def _row(self, m: _Entry) -> Any:
        nfa = self.plan.nfa
        names = nfa.variables
        group = self.plan.group_vars
        values: dict[str, Any] = {}
        for i, v in enumerate(names):
            values[v] = [] if i in group else None
        events = []
        node = m.path
        while node is not None:
            events.append(node)
            node = node[2]
        var_of = nfa.var_of
        for pos, ev, _, _ in reversed(events):
            vi = var_of[pos]
            if vi in group:
                values[names[vi]].append(ev)
            else:
                values[names[vi]] = ev
        for i in group:
            if not values[names[i]]:
                values[names[i]] = None     # a group variable that matched no row is null (Esper)
        return self.plan.make_row(values)

    # -- rows leaving the data window --------------------------------------------------------
    def _remove(self, event: Any) -> None:
        plan = self.plan
        key = plan.key_of(event) if plan.key_of is not None else None
        part = self.partitions.get(key)
        if part is None:
            return
        hit = [e for e in part.entries if _contains(e.path, event)]
        if hit:
            keep = [e for e in part.entries if not _contains(e.path, event)]
            if plan.prev_depth == 0:
                # Esper re-sequences a partial match that lost a row from its middle (a delete
                # out of arrival order): the remaining rows are matched again, in order
                seen = {(e.pos, _ids(e.path)) for e in keep}
                for e in hit:
                    nodes = [n for n in _nodes(e.path) if n[1] is not event]
                    for ne in self._replay(nodes, e.btime):
                        k = (ne.pos, _ids(ne.path))
                        if k not in seen:
                            seen.add(k)
                            keep.append(ne)
            part.entries = keep
        if part.pending:
            part.pending = [e for e in part.pending if not _contains(e.path, event)]
        # `prev` keeps reading the partition's earlier rows after they left the window (Esper)
        if not part.entries and not part.pending and part.rows is None:
            del self.partitions[key]

    def _replay(self, nodes: list, btime: int) -> list[_Entry]:
        """The partial matches that consume exactly `nodes` (path nodes, oldest first)."""
        if not nodes:
            return []
        nfa, preds = self.plan.nfa, self.plan.preds
        follow, var_of = nfa.follow, nfa.var_of
        tracked = self._tracked
        states: list[_Entry] = []
        first = nodes[0]
        for p in nfa.starts:
            vi = var_of[p]
            binds = self._blank.copy()
            binds[vi] = first[1]
            if preds[vi] is None or preds[vi](binds) is True:
                if vi in tracked:
                    binds[tracked[vi]] = (first[1],)
                states.append(_Entry(p, first[3], btime, binds, (p, first[1], None, first[3]), first[3]))
        for node in nodes[1:]:
            ev, seq = node[1], node[3]
            nxt = []
            for st in states:
                for p in follow[st.pos]:
                    vi = var_of[p]
                    held = st.binds[vi]
                    st.binds[vi] = ev
                    ok = preds[vi] is None or preds[vi](st.binds) is True
                    st.binds[vi] = held
                    if ok:
                        nb = st.binds.copy()
                        nb[vi] = ev
                        if vi in tracked:
                            nb[tracked[vi]] = nb[tracked[vi]] + (ev,)
                        nxt.append(_Entry(p, st.begin, btime, nb, (p, ev, st.path, seq), seq))
            states = nxt
        return [st for st in states if follow[st.pos]]


def _nodes(path: Optional[tuple]) -> list:
    out = []
    while path is not None:
        out.append(path)
        path = path[2]
    out.reverse()
    return out


def _ids(path: Optional[tuple]) -> tuple:
    out = []
    while path is not None:
        out.append(id(path[1]))
        path = path[2]
    return tuple(out)


class _NoTimers:
    """A view context for an on-demand match: same clock, no schedules."""

    __slots__ = ("now",)

    def __init__(self, ctx: Any) -> None:
        self.now = ctx.now

    def schedule(self, at: float, fn: Any) -> None:
        return None

    def cancel(self, handle: Any) -> None:
        pass


class MatchRecognizeFactory:
    """A view factory (views.base.ViewFactory) for one statement's match_recognize."""

    is_data_window = False

    def __init__(self, plan: RowRecogPlan) -> None:
        self.plan = plan
        # the view factory whose contents the matcher reads when it starts (a named window's
        # consumer view): Esper matches over the rows already in the window, silently
        self.prime_from: Any = None

    def make(self, ctx: Any) -> MatchRecognizeView:
        view = MatchRecognizeView(self.plan, ctx)
        if self.prime_from is not None:
            discard: list = []
            for e in list(self.prime_from.make(ctx)):
                view._on_event(e, discard)
        return view
