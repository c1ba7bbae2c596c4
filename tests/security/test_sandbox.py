"""The property-access sandbox (engine/sandbox.py): EPL never reaches the host process.

Each escape tried is listed below and asserted refused: an EPLValidationError where the type
is known at compile time, null plus the `property_refused` signal where it is not (values of
`object`-typed and map-typed properties). Legitimate nested, indexed and mapped properties and
the allowed methods still work."""
import dataclasses
import os
from typing import Any

import pytest

from engine import Engine
from engine.signals import property_refused
from epl.errors import EPLError, EPLValidationError
from recording import Rec

SECRET = "sandbox-secret-value"


class Plain:
    """A plain registered class: public data, a private attribute, a method."""

    def __init__(self) -> None:
        self.v = 1
        self._hidden = "hidden"
        self.fn = len              # a function held as a public attribute
        self.mod = os              # a module held as a public attribute

    def helper(self) -> str:
        return "called"


@dataclasses.dataclass
class Holder:
    payload: object
    s: str
    _private: str = "p"


@dataclasses.dataclass
class Inner:
    name: str
    tags: list


@dataclasses.dataclass
class Nest:
    nested: Inner
    items: list
    attrs: dict


@pytest.fixture()
def engine(monkeypatch):
    monkeypatch.setenv("SANDBOX_SECRET", SECRET)
    e = Engine(time="simulated")
    e.register_type(Holder)
    e.register_type(Plain)
    e.register_type(Nest)
    e.epl("create schema M(s string, o object, m java.util.Map, n int)")
    return e


@pytest.fixture()
def refused():
    seen: list[tuple[str, dict]] = []

    def on_refused(sender, **kw):
        seen.append((sender, kw))
    property_refused.connect(on_refused)
    yield seen
    property_refused.disconnect(on_refused)


def function_with_globals():
    return SECRET


def holder(payload: Any = None) -> Holder:
    return Holder(payload if payload is not None else function_with_globals, "text")


# -- escapes refused at compile time ------------------------------------------------------

COMPILE_TIME_ESCAPES = [
    # dunder chains from a function / object / string
    ("select payload.__init__.__globals__ as x from Holder", "dunder chain on object"),
    ("select payload.__globals__ as x from Holder", "__globals__"),
    ("select payload.__init__.__globals__.os.environ.SANDBOX_SECRET as x from Holder", "environ"),
    ("select s.__class__ as x from Holder", "__class__ on a string"),
    ("select s.__class__.__mro__ as x from Holder", "__mro__"),
    ("select s.__class__.__base__.__subclasses__ as x from Holder", "__subclasses__"),
    ("select payload.__builtins__ as x from Holder", "__builtins__"),
    ("select payload.__class__ as x from Holder", "__class__ on object"),
    ("select payload._x as x from Holder", "private name"),
    ("select _private as x from Holder", "private dataclass field"),
    ("select __class__ as x from Holder", "__class__ of the event"),
    ("select `__class__` as x from Holder", "backtick dunder"),
    ("select `__dict__` as x from Plain", "backtick __dict__ of a plain event"),
    ("select _hidden as x from Plain", "private attribute of a plain event"),
    ("select o.__class__ as x from M", "__class__ on an object-typed map property"),
    ("select s.__len__ as x from M", "dunder method on a string"),
    ("select s.upper as x from M", "attribute of a string"),
    ("select n.real as x from M", "attribute of an int"),
    ("select s('k') as x from M", "mapped syntax on a string"),
    # getattr-like names and format strings: not functions EPL knows
    ("select getattr(o, '__class__') as x from M", "getattr"),
    ("select eval('1') as x from M", "eval"),
    ("select exec('1') as x from M", "exec"),
    ("select __import__('os') as x from M", "__import__"),
    ("select s.format(o) as x from M", "format method"),
    ("select s.__format__('x') as x from M", "__format__"),
    ("select '{0.__class__}'.format(s) as x from M", "format string"),
    ("select s.__getattribute__('upper') as x from M", "__getattribute__"),
    ("select o.__reduce__() as x from M", "__reduce__"),
    ("select s.toUpperCase().__class__ as x from M", "dunder after a method"),
    ("select n.toUpperCase() as x from M", "string method on an int"),
    ("select s.intValue() as x from M", "number method on a string"),
    ("select s.encode() as x from M", "a Python method that is not allowed"),
]


