"""send's discards without the lock (engine/lean_send.py, engine/lock.py): an event no filter
wants returns before the lock when nobody holds it; the same deliveries in the same order as
the general path for events with missing keys and odd values, sends from listeners that make
the statement that wants them, fusion on and off, with and without the lock; a discard waits
while another thread holds `engine.lock`; concurrent senders and a thread changing statements."""
from __future__ import annotations

import os
import pickle
import threading

import pytest
from hypothesis import given, settings, strategies as st

import engine.engine as engine_module
from engine import Engine
from engine.contracts.bean import EventBean
from engine.errors import EventTypeError
from engine.lock import EngineLock

SCHEMAS = ("create schema T(sym string, v double, i int)", "create schema U(sym string, i int)")
FILTERS = ["sym = 'a'", "v > 2.5", "i in (1, 2)", "sym = 'a' or i = 2", "v between 1 and 3",
           "sym != 'b'", "sym = 'a' and v > 1", "i = 3 or v < 1", "sym in ('a', 'c') and i != 1",
           "sym is null", "v not between 1 and 2", "i not in (1, 2)", "sym = 'a' and v * 2 > 3"]
STATEMENTS = ([f"select * from T({f})" for f in FILTERS]
              + ["select * from U(i = 2)", "select * from U(sym = 'c')",
                 "select count(*) as c from T(sym = 'a')",
                 "select sym, sum(v) as s from T(i != 0)#length(3) group by sym",
                 "insert into U select sym, i from T(v > 3)"])
MISSING = object()
events = st.tuples(
    st.sampled_from(["T", "T", "T", "U"]),
    st.sampled_from(["a", "b", "c", MISSING, 7]),
    st.sampled_from([0.5, 1.5, 2.0, 3.5, 4.0, MISSING, "x"]),
    st.sampled_from([0, 1, 2, 3, MISSING, "bad"]),
    st.sampled_from([None] * 6 + ["send", "send_then_create", "create", "destroy", "raise"]))


def _run(stmts: list[int], evs: list[tuple], *, lean: bool, thread_safe: bool, fusion: str) -> list:
    engine = Engine(time="simulated", thread_safe=thread_safe)
    if fusion == "off":
        engine.fusion = False
    for s in SCHEMAS:
        engine.epl(s)
    if lean:
        send = engine.send
    else:       # the general path: the event as a bean (filters.match, then feed)
        def send(ev: dict, type_name: str) -> None:
            engine.send(EventBean(engine.event_type(type_name), ev))
    out: list = []
    made: list = []

    def listener_for(name: str, box: list):
        def listen(new, old):
            out.append((name, [_row(e) for e in new or ()], [_row(e) for e in old or ()]))
            action, box[0] = box[0], None           # once per sent event
            if action in ("send", "send_then_create"):
                # nothing wants it yet: it waits until this event is done
                send({"sym": "z", "i": 7}, "U")
            if action in ("create", "send_then_create"):
                made.append(engine.epl("select * from U(sym = 'z')" if action != "create"
                                       else "select * from T(sym = 'b')"))
                made[-1].add_listener(listener_for(f"made{len(made)}", [None]))
            elif action == "destroy" and made:
                made.pop().destroy()
            elif action == "raise":
                raise RuntimeError("listener fails")
        return listen

    box: list = [None]
    for k, i in enumerate(stmts):
        engine.epl(STATEMENTS[i]).add_listener(listener_for(f"s{k}", box))
    for type_name, sym, v, i, action in evs:
        box[0] = action
        fields = {"sym": sym, "v": v, "i": i} if type_name == "T" else {"sym": sym, "i": i}
        ev = {k: x for k, x in fields.items() if x is not MISSING}
        try:
            send(ev, type_name)
            out.append("ok")
        except EventTypeError as exc:
            out.append(("error", str(exc)))
    return out


