"""Each window against a brute-force model on random event and time sequences: the posted
insert/remove streams and the iterated contents must match after every step.

Models recompute from the whole history where the window's definition allows (length,
unique, sort, ext_timed, ...); time-batch models keep only the next firing time, since
Esper's schedule (one callback at the jump time, the grid from the reference) is itself the
definition being tested."""
from __future__ import annotations

from typing import Any, Optional

from hypothesis import given, settings
from hypothesis import strategies as st
from viewtest_support import chain, const, ev, period, prop

P = 1000   # the period of every time-based window here

SETTINGS = settings(max_examples=150, deadline=None)

send = st.tuples(st.just("send"), st.integers(0, 3), st.integers(0, 4),
                 st.sampled_from([0, 0, 1, 300, 999, 1000, 1001, 2500]))
move = st.tuples(st.sampled_from(["jump", "span"]),
                 st.sampled_from([0, 1, 250, 500, 999, 1000, 1001, 1500, 2000, 3500]))
OPS = st.lists(st.one_of(send, send, move), max_size=40)


def run(specs: list, model: Any, ops: list) -> None:
    """Drive the real chain and the model side by side, comparing after each step."""
    ctx, first, views, rec = chain(specs)
    now = 0
    ts = 0
    for i, op in enumerate(ops):
        rec.tag = i
        if op[0] == "send":
            _, k, v, dts = op
            ts += dts
            e = ev(i, k=k, v=v, ts=ts)
            first.update([e], None)
            expected = model.send(now, e)
        else:
            now += op[1]
            if op[0] == "jump":
                ctx.advance_to(now)
            else:
                ctx.advance_span(now)
            expected = model.advance(now, op[0] == "span")
        got = [(new, old) for tag, new, old in rec.calls if tag == i]
        assert got == [(_ids(n), _ids(o)) for n, o in expected], (i, op)
        assert [e.get("id") for e in views[-1]] == [e.get("id") for e in model.contents()], (i, op)


def _ids(events: Optional[list]) -> Optional[list]:
    return [e.get("id") for e in events] if events else None


class Model:
    def send(self, now: int, e: Any) -> list:
        raise NotImplementedError

    def advance(self, now: int, span: bool) -> list:
        return []

    def contents(self) -> list:
        raise NotImplementedError


# -- sliding and keyed windows: recomputed from the history ----------------------------------

class History(Model):
    def __init__(self) -> None:
        self.hist: list = []
        self.before: list = []

    def send(self, now: int, e: Any) -> list:
        self.before = self.contents()
        self.hist.append(e)
        after = self.contents()
        entered = [e] if any(x is e for x in after) else []
        # an event sorted out at once enters and leaves in the same update
        left = [x for x in self.before + [e] if not any(x is y for y in after)]
        return self.post(e, entered, left)

    def post(self, e: Any, entered: list, left: list) -> list:
        return [([e], left or None)]


class LengthModel(History):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def contents(self) -> list:
        return self.hist[-self.n:]


class KeepAllModel(History):
    def contents(self) -> list:
        return list(self.hist)


class LastEventModel(History):
    def contents(self) -> list:
        return self.hist[-1:]


class UniqueModel(History):
    def contents(self) -> list:
        return [e for i, e in enumerate(self.hist)
                if not any(x.get("k") == e.get("k") for x in self.hist[i + 1:])]


class FirstOnly(History):
    """Windows that ignore events: post only when the new event entered."""

    def post(self, e: Any, entered: list, left: list) -> list:
        return [(entered, None)] if entered else []


class FirstUniqueModel(FirstOnly):
    def contents(self) -> list:
        return [e for i, e in enumerate(self.hist)
                if not any(x.get("k") == e.get("k") for x in self.hist[:i])]


class FirstLengthModel(FirstOnly):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def contents(self) -> list:
        return self.hist[:self.n]


class FirstEventModel(FirstOnly):
    def contents(self) -> list:
        return self.hist[:1]


