"""An engine's per-event fronts: `engine.send` with its map types' routing code inlined, and `engine.advance_time`.

`engine.send` is a generated function (an instance attribute in front of `Engine.send`): for a dict
of a map type whose routing code it inlines, it runs the filter index's generated route body
in its own frame, so an event no filter wants costs one Python frame (docs/performance.md,
"A lean send"). Everything else, and any type whose routing changed since the front was
generated, goes to `Engine.send`.

Why the route body and not a call to the route: a Python call is about a third of what a
discarded event costs. The body is the route function's own source (`filterindex.codegen.source_of`): inlined only when its head and tail are exactly the shape
`filterindex.codegen.build_route_fn` emits, else the type keeps the call (never wrong, at
worst slower). The inlined code is valid while the type's route function is the one it was
copied from: the front tests that identity and falls back when it changed.

Discards without the lock. A body that reads nothing but the event and immutable constants
(`_discards_unlocked`) runs first without the lock, when nobody holds it (`engine.lock.held
== 0`, engine/lock.py; without a lock: no send in progress) and the route is still the one
copied: an event it discards returns there. That is the answer the engine would give holding
the lock: nothing changes the engine's state while the lock is free, a route function is
never current again once replaced, and the body reads only the constants of the function
that was current when the lock was free. Anyone holding the lock (another thread's event,
`with engine.lock:` in user code, a listener sending on this thread) sends the event the
locked way, which waits and routes it again. A wanted event is routed again holding the lock.

The front's function object never changes (callers keep `send = engine.send`): a new
front replaces its `__code__` and adds its constants under names of its generation. The
locked code of a generation uses its own names only after it checked, holding the lock,
that it is the current generation; the names of older generations are deleted when no send
is in progress (`engine._depth == 0` under the lock: no frame of the front is past that
check). The unlocked code loads its constants as constants of its code object, and a name
deleted under it (an older front's handles) is a NameError that sends the event the locked
way. Type names, like the unlocked code's constants, reach the code as constants, never as
source text.

Advancing time without the lock. With nothing due at or before t and nobody holding the lock,
`advance_time(t)` only stores t as the engine's time, without taking the lock. No other thread
may see that store in the middle of its event or time step: the test of `held`, the tests of
the time and the schedule's head and the store run with no call and no backward jump between
them, and CPython, holding the GIL, hands it to another thread only at those (or at a
function's start). So no other thread runs between the test and the store: either the lock
was free for all of it or the call takes the lock. Where that does not hold (an interpreter
without the GIL or not CPython), `advance_time` always takes the lock.

Raw appends without the lock. When a type's route collects one handle always and that
handle is a fused grouped time batch holding raw dicts (engine/fused_windows.py
RawBatchWindow), what processing a later event of its batch does is `on_event`'s append of
the dict (nothing is posted before time moves) and setting `current_statement` to the
statement. The front does that append itself, without the lock, bean or feed, when: the
event passes the checker's one-condition test (tested first: calls may come before `held`);
then, with no call and no backward jump up to the append (by the argument above; the append
is a C method whose effect comes before the eval-breaker check after it, and nothing is
stored or freed before it), nobody holds the lock (`held`; without a lock `_depth`), no send
or time step is in progress (`_depth`), this is the current generation and the route is
still the one copied (any filter added or removed on the type or a supertype replaces it),
nothing is pending, `current_statement` is already that statement, and the batch is begun
by a bean of this type. (The handle's `on_event` is the generated one for the handle's
life: a fused handle's is set once, when it is made.) Anything else (a first event of a
batch, a stopped, destroyed or unfused statement, an event the fast test does not pass, a
listener sending) takes the locked way, which does the same and more.

The batch's split. A statement summing one property by group (epl/compiler/fused/
batch_ends.py _values_end) takes, at its batch's end, the batch's split by group (key ->
the list of the group's values, groups in the order of their first events: `_acc`, see
sink_loops.py _split_lines) when the split holds a value for every event of the batch,
else it splits the batch itself. Every way an event joins a batch keeps that split or
leaves it short: the locked `on_event` and send_many's timed loop (holding the lock), and
the front, for an event passing the fast test (its key and value are then of the types the
split wants, `_split_test`) into a batch paired with its split (`_acc[0]` is the batch: only
the locked ways pair a batch they begin, with a new split; nothing else joins a split but
an event just appended to its batch, so a split never holds more values than its batch has
events). The front's part after the tests above: a group already in the split takes the
value after the append, so a thread switch between the two (at the check after the
append's call) leaves the split one short until the value comes, and a batch end in
between splits the batch itself (a value that comes after its batch ended goes to a split
nobody reads: splits and their lists are never reused); the order of values within a
group is not seen (the end takes their count and their sum, integers). A group new in the
split takes the spare empty list (`_acc[1]`, made before: an allocation may run the
collector, and so other threads' code) into the split before the append, with no call
between, so that the groups' order is that of their first events in the batch; the value
follows the append, then a new spare (with none, the locked way).
"""
from __future__ import annotations