def _row(e):
    u = e.underlying
    if isinstance(u, dict):
        return tuple(sorted((k, _row(x) if hasattr(x, "underlying") else repr(x)) for k, x in u.items()))
    return repr(u)


@pytest.mark.parametrize("fusion", ["on", "off", "env"])
@pytest.mark.parametrize("thread_safe", [True, False])
@settings(max_examples=100, deadline=None)
@given(stmts=st.lists(st.integers(0, len(STATEMENTS) - 1), min_size=1, max_size=4),
       evs=st.lists(events, min_size=1, max_size=30))
def test_the_unlocked_discards_deliver_what_the_general_path_delivers(fusion, thread_safe, stmts, evs):
    saved = engine_module.STABLE_SENDS
    engine_module.STABLE_SENDS = 1          # inline at once
    if fusion == "env":
        os.environ["EPL_FUSION"] = "0"
    try:
        got = _run(stmts, evs, lean=True, thread_safe=thread_safe, fusion=fusion)
        want = _run(stmts, evs, lean=False, thread_safe=thread_safe, fusion=fusion)
    finally:
        engine_module.STABLE_SENDS = saved
        os.environ.pop("EPL_FUSION", None)
    assert got == want


def _inlined_engine(thread_safe: bool = True, listener=lambda new, old: None) -> Engine:
    """An engine whose front discards T events without the lock (`sym = 'a'` is wanted)."""
    engine = Engine(time="simulated", thread_safe=thread_safe)
    engine.epl(SCHEMAS[0])
    engine.epl("select * from T(sym = 'a')").add_listener(listener)
    for _ in range(engine_module.STABLE_SENDS + 2):
        engine.send({"sym": "b", "v": 1.0, "i": 1}, "T")      # discarded: the front inlines T
    assert engine._lean.gen >= 1
    return engine


@pytest.mark.parametrize("thread_safe", [True, False])
def test_a_send_from_a_listener_waits_for_the_statement_the_listener_makes(thread_safe):
    """A discard is decided when the event is processed, not when a listener sends it."""
    got: list = []

    def listen(new, old):
        engine.send({"sym": "q", "v": 1.0, "i": 1}, "T")      # nothing wants it yet
        engine.epl("select * from T(sym = 'q')").add_listener(lambda n, o: got.append(n[0]["sym"]))
    engine = _inlined_engine(thread_safe, listen)
    engine.send({"sym": "a", "v": 1.0, "i": 1}, "T")
    assert got == ["q"]


def test_a_discard_waits_while_another_thread_holds_the_lock():
    """`with engine.lock:` on another thread excludes even events nothing wants yet: one sent
    meanwhile sees the statements made before the lock is released."""
    engine = _inlined_engine()
    got: list = []
    held, sent, release = threading.Event(), threading.Event(), threading.Event()

    def hold() -> None:
        with engine.lock:
            held.set()
            sent.wait(5)
            release.wait(0.3)       # the sender has had time to pass the lock if it could
            engine.epl("select * from T(sym = 'q')").add_listener(lambda n, o: got.append(n[0]["i"]))
    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(5)

    def send() -> None:
        sent.set()
        engine.send({"sym": "q", "v": 1.0, "i": 5}, "T")
    sender = threading.Thread(target=send)
    sender.start()
    sender.join(0.2)
    assert sender.is_alive()            # waits for the lock, though nothing wants it yet
    release.set()
    holder.join(5)
    sender.join(5)
    assert got == [5]


def test_a_discard_waits_while_another_thread_processes_an_event():
    engine = _inlined_engine()
    inside, release = threading.Event(), threading.Event()
    got: list = []

    def listen(new, old):
        inside.set()
        release.wait(5)
        engine.epl("select * from T(sym = 'q')").add_listener(lambda n, o: got.append(n[0]["i"]))
    engine.epl("select * from T(sym = 'a')").add_listener(listen)
    t = threading.Thread(target=lambda: engine.send({"sym": "a", "v": 1.0, "i": 1}, "T"))
    t.start()
    assert inside.wait(5)
    other = threading.Thread(target=lambda: engine.send({"sym": "q", "v": 1.0, "i": 9}, "T"))
    other.start()
    other.join(0.2)
    assert other.is_alive()
    release.set()
    t.join(5)
    other.join(5)
    assert got == [9]