class FirstTimeModel(FirstOnly):
    def __init__(self) -> None:
        super().__init__()
        self.arrived: list = []

    def send(self, now: int, e: Any) -> list:
        self.arrived.append(now)
        return super().send(now, e)

    def contents(self) -> list:
        return [e for e, t in zip(self.hist, self.arrived) if t < P]


class SortModel(History):
    """The n smallest of everything seen by (key, newest first)."""

    def __init__(self, n: int, desc: bool) -> None:
        super().__init__()
        self.n = n
        self.desc = desc

    def contents(self) -> list:
        order = sorted(range(len(self.hist)),
                       key=lambda i: ((-1 if self.desc else 1) * self.hist[i].get("v"), -i))
        return [self.hist[i] for i in order[:self.n]]


class ExtTimedModel(History):
    """Ascending timestamps: the events within the period of the newest timestamp."""

    def contents(self) -> list:
        if not self.hist:
            return []
        newest = self.hist[-1].get("ts")
        return [e for e in self.hist if e.get("ts") > newest - P]


class GroupLengthModel(History):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def contents(self) -> list:
        keys = list(dict.fromkeys(e.get("k") for e in self.hist))
        return [e for k in keys for e in [x for x in self.hist if x.get("k") == k][-self.n:]]


# -- windows driven by engine time -------------------------------------------------------------

class TimeModel(Model):
    def __init__(self) -> None:
        self.w: list = []    # (arrival, event)

    def send(self, now: int, e: Any) -> list:
        self.w.append((now, e))
        return [([e], None)]

    def advance(self, now: int, span: bool) -> list:
        due = sorted({t + P for t, _ in self.w if t + P <= now})
        instants = due if span else due[-1:]
        out = []
        for x in instants:
            out.append((None, [e for t, e in self.w if t + P <= x]))
            self.w = [(t, e) for t, e in self.w if t + P > x]
        return out

    def contents(self) -> list:
        return [e for _, e in self.w]


class TimeBatchModel(Model):
    def __init__(self, reference: Optional[int] = None, force: bool = False,
                 eager: bool = False) -> None:
        self.init_ref = reference
        self.ref: Optional[int] = None
        self.force = force
        self.batch: list = []
        self.last: list = []
        self.next: Optional[int] = None
        if eager:
            self.ref = 0
            self.next = self.boundary(0)

    def boundary(self, now: int) -> int:
        k = 0
        while self.ref + k * P <= now:
            k += 1
        while self.ref + (k - 1) * P > now:
            k -= 1
        return self.ref + k * P

    def send(self, now: int, e: Any) -> list:
        if not self.batch:
            if self.ref is None:
                self.ref = now if self.init_ref is None else self.init_ref
            if self.next is None:
                self.next = self.boundary(now)
        self.batch.append(e)
        return []

    def advance(self, now: int, span: bool) -> list:
        out = []
        while self.next is not None and self.next <= now:
            at = self.next if span else now
            self.next = None
            if self.batch or self.last or self.force:
                out.append((self.batch or None, self.last or None))
                self.next = self.boundary(at)
            self.last, self.batch = self.batch, []
        return out

    def contents(self) -> list:
        return list(self.batch)


class LengthBatchModel(Model):
    def __init__(self, n: int) -> None:
        self.n = n
        self.hist: list = []

    def send(self, now: int, e: Any) -> list:
        self.hist.append(e)
        if len(self.hist) % self.n:
            return []
        b = len(self.hist) // self.n
        prev = self.hist[(b - 2) * self.n:(b - 1) * self.n] if b > 1 else None
        return [(self.hist[-self.n:], prev)]

    def contents(self) -> list:
        return self.hist[len(self.hist) - len(self.hist) % self.n:]


class TimeAccumModel(Model):
    def __init__(self) -> None:
        self.w: list = []
        self.last = 0

    def send(self, now: int, e: Any) -> list:
        self.w.append(e)
        self.last = now
        return [([e], None)]

    def advance(self, now: int, span: bool) -> list:
        if self.w and self.last + P <= now:
            out, self.w = self.w, []
            return [(None, out)]
        return []

    def contents(self) -> list:
        return list(self.w)