@pytest.mark.parametrize("text, what", COMPILE_TIME_ESCAPES, ids=[w for _, w in COMPILE_TIME_ESCAPES])
def test_escape_refused_at_compile_time(engine, text, what):
    with pytest.raises(EPLValidationError):
        engine.epl(text)


@pytest.mark.parametrize("text", [
    "select * from M where s = 'a\\'); import os; os.environ.clear(); (\\''",
    "select * from M where s = 'line1\nline2'",
    "select * from M(s = '\\'\\'\\'\"\"\"\\n__import__(\"os\")')",
    "select * from M(s in ('\\'', '\"', '\\\\'))",
    "select `a'b` from M",
    "select `a\nb` from M",
    "select * from M(`s'); import os; ('` = 'x')",
    "select * from M(o.`x'); import os; ('` = 1)",
])
def test_generated_code_injection_through_literals_and_identifiers(engine, text):
    """Literals and identifiers reach generated code (filter index, event checks) only as
    constants or repr() literals: the statement either compiles and filters as text, or is an
    EPL error; nothing runs."""
    before = dict(os.environ)
    try:
        st = engine.epl(text)
    except EPLError:
        return
    Rec(st)
    engine.send({"s": "a'); import os; os.environ.clear(); ('", "o": {"x": 1}, "m": {}, "n": 1}, "M")
    assert dict(os.environ) == before


def test_schema_with_hostile_property_names_is_safe(engine):
    """Property names that are not identifiers go into the generated event check as repr()."""
    try:
        engine.epl("create schema Odd(`a'b` string, `x\ny` int, `__class__` int)")
    except EPLError:
        return
    engine.send({"a'b": "v", "x\ny": 1, "__class__": 2}, "Odd")
    rec = Rec(engine.epl("select `__class__` as c from Odd"))
    engine.send({"a'b": "v", "x\ny": 1, "__class__": 2}, "Odd")
    assert rec.pop() == [[{"c": 2}]]    # a declared map key is data, not an attribute


# -- escapes refused at run time (untyped values) ----------------------------------------

def run(engine, text, event, type_name=None):
    st = engine.epl(text)
    rec = Rec(st)
    engine.send(event, type_name)
    return rec.pop()


def test_object_typed_module_is_not_navigated(engine, refused):
    got = run(engine, "select payload.environ.SANDBOX_SECRET as x from Holder", holder(os))
    assert got == [[{"x": None}]]
    assert refused and refused[0][0] == "module"


def test_object_typed_class_and_function_are_not_navigated(engine, refused):
    assert run(engine, "select payload.mro as x from Holder", holder(str)) == [[{"x": None}]]
    assert run(engine, "select payload.func_name as x from Holder", holder(len)) == [[{"x": None}]]
    assert {r[0] for r in refused} >= {"type", "builtin_function_or_method"}


def test_methods_are_not_values(engine, refused):
    p = Plain()
    assert run(engine, "select payload.helper as x, payload.fn as f, payload.mod as m "
                       "from Holder", holder(p)) == [[{"x": None, "f": None, "m": None}]]
    assert run(engine, "select payload.mod.environ as x from Holder", holder(p)) == [[{"x": None}]]
    assert refused


def test_plain_event_methods_are_not_values(engine, refused):
    """A plain class without annotations is read dynamically: a method is not a value."""
    assert run(engine, "select helper as x, mod as m, v from Plain", Plain()) == \
        [[{"x": None, "m": None, "v": 1}]]
    assert run(engine, "select mod.environ as x from Plain", Plain()) == [[{"x": None}]]
    assert refused


def test_mapped_syntax_never_calls(engine, refused):
    calls = []

    def f(k):
        calls.append(k)
        return SECRET
    assert run(engine, "select payload('k') as x from Holder", holder(f)) == [[{"x": None}]]
    assert calls == [] and refused
    assert run(engine, "select payload('k') as x from Holder", holder({"k": 7})) == [[{"x": 7}]]
    assert run(engine, "select o('k') as x from M", {"s": "a", "o": {"k": 3}}, "M") == [[{"x": 3}]]
    assert run(engine, "select o('k') as x from M", {"s": "a", "o": f}, "M") == [[{"x": None}]]
    assert calls == []