def test_concurrent_senders_and_a_thread_changing_statements():
    """Senders of mostly discarded events on three threads while a fourth creates and destroys
    statements: each statement sees exactly the events sent while it existed, counted by the
    senders under the lock, and no listener runs beside another."""
    engine = _inlined_engine()
    active, overlaps = [0], [0]
    seen: dict = {}

    def counting(name):
        def listen(new, old):
            active[0] += 1
            if active[0] > 1:
                overlaps[0] += 1
            seen[name] = seen.get(name, 0) + len(new)
            active[0] -= 1
        return listen
    sent: dict = {}           # statement -> 'q' events sent while it existed
    live: list = []
    stop = threading.Event()

    def feed(n: int) -> None:
        for k in range(n):
            if k % 50 == 0:
                with engine.lock:           # a wanted event, counted for the live statements
                    engine.send({"sym": "q", "v": 1.0, "i": k}, "T")
                    for name in live:
                        sent[name] = sent.get(name, 0) + 1
            else:
                engine.send({"sym": "b" if k % 2 else "c", "v": 1.0, "i": k}, "T")

    def churn() -> None:
        k = 0
        while not stop.is_set():
            with engine.lock:
                name = f"q{k}"
                stmt = engine.epl(f"@name('{name}') select * from T(sym = 'q')")
                stmt.add_listener(counting(name))
                live.append(name)
            for _ in range(200):
                engine.send({"sym": "d", "v": 1.0, "i": 0}, "T")
            with engine.lock:
                live.remove(name)
                stmt.destroy()
            k += 1
    changer = threading.Thread(target=churn)
    changer.start()
    feeders = [threading.Thread(target=feed, args=(3000,)) for _ in range(3)]
    for t in feeders:
        t.start()
    for t in feeders:
        t.join()
    stop.set()
    changer.join()
    assert overlaps[0] == 0
    assert {k: v for k, v in seen.items()} == {k: v for k, v in sent.items() if v}


def test_the_engine_lock_counts_what_is_held():
    lock = EngineLock()
    assert lock.held == 0
    with lock:
        with lock:
            assert lock.held == 2 and lock._is_owned()
        assert lock.held == 1
    assert lock.held == 0 and not lock._is_owned()
    with pytest.raises(RuntimeError):
        lock.release()
    assert lock.held == 0
    assert lock.acquire(blocking=False)
    t = threading.Thread(target=lambda: box.append(lock.acquire(timeout=0.05)))
    box: list = []
    t.start()
    t.join()
    assert box == [False] and lock.held == 1
    lock.release()
    cond = threading.Condition(lock)
    with lock, cond:                    # a condition's wait releases every level
        assert lock.held == 2
        cond.wait(0.01)
        assert lock.held == 2
    assert lock.held == 0
    with lock:
        copy = pickle.loads(pickle.dumps(lock))
    assert copy.held == 0 and copy.acquire(blocking=False)