class TimeLengthBatchModel(Model):
    """Posts at n events or when the timer (started by the first event into an idle window,
    restarted by every post) runs out."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.batch: list = []
        self.last: list = []
        self.timer: Optional[int] = None

    def post(self, at: int) -> list:
        out = []
        if self.batch or self.last:
            out.append((self.batch or None, self.last or None))
            self.timer = at + P
        else:
            self.timer = None
        self.last, self.batch = self.batch, []
        return out

    def send(self, now: int, e: Any) -> list:
        self.batch.append(e)
        if len(self.batch) < self.n:
            if self.timer is None:
                self.timer = now + P
            return []
        return self.post(now)

    def advance(self, now: int, span: bool) -> list:
        out = []
        while self.timer is not None and self.timer <= now:
            out += self.post(self.timer if span else now)
        return out

    def contents(self) -> list:
        return list(self.batch)


# -- the properties ---------------------------------------------------------------------------

@SETTINGS
@given(OPS, st.integers(1, 4))
def test_length(ops, n) -> None:
    run([("length", [const(n)])], LengthModel(n), ops)


@SETTINGS
@given(OPS, st.integers(1, 4))
def test_length_batch(ops, n) -> None:
    run([("length_batch", [const(n)])], LengthBatchModel(n), ops)


@SETTINGS
@given(OPS)
def test_time(ops) -> None:
    run([("time", [period(P)])], TimeModel(), ops)


@SETTINGS
@given(OPS)
def test_time_batch(ops) -> None:
    run([("time_batch", [period(P)])], TimeBatchModel(), ops)


@SETTINGS
@given(OPS, st.sampled_from([0, 250, 999, 4200]), st.booleans(), st.booleans())
def test_time_batch_options(ops, reference, force, eager) -> None:
    flags = ", ".join(f for f, on in (("FORCE_UPDATE", force), ("START_EAGER", eager)) if on)
    args = [period(P), const(reference)] + ([const(flags)] if flags else [])
    run([("time_batch", args)], TimeBatchModel(None if eager else reference, force, eager), ops)


@SETTINGS
@given(OPS)
def test_time_accum(ops) -> None:
    run([("time_accum", [period(P)])], TimeAccumModel(), ops)


@SETTINGS
@given(OPS)
def test_unique(ops) -> None:
    run([("unique", [prop("k")])], UniqueModel(), ops)


@SETTINGS
@given(OPS)
def test_firstunique(ops) -> None:
    run([("firstunique", [prop("k")])], FirstUniqueModel(), ops)


@SETTINGS
@given(OPS, st.integers(1, 4))
def test_firstlength(ops, n) -> None:
    run([("firstlength", [const(n)])], FirstLengthModel(n), ops)


@SETTINGS
@given(OPS)
def test_firsttime(ops) -> None:
    run([("firsttime", [period(P)])], FirstTimeModel(), ops)


@SETTINGS
@given(OPS)
def test_keepall(ops) -> None:
    run([("keepall", [])], KeepAllModel(), ops)


@SETTINGS
@given(OPS)
def test_lastevent(ops) -> None:
    run([("lastevent", [])], LastEventModel(), ops)


@SETTINGS
@given(OPS)
def test_firstevent(ops) -> None:
    run([("firstevent", [])], FirstEventModel(), ops)


@SETTINGS
@given(OPS, st.integers(1, 4), st.booleans())
def test_sort(ops, n, desc) -> None:
    run([("sort", [const(n), prop("v", descending=desc)])], SortModel(n, desc), ops)


@SETTINGS
@given(OPS)
def test_ext_timed(ops) -> None:
    run([("ext_timed", [prop("ts"), period(P)])], ExtTimedModel(), ops)


@SETTINGS
@given(OPS, st.integers(1, 3))
def test_groupwin_length(ops, n) -> None:
    run([("groupwin", [prop("k")]), ("length", [const(n)])], GroupLengthModel(n), ops)


@SETTINGS
@given(OPS, st.integers(1, 4))
def test_time_length_batch(ops, n) -> None:
    run([("time_length_batch", [period(P), const(n)])], TimeLengthBatchModel(n), ops)