def test_map_values_holding_objects(engine, refused):
    ev = {"s": "a", "o": Plain(), "m": {"mod": os, "k": 1}, "n": 1}
    assert run(engine, "select o.v as v, o.mod as mod, o.fn as fn from M", ev, "M") == \
        [[{"v": 1, "mod": None, "fn": None}]]
    assert run(engine, "select m.mod.environ as x, m.k as k from M", ev, "M") == \
        [[{"x": None, "k": 1}]]
    # a private key of a map is data; a private attribute of an object held there is not
    ev2 = {"s": "a", "o": None, "m": {"_k": 1, "obj": Plain()}, "n": 1}
    assert run(engine, "select m._k as k from M", ev2, "M") == [[{"k": 1}]]
    with pytest.raises(EPLValidationError):
        engine.epl("select m.obj._hidden as h from M")


def test_refusals_are_logged(engine, caplog):
    with caplog.at_level("WARNING", logger="engine.sandbox"):
        run(engine, "select payload.name_only_this_test_reads as x from Holder", holder(os))
    assert any("refused" in r.getMessage() for r in caplog.records)


def test_variables_of_object_type(engine, refused):
    engine.epl("create variable object obj = null")
    with pytest.raises(EPLValidationError):
        engine.epl("select obj.__class__ as x from M")
    engine.set_variable("obj", os)
    assert run(engine, "select obj.environ as x from M", {"s": "a"}, "M") == [[{"x": None}]]


def test_exceptions_never_escape_for_refused_steps(engine):
    st = engine.epl("select payload.a.b.c as x from Holder")
    rec = Rec(st)
    for payload in (os, str, len, Plain(), Plain().helper, {"a": {"b": {"c": 1}}}, [1], 3, "s"):
        engine.send(holder(payload))
    got = [r[0]["x"] for r in rec.pop()]
    assert got == [None, None, None, None, None, 1, None, None, None]


# -- what must keep working ---------------------------------------------------------------

def test_nested_indexed_and_mapped_properties(engine):
    ev = Nest(Inner("n1", ["t0", "t1"]), [10, 20, 30], {"k": "v"})
    got = run(engine, "select nested.name as name, nested.tags[1] as tag, items[2] as item, "
                      "attrs('k') as a from Nest", ev)
    assert got == [[{"name": "n1", "tag": "t1", "item": 30, "a": "v"}]]


def test_plain_public_attributes_and_object_navigation(engine):
    p = Plain()
    assert run(engine, "select v from Plain", p) == [[{"v": 1}]]
    assert run(engine, "select payload.v as v from Holder", holder(p)) == [[{"v": 1}]]
    assert run(engine, "select payload.a.b as x from Holder", holder({"a": {"b": 5}})) == [[{"x": 5}]]


def test_allowed_methods(engine):
    got = run(engine, "select s.toUpperCase() as u, s.length() as l, s.substring(1) as t, "
                      "s.startsWith('a') as sw, n.doubleValue() as d from M",
              {"s": "abc", "n": 2}, "M")
    assert got == [[{"u": "ABC", "l": 3, "t": "bc", "sw": True, "d": 2.0}]]
    # on an untyped value the allowed method applies when it fits, else null
    got = run(engine, "select o.toUpperCase() as u from M", {"s": "x", "o": "abc"}, "M")
    assert got == [[{"u": "ABC"}]]
    got = run(engine, "select o.toUpperCase() as u from M", {"s": "x", "o": 5}, "M")
    assert got == [[{"u": None}]]


def test_registered_functions_are_callable(engine):
    engine.register_function("twice", lambda v: v * 2)
    assert run(engine, "select twice(n) as x from M", {"s": "a", "n": 4}, "M") == [[{"x": 8}]]


def test_register_method_extends_the_registry(engine):
    from engine import epl_types as T
    from epl.compiler.functions import METHOD_KINDS, METHODS, register_method
    try:
        register_method("reversed", lambda s: s[::-1], T.STRING, {T.EPLType.STRING})
        assert run(engine, "select s.reversed() as r from M", {"s": "abc"}, "M") == [[{"r": "cba"}]]
        with pytest.raises(EPLValidationError):
            engine.epl("select n.reversed() as r from M")
    finally:
        METHODS.pop("reversed", None)
        METHOD_KINDS.pop("reversed", None)