import ast
import re
import sys
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Optional

from filterindex.codegen import source_of

from engine.contracts.event_types import checker_source

from engine.contracts.bean import EventBean
from .faults import statement_failed
from .fused_windows import RawBatchWindow
from .instance import RowHandle

if TYPE_CHECKING:
    from .lock import EngineLock

    from engine.contracts.runtime import Runtime

# Types inlined per engine: each costs one string comparison for the types after it.
MAX_TYPES = 8
# A type's route must stay the same for this many sends through `Engine.send` before the
# front is generated again: a route that changes all the time (a pattern adding and removing
# filters per event) keeps the call instead of a new front per event.
STABLE_SENDS = 8

# build_route_fn's frame around the route body (c0 the route, c1 the index, c2 the empty
# result, c3 dedup): any other shape is not inlined
_HEAD = ["def _f(bean):", "    if _stale:", "        return c0.fn(bean)",
         "    u = bean.underlying", "    out = None"]
_TAIL = ["    if out is None:", "        return c2",
         "    if c1._multi and len(out) > 1:", "        return c3(out)", "    return out", ""]
_CONST = re.compile(r"\bc(\d+)\b")
# the names a route body may use: its locals, its constants, keywords and the builtins of
# the filter index's namespace (a body naming anything else is not inlined)
_NAME = re.compile(r"(?<![.\w])[A-Za-z_]\w*")
# what an unlocked body may hold besides value reads and comparisons: collecting a handle
_HANDLE = re.compile(r"out = \[c\d+\]|out\.append\(c\d+\)")
_GET = re.compile(r"( *)(v\d+) = u\.get\((c\d+)\)")
_SCALARS = (str, int, float, bool, type(None), bytes)
# the lines of a map type's checker (engine.contracts.event_types._compile_checker)
_STR = re.compile(r"""('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")
_CHECK_SHAPES = [re.compile(x) for x in (
    r"""    v = get\((?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")\)""",
    r"    if v is not None:",
    r"        t = type\(v\)",
    r"        if t is not _t\d+_\d+(?: and t is not _t\d+_\d+)* and \(not isinstance\(v, _a\d+\)(?: or t is _bool)?\):",
    r"""            _fail\((?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"), (?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"), v\)""")]
_CHECK_CONST = re.compile(r"\b(?:_t\d+_\d+|_a\d+|_bool|_fail)\b")
_CHECK_CONST_P = re.compile(r"\b_g\d+t\d+_k(?:_t\d+_\d+|_a\d+|_bool|_fail)\b")
_KNOWN = re.compile(r"u|out|bean|[hmnv]\d+|c\d+|list|len|range|TypeError|AttributeError|None|True|"
                    r"False|if|elif|else|try|except|and|or|not|is|in|pass")



class SendRoute:
    """send's entry for dicts of one map type: the filter index's router, a probe bean, the
    type's checker, the type; which route function the front inlines (None: not inlined)
    and how many sends through `Engine.send` have seen the route unchanged (-1: do not
    regenerate for it until the route changes)."""

    __slots__ = ("router", "probe", "check", "event_type", "seen", "stable")

    def __init__(self, router: Any, probe: EventBean, check: Callable[[Any], None],
                 event_type: Any) -> None:
        self.router = router
        self.probe = probe
        self.check = check
        self.event_type = event_type
        self.seen: Any = None
        self.stable = 0


class LeanSend:
    """An engine's send front: send's entries by type name, the function, its namespace,
    its generation and the names each generation added."""

    __slots__ = ("locked", "routes", "fn", "ns", "gen", "names")

    def __init__(self, engine: "Runtime", lock: Optional["EngineLock"], routes: dict[str, SendRoute],
                 slow: Callable[[object, Optional[str]], None],
                 general: Callable[[object, Optional[str]], None], doc: Optional[str],
                 annotations: dict) -> None:
        self.locked = lock is not None
        self.routes = routes
        self.gen = 0
        self.names: dict[int, list[str]] = {}
        self.ns: dict[str, Any] = {
            "__builtins__": {}, "type": type, "dict": dict, "len": len, "list": list,
            "range": range, "TypeError": TypeError, "AttributeError": AttributeError, "KeyError": KeyError,
            "NameError": NameError,
            "isinstance": isinstance,
            "Exception": Exception, "_E": engine, "_slow": slow, "_general": general, "_gen": 0,
            "_new_bean": EventBean.__new__, "_EventBean": EventBean, "_RowHandle": RowHandle,
            "_failed": statement_failed,
        }
        if lock is not None:
            # the lock's own C methods and its `held` (engine/lock.py): the front counts
            # itself in `held` while it processes an event, as EngineLock.acquire does
            self.ns["_L"] = lock
            self.ns["_acquire"] = lock._lock.acquire
            self.ns["_release"] = lock._lock.release
        exec(compile(_source([], 0, lock is not None), "<engine.send>", "exec"), self.ns)
        fn = self.fn = self.ns["send"]
        fn.__doc__ = doc
        fn.__qualname__ = "Engine.send"
        fn.__module__ = "engine.engine"
        fn.__annotations__ = dict(annotations)

    def regenerate(self, idle: bool) -> None:
        """A new front over the send routes (type name -> SendRoute), the lock held; `idle`
        when no send is in progress on this thread (then no frame of the front is past its
        generation check, and the names of older generations can go)."""
        gen = self.gen + 1
        blocks: list[_Block] = []
        values: dict[str, Any] = {}
        literals: dict[str, Any] = {}       # the unlocked code's constants (_unlocked_body)
        inlined: list[tuple[SendRoute, Any]] = []
        for type_name, entry in list(self.routes.items()):
            fn = entry.router.fn
            body = _route_body(fn) if len(blocks) < MAX_TYPES else None
            if body is None:
                entry.stable = -1           # not again until its route changes
                continue
            i = len(blocks)
            p = f"_g{gen}t{i}_"
            lines, uses_bean = body
            free = None
            if _discards_unlocked(lines, fn.__globals__):
                free = _unlocked_body(lines, fn.__globals__, p, literals)
            lines, one = _one_handle(lines, fn.__globals__)
            keys = _keys_read(lines)
            lines = [_CONST.sub(lambda m: p + "c" + m.group(1), ln) for ln in lines]
            values.update((p + k, _interned(v) if k in keys else v)
                          for k, v in fn.__globals__.items() if _CONST.fullmatch(k))
            values.update(((p + "r", entry.router), (p + "f", fn), (p + "p", entry.probe),
                           (p + "k", entry.check), (p + "t", entry.event_type)))
            literals[f"\x00{p}n"] = type_name
            inlined.append((entry, fn))
            check = _checker_body(entry.check, p, values)
            fast = _fast_check(entry.check, p, values) if check is not None else None
            raw = _raw_append(one, lines, fast, self.locked, p, values)
            split = _split_test(one, fast, p, values, entry.event_type) if raw else None
            blocks.append(_Block(p, lines, uses_bean, free, check, fast, one, raw, split))
        try:
            code = _compile(_source(blocks, gen, self.locked), literals)
        except (SyntaxError, RecursionError, MemoryError):   # a body too deep: keep the front
            for entry in self.routes.values():
                entry.stable = -1
            return
        for entry, fn in inlined:
            entry.seen = fn
            entry.stable = -1               # inlined: Engine.send sees it only after a change
        ns = self.ns
        ns.update(values)
        self.names[gen] = list(values)
        if idle:
            for g in [g for g in self.names if g != gen]:
                for name in self.names.pop(g):
                    ns.pop(name, None)
        ns["_gen"] = gen
        self.gen = gen
        self.fn.__code__ = code


def _route_body(fn: Any) -> Optional[tuple[list[str], bool]]:
    """The lines of a generated route function's body (indented one level) and whether
    they read the probe bean; None when `fn` is not a route of build_route_fn's shape."""
    if getattr(fn, "__globals__", {}).get("_stale") is not False:
        return None
    src = source_of(fn)
    if src is None:
        return None
    lines = src.split("\n")
    if lines[:len(_HEAD)] != _HEAD or lines[-len(_TAIL):] != _TAIL:
        return None
    body = lines[len(_HEAD):-len(_TAIL)]
    if any(not _KNOWN.fullmatch(name) for ln in body for name in _NAME.findall(ln)):
        return None
    return body, any(re.search(r"\bbean\b", ln) for ln in body)


def _compile(src: str, literals: dict[str, Any]) -> Any:
    """The code object of the front's function `send` in `src`, each placeholder string of
    `literals` replaced in its constants by the value it stands for (each front's source
    names its generation: nothing to cache)."""
    module = compile(src, "<engine.send>", "exec")
    code = next(c for c in module.co_consts if getattr(c, "co_name", None) == "send")
    if literals:
        code = code.replace(co_consts=tuple(
            literals.get(c, c) if type(c) is str else c for c in code.co_consts))
    return code


class _Block(NamedTuple):
    """One inlined type in the front: the prefix of its names (its type name is the
    constant `'\\x00{prefix}n'` stands for), its route body (with the names), whether that
    reads the probe bean, the body for discards without the lock (None: none) and the
    type's checker's body (`_checker_body`) with its test that every value has exactly its
    type's first Python type (`_fast_check`), and the handle when the body collects at most
    one, always the same (`_one_handle`: `out` is then that handle or None)."""
    prefix: str
    body: list[str]
    uses_bean: bool
    free: Optional[list[str]]
    check: Optional[list[str]]     # the type's checker inlined (None: called)
    fast: Optional[str]            # the checker's all-exact-types test (`_fast_check`)
    one: Optional[Any]             # the one handle the body may collect (`_one_handle`)
    raw: bool = False              # the handle's raw append without the lock (`_raw_append`)
    split: Optional[str] = None    # `fast` keeping the key and value of the batch's split (`_split_test`)


def _discards_unlocked(body: list[str], consts: dict[str, Any]) -> bool:
    """Whether the front may run a route body without the lock to discard an event: the body
    reads nothing but the event and immutable constants (no call but `u.get`, no probe bean,
    no index structure a filter change alters in place: a route whose function is still the
    one copied then answers as it did when the lock was last free) and can discard (no
    handle collected unconditionally)."""
    if any(ln.startswith("    if out is None:") for ln in body):
        return False                    # every event is wanted: nothing to save
    for ln in body:
        rest = _HANDLE.sub("", ln.replace("u.get(", ""))
        if "(" in rest or "[" in rest or "." in rest or re.search(r"\bbean\b", rest):
            return False
        for name in _CONST.findall(rest):
            if not _immutable(consts.get("c" + name)):
                return False
    return True


def _unlocked_body(body: list[str], consts: dict[str, Any], p: str,
                   literals: dict[str, Any]) -> list[str]:
    """The body the front runs without the lock: each `v = u.get(c)` a subscript (an exact
    dict's missing key: None; cheaper than the method call when the key is there), and each
    immutable constant a constant of the code (a placeholder string, replaced in the
    compiled code's constants: cheaper to load than a global, never source text); the
    handles it collects keep their names. Only scalars and sets or tuples of them go into
    the constants: the cycle collector does not look into code objects, and a constant
    leading back to the engine (a router, a handle) would keep the engine alive forever."""
    keys = _keys_read(body)

    def name(m: re.Match) -> str:
        value = consts["c" + m.group(1)]
        if not _immutable(value):
            return p + "c" + m.group(1)
        key = f"\x00{p}c{m.group(1)}"
        literals[key] = _interned(value) if "c" + m.group(1) in keys else value
        return repr(key)
    lines = []
    for ln in body:
        got = _GET.fullmatch(ln)
        if got is not None:
            ind, v, c = got.groups()
            lines += [f"{ind}try:", f"{ind}    {v} = u[{c}]", f"{ind}except KeyError:", f"{ind}    {v} = None"]
        else:
            lines.append(ln)
    return [_CONST.sub(name, ln) for ln in lines]


def _keys_read(body: list[str]) -> set[str]:
    """The constants a route body reads the event's values by (`v = u.get(c)`)."""
    return {m.group(3) for m in map(_GET.fullmatch, body) if m is not None}


def _interned(value: Any) -> Any:
    """A property name as the interned string (an event dict's keys written as literals are
    interned: a lookup then matches by identity, without comparing the characters)."""
    return sys.intern(value) if type(value) is str else value


def _immutable(value: Any) -> bool:
    if type(value) in (tuple, frozenset):
        return all(type(v) in _SCALARS for v in value)
    return type(value) in _SCALARS


def _checker_body(check: Callable[[Any], None], p: str, values: dict[str, Any]) -> Optional[list[str]]:
    """The lines of a map type's generated checker to inline (one indent level, reading the
    event through a local `get`), its constants added to `values` under names of the prefix
    `p`; None when the checker is not of the shape engine.contracts.event_types generates
    (the front calls it then)."""
    got = checker_source(check)
    if got is None:
        return None
    body, ns, _ = got
    lines = []
    for ln in body:
        if not any(shape.fullmatch(ln) for shape in _CHECK_SHAPES):
            return None
        # the checker's constants renamed, string literals (property names) left alone
        parts = _STR.split(ln)          # code, literal, code, ...
        lines.append("".join(x if i % 2 else _CHECK_CONST.sub(lambda m: p + "k" + m.group(0), x)
                             for i, x in enumerate(parts)))
    for ln in lines:
        for name in _CHECK_CONST_P.findall(ln):
            if name[len(p) + 1:] not in ns:
                return None
    values.update((p + "k" + k, v) for k, v in ns.items() if _CHECK_CONST.fullmatch(k))
    return lines


_COLLECT = re.compile(r"( *)if out is None:")
_OUT = re.compile(r"\bout\b")


def _one_handle(body: list[str], consts: dict[str, Any]) -> tuple[list[str], Any]:
    """A body that collects at most one handle, always the same (one `out = [c]` /
    `out.append(c)` site, no other use of `out`; route bodies have no loops): the body with
    that site as `out = c`, and the handle; else the body unchanged and None. The front then
    needs no list, no dedup and no test of its length, and knows the handle's type."""
    sites = []
    for i, ln in enumerate(body):
        m = _COLLECT.fullmatch(ln)
        if m is None:
            continue
        ind = m.group(1)
        got = re.fullmatch(ind + r"    out = \[(c\d+)\]", body[i + 1]) if i + 3 < len(body) else None
        if got is None or body[i + 2] != ind + "else:" \
                or body[i + 3] != f"{ind}    out.append({got.group(1)})":
            return body, None
        sites.append((i, ind, got.group(1)))
    if len(sites) != 1:
        return body, None
    i, ind, c = sites[0]
    rest = body[:i] + body[i + 4:]
    if any(_OUT.search(ln) for ln in rest) or c not in consts:
        return body, None
    return body[:i] + [f"{ind}out = {c}"] + body[i + 4:], consts[c]


def _fast_check(check: Callable[[Any], None], p: str, values: dict[str, Any]) -> Optional[str]:
    """The checker's test of its common case (engine.contracts.event_types._fast_test) as a
    condition on `event`, its names under the prefix `p` (added to `values`); None when the
    checker has none or it is not of that shape. Where it holds, the checker's lines would
    pass the event without looking further; where not, they decide."""
    got = checker_source(check)
    if got is None or got[2] is None:
        return None
    _, ns, fast = got
    tests = _STR.split(fast)                # code, literal, code, ...
    code = "".join("@" if i % 2 else x for i, x in enumerate(tests))
    if not re.fullmatch(r"type\(u\[@\]\) (?:is _t\d+_0|in _f\d+)(?: and type\(u\[@\]\) (?:is _t\d+_0|in _f\d+))*", code):
        return None
    out = []
    for i, x in enumerate(tests):
        if i % 2:
            out.append(x)               # a property name's repr()
            continue
        x = x.replace("u[", "event[")
        for name in re.findall(r"\b_[tf]\d+(?:_0)?\b", x):
            if name not in ns:
                return None
            values[p + "k" + name] = ns[name]
        out.append(re.sub(r"\b(_[tf]\d+(?:_0)?)\b", lambda m: p + "k" + m.group(1), x))
    return "".join(out)


def _raw_append(one: Any, body: list[str], fast: Optional[str], locked: bool, p: str,
                values: dict[str, Any]) -> bool:
    """Whether the front may append a wanted event's dict to its one handle's raw time batch
    without the lock (module docstring, "Raw appends without the lock"): the route collects
    that handle always, the handle is a fused time batch holding raw dicts
    (engine/fused_windows.py RawBatchWindow) whose `on_event` is the generated one (a fused
    handle's `on_event` is set once, when engine/fused_windows.py fuse_window makes it: the
    front need not test it per event), and the checker has its one-condition test. Adds
    the window (`<p>w`) and the handle's statement (`<p>s`, a handle's statement never
    changes) to `values`."""
    if one is None or fast is None or len(body) != 1 or not body[0].startswith("    out = "):
        return False
    if locked and not GIL_SWITCHES_AT_CALLS:
        return False
    ns = getattr(one, "namespace", None)
    on_event = getattr(one, "on_event", None)
    # (_append_only: the sink's promise that on_event only appends such an event,
    # epl/compiler/fused/windows_sink.py generate_sink)
    if type(ns) is not dict or ns.get("_raw_batches") is not True or ns.get("_append_only") is not True \
            or ns.get("on_event") is not on_event:
        return False
    w = ns.get("_w")
    if type(w) is not RawBatchWindow:
        return False
    values[p + "w"] = w
    values[p + "s"] = one.statement
    return True


def _split_test(one: Any, fast: str, p: str, values: dict[str, Any], event_type: Any) -> Optional[str]:
    """The checker's fast test (`fast`) with the group key and the summed value of the raw
    batch's split stored in `_k` and `_v` as it reads them, when the front may keep that
    split too (module docstring, "Raw appends without the lock"): the sink says how
    (`_raw_split`: the key and value properties, their usual types, the properties its
    own test reads), the batch is of the front's type, and the fast test tests the key
    and the value against exactly those types and reads every property the sink's test
    reads (an event passing it would pass the sink's: epl/compiler/fused/sink_loops.py
    _split_lines). Adds the sink's `_acc` (`<p>a`) to `values`; None: no split kept."""
    ns = one.namespace
    rs = ns.get("_raw_split")
    acc = ns.get("_acc")
    if type(rs) is not tuple or len(rs) != 5 or ns.get("_et") is not event_type \
            or type(acc) is not list or len(acc) != 4:
        return None
    key, value, tk, tv, checked = rs
    if key == value:
        return None
    parts = _STR.split(fast)                # code, literal, code, ...
    read = set()
    out = []
    for i, x in enumerate(parts):
        if i % 2 == 0:
            out.append(x)
            continue
        name = ast.literal_eval(x)
        read.add(name)
        if name in (key, value):
            got = re.match(r"\]\) is (\w+)", parts[i + 1])
            if got is None or values.get(got.group(1)) is not (tk if name == key else tv) \
                    or not out[-1].endswith("type(event["):
                return None
            out[-1] = out[-1][:-len("event[")] + ("_k := event[" if name == key else "_v := event[")
        out.append(x)
    if not {key, value} <= read or not set(checked) <= read:
        return None
    # (each property it reads then has a value of one of its types: none of them NoneType)
    for name in re.findall(r"\b" + re.escape(p) + r"k_[tf]\d+(?:_0)?\b", fast):
        got = values.get(name)
        if got is type(None) or (type(got) is frozenset and type(None) in got) or got is None:
            return None
    values[p + "a"] = acc
    return "".join(out)


def _name(prefix: str) -> str:
    """The placeholder of a block's type name in the front's source (never the name itself)."""
    return repr(f"\x00{prefix}n")


def _source(blocks: list[_Block], gen: int, locked: bool) -> str:
    """The front's source: one block per inlined type, then `Engine.send`. A type whose body
    can discard without the lock (`_discards_unlocked`) runs it first when nobody holds
    the lock (`_L.held`, engine/lock.py) and no send is in progress: an event it discards
    returns there. Everything else, and a wanted event, takes the type's locked block,
    which routes the event again holding the lock."""
    out = ["def send(event, type_name=None):", "    if type(event) is dict:"]
    # CPython 3.11 specializes a comparison only when a short jump follows it (no
    # EXTENDED_ARG): each test is `if x != y: <short> else: <block>`, never `if x == y:
    # <block>` over a long block (a generic comparison costs as much as the rest of a test)
    for i, (p, body, uses_bean, free_body, check, fast, one, raw, split) in enumerate(blocks):
        out += [f"        if type_name != {_name(p)}:", "            pass", "        else:"]
        if split is not None or raw:
            # the raw time batch's append without the lock (module docstring): from the
            # test of `held` to the append no call and no backward jump, and nothing freed
            # (current_statement already the handle's statement: no store); any name
            # missing (an older front's), any state but the steady one: the locked way
            busy = "_L.held or _E._depth" if locked else "_E._depth"
            out += ["            try:",
                    f"                if {split if split is not None else fast}:",
                    # (the tests' jumps short: 3.11 specializes `!=` only then)
                    f"                    if {busy} or _gen != {gen} or {p}r.fn is not {p}f "
                    f"or _E.pending or _E.current_statement is not {p}s:",
                    "                        pass",
                    "                    else:",
                    f"                        _b = {p}w._batch"]
            if split is not None:
                # keeping the batch's split: a batch paired with its split (`_a[0]`) takes
                # the event's value under its group after the append, a group new in the
                # split taking the spare list before it; a batch not paired: the append alone
                out += [f"                        _a = {p}a",
                        "                        if _a[0] is _b and _b:",
                        "                            _s = _a[2]",
                        "                            if _k in _s:",
                        "                                _l = _s[_k]",
                        "                                _b.append(event)",
                        "                                _l.append(_v)",
                        "                                return",
                        "                            _l = _a[1]",
                        "                            if _l is not None:",
                        "                                _a[1] = None",
                        "                                _s[_k] = _l",
                        "                                _b.append(event)",
                        "                                _l.append(_v)",
                        "                                _a[1] = []",
                        "                                return",
                        f"                        elif _b and _b[0].event_type is {p}t:"]
            else:
                out += [f"                        if _b and _b[0].event_type is {p}t:"]
            out += ["                            _b.append(event)",
                    "                            return",
                    "            except (KeyError, NameError, AttributeError"
                    + (", TypeError" if split is not None else "") + "):",
                    "                pass"]
        if free_body is not None:
            # the unlocked discard first
            free = "not _L.held" if locked else "not _E._depth"
            out += ["            try:",
                    # a discard from the state the engine was in when the lock was last
                    # free; a NameError: the code of an older front whose names went
                    f"                if {free} and {p}r.fn is {p}f:",
                    "                    u = event",
                    "                    out = None"]
            out += [" " * 16 + ln for ln in free_body]
            out += ["                    if out is None:",
                    "                        return",
                    "            except NameError:",
                    "                pass"]
        ind = " " * 12
        if locked:
            out += [ind + "_acquire()", ind + "_L.held += 1"]
        out += [ind + f"if _gen != {gen} or _E._depth or {p}r.fn is not {p}f:"]
        out += [ind + "    _L.held -= 1", ind + "    _release()"] if locked else [ind + "    pass"]
        out += [ind + "else:",
                ind + "    _E._depth = 1",
                ind + "    try:"]
        # a body that only collects its one handle evaluates nothing: no statement to name
        always = one is not None and len(body) == 1 and body[0].startswith("    out = ")
        if not always:
            out.append(ind + "        _E.current_statement = None")
        if uses_bean:
            out += [ind + f"        bean = {p}p", ind + "        bean.underlying = event"]
        if always:
            out += [ind + "        out = " + body[0][len("    out = "):]]
        else:
            out += [ind + "        u = event", ind + "        out = None"]
            out += [ind + "    " + ln for ln in body]
        if uses_bean:
            out.append(ind + "        bean.underlying = None")
        tail = []                       # what a wanted event runs, one indent level
        if one is None:
            tail += [f"if {p}c1._multi and len(out) > 1:", f"    out = {p}c3(out)"]
        tail.append("if _E.check_events:")
        if check is None:
            tail.append(f"    {p}k(event)")
        else:
            k = "    "
            if fast is not None:
                # the common case in one condition; else (or a key missing) the checker
                tail += ["    try:", f"        _ok = {fast}", "    except KeyError:",
                         "        _ok = False", "    if not _ok:"]
                k = "        "
            tail.append(k + "get = event.get")
            tail += [k[4:] + ln for ln in check]
        tail += ["bean = _new_bean(_EventBean)", f"bean.event_type = {p}t", "bean.underlying = event"]
        # Engine.feed's one-handle case without its frame
        # (`_h.on_event(bean)` would be a LOAD_METHOD of a slot, which 3.11 does not
        # specialize: the attribute read and the call apart, both specialize)
        generic = ["_E.current_statement = _h.statement",
                   "_on = _h.on_event",
                   "try:",
                   "    _on(bean)",
                   "except Exception as _exc:",
                   "    _failed(_E, _h.statement, bean, _exc)"]
        if one is None:
            tail += ["if len(out) != 1:",
                     "    _E.feed(bean, out)",
                     "else:",
                     "    _h = out[0]",
                     "    if type(_h) is _RowHandle and not _E._dispatch_queue:",
                     "        _h.statement._deliver_now(bean)",
                     "    else:"]
            tail += ["        " + ln for ln in generic]
        else:
            tail.append("_h = out")
            if type(one) is RowHandle:          # a handle's type never changes
                tail += ["if not _E._dispatch_queue:", "    _h.statement._deliver_now(bean)", "else:"]
                tail += ["    " + ln for ln in generic]
            else:
                tail += generic
        if always:
            out += [ind + "        " + ln for ln in tail]
        else:
            out.append(ind + "        if out is not None:")
            out += [ind + "            " + ln for ln in tail]
        out += [ind + "        if _E.pending:",
                ind + "            _E.drain()",
                ind + "    finally:",
                ind + "        _E._depth = 0"]
        if locked:
            out += [ind + "        _L.held -= 1", ind + "        _release()"]
        out += [ind + "    return",
                # its route changed, or a send in progress: Engine.send
                ind + "_slow(event, type_name)", ind + "return"]
    # a dict of another type (or whose route changed): Engine.send; anything else: its
    # general path (Engine.send would only call it)
    out += ["        _slow(event, type_name)", "        return", "    _general(event, type_name)", ""]
    return "\n".join(out)


# CPython with its GIL switches threads only at calls, backward jumps and function starts
GIL_SWITCHES_AT_CALLS: bool = (sys.implementation.name == "cpython"
                               and getattr(sys, "_is_gil_enabled", lambda: True)())


def advance_front(scheduler: Any, lock: Optional["EngineLock"], fire_due: Callable[[int], None],
                  doc: Optional[str], annotations: dict) -> Callable[[int], None]:
    """`engine.advance_time` of a simulated-time engine: `Engine.advance_time` without its
    time-mode test (the mode never changes) and its attribute reads; with nothing due, two
    comparisons with the engine's time and one with the head of the schedule, and with a
    lock, its `held` instead of the lock (module docstring)."""
    if lock is None:
        def advance_time(t: int) -> None:
            if t < scheduler.now:
                scheduler.set_time(t)           # raises: time cannot move backwards
            scheduler.now = t
            # the head may be a cancelled callback: fire_due pops it and fires nothing
            heap = scheduler._heap
            if heap and heap[0].time <= t:
                fire_due(t)
    else:
        # the lock's own C methods: two calls cost half of a `with` block
        acquire, release = lock._lock.acquire, lock._lock.release

        def advance_locked(t: int) -> None:
            acquire()
            try:
                if t < scheduler.now:
                    scheduler.set_time(t)
                scheduler.now = t
                heap = scheduler._heap
                if heap and heap[0].time <= t:
                    # callbacks may run user code: the lock counts as held (engine/lock.py);
                    # setting a time alone changes nothing a discarded event depends on
                    lock.held += 1
                    try:
                        fire_due(t)
                    finally:
                        lock.held -= 1
            finally:
                release()

        if GIL_SWITCHES_AT_CALLS:
            def advance_time(t: int) -> None:
                # from the test of `held` to the store: no call, no backward jump (the
                # operands are ints, the handle's `time` a slot), so no other thread runs
                # in between (module docstring); anything due: the locked way
                if type(t) is int and not lock.held and t >= scheduler.now:
                    heap = scheduler._heap
                    if not heap or heap[0].time > t:
                        scheduler.now = t
                        return
                advance_locked(t)
        else:
            advance_time = advance_locked
    advance_time.__doc__ = doc
    advance_time.__qualname__ = "Engine.advance_time"
    advance_time.__module__ = "engine.engine"
    advance_time.__annotations__ = dict(annotations)
    return advance_time