def test_the_inlined_checker_refuses_what_the_type_refuses():
    """The front checks a wanted event with the type's checker inlined: property names that
    need quoting or look like the checker's own names are read and reported as the checker
    does."""
    import sys
    engine = Engine(time="simulated")
    names = ["it's", 'a"b\n', "_a0", "_t0_0", "_fail"]
    engine.register_type("Odd", {names[0]: "string", names[1]: "int", names[2]: "double",
                                 names[3]: "boolean", names[4]: "long"})
    got: list = []
    engine.epl("select * from Odd").add_listener(lambda new, old: got.append(dict(new[0].underlying)))
    good = {names[0]: "x", names[1]: 1, names[2]: 2.5, names[3]: True, names[4]: 7}
    for _ in range(engine_module.STABLE_SENDS + 2):
        engine.send(good, "Odd")
    frames: list = []
    sys.setprofile(lambda frame, event, arg: frames.append(frame.f_code.co_name) if event == "call" else None)
    try:
        engine.send(good, "Odd")
    finally:
        sys.setprofile(None)
    assert "check" not in frames                # inlined
    assert len(got) == engine_module.STABLE_SENDS + 3
    for name, bad in zip(names, [1, "1", "x", 1, 2.5]):
        with pytest.raises(EventTypeError) as inlined:
            engine.send({**good, name: bad}, "Odd")
        with pytest.raises(EventTypeError) as called:
            engine.event_type("Odd").check({**good, name: bad})
        assert str(inlined.value) == str(called.value) and f"property '{name}'" in str(inlined.value)
    assert len(got) == engine_module.STABLE_SENDS + 3


@settings(max_examples=30, deadline=None)
@given(stmts=st.lists(st.integers(0, len(FILTERS) - 1), min_size=1, max_size=4, unique=True),
       evs=st.lists(st.lists(events, min_size=1, max_size=40), min_size=2, max_size=3))
def test_threads_sending_at_once_each_get_what_they_get_alone(stmts, evs):
    """Stateless filters: whatever the interleaving, each statement sees each thread's events
    that it wants, once, in that thread's order, as the general path delivers them alone;
    a third thread holds `engine.lock` now and then meanwhile."""
    def statements(engine: Engine, log: list) -> None:
        for k in stmts:
            engine.epl(f"select * from T({FILTERS[k]})").add_listener(
                lambda new, old, k=k: log.extend((k, e["tag"]) for e in new))

    def tagged(thread: int, seq: list) -> list:
        """The thread's events, values of another type (and MISSING) left out: no errors."""
        fits = {"sym": str, "v": float, "i": int}
        return [{**{k: x for k, x in (("sym", sym), ("v", v), ("i", i)) if type(x) is fits[k]},
                 "tag": (thread, n)} for n, (_, sym, v, i, _) in enumerate(seq)]
    batches = [tagged(n, seq) for n, seq in enumerate(evs)]
    want: list = []
    alone = Engine(time="simulated")
    alone.register_type("T", {"sym": "string", "v": "double", "i": "int", "tag": "object"})
    statements(alone, want)
    for batch in batches:
        for ev in batch:
            alone.send(EventBean(alone.event_type("T"), ev))

    engine = Engine(time="simulated")
    engine.register_type("T", {"sym": "string", "v": "double", "i": "int", "tag": "object"})
    got: list = []
    statements(engine, got)
    for _ in range(engine_module.STABLE_SENDS + 2):
        engine.send({"sym": "none", "tag": None}, "T")       # the front inlines T
    got.clear()
    stop = threading.Event()

    def pause() -> None:
        while not stop.is_set():
            with engine.lock:
                pass

    def feed(batch: list) -> None:
        for ev in batch:
            engine.send(ev, "T")
    pauser = threading.Thread(target=pause)
    pauser.start()
    threads = [threading.Thread(target=feed, args=(b,)) for b in batches]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    pauser.join()
    for k in stmts:
        for n in range(len(batches)):
            assert [tag for s, tag in got if s == k and tag[0] == n] == \
                [tag for s, tag in want if s == k and tag[0] == n]
    assert sorted(got) == sorted(want)


@pytest.mark.parametrize("thread_safe", [True, False])
def test_an_engine_with_a_front_is_freed(thread_safe):
    """The front's code constants hold no way back to the engine (code objects are not
    looked into by the cycle collector): a dropped engine goes."""
    import gc
    import weakref
    engine = _inlined_engine(thread_safe)
    engine.send({"sym": "a", "v": 1.0, "i": 1}, "T")          # the wanted path and its check
    ref = weakref.ref(engine)
    del engine
    gc.collect()
    assert ref() is None
