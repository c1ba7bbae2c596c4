"""Several EPL modules deployed in Esper's order: a module after the modules it `uses`,
cycles and unresolved uses refused with Esper's messages (Esper's deployment-order
regression scenarios), all or none."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine import Engine
from engine.module_order import deployment_order
from epl.ast import Module
from epl.errors import EPLValidationError


def _m(name, *uses):
    return Module((), name=name, uses=tuple(uses))


def _order(mods, **kw):
    return [mods[i].name for i in deployment_order(mods, **kw)]


@pytest.mark.parametrize("mods, expected", [
    ([_m("C", "A", "B", "D"), _m("D", "A", "B"), _m("B", "A"), _m("A")], ["A", "B", "D", "C"]),
    ([], []),
    ([_m("A")], ["A"]),
    ([_m("B"), _m("A", "B")], ["B", "A"]),
    ([_m("B"), _m("C", "B"), _m("D")], ["B", "C", "D"]),
    ([_m("D"), _m("C", "B"), _m("B")], ["B", "D", "C"]),
    ([_m("C", "D"), _m("B"), _m("A", "B"), _m("D")], ["B", "D", "C", "A"]),
    ([_m("A", "C"), _m("B"), _m("C", "B"), _m("D", "C", "E"), _m("E")], ["B", "C", "E", "A", "D"]),
    ([_m("B"), _m("E"), _m("C", "B"), _m("A", "C"), _m("D", "C", "E")], ["B", "E", "C", "A", "D"]),
    ([_m("A", "C"), _m("D", "C", "E"), _m("E"), _m("C", "B"), _m("B")], ["B", "E", "C", "A", "D"]),
    ([_m("C", "D"), _m("D", "B"), _m("B", "B")], ["B", "D", "C"]),       # using itself is allowed
])
def test_esper_order(mods, expected):
    assert _order(mods) == expected


def test_null_and_duplicate_names_without_uses_check():
    mods = [_m(None, "C", "A", "B", "D"), _m(None, "C"), _m("A"), _m("B", "A", "C"), _m("C")]
    assert [i for i in deployment_order(mods, check_uses=False)] == [2, 4, 3, 0, 1]
    mods = [_m("A", "C"), _m("B", "C"), _m("A", "B"), _m("D", "A"), _m("C")]
    assert [i for i in deployment_order(mods, check_uses=False)] == [4, 1, 0, 2, 3]


@pytest.mark.parametrize("mods, message", [
    ([_m("C", "D"), _m("D", "B"), _m("B", "C")],
     "Circular dependency detected in module uses-relationships: module 'C' uses (depends on) "
     "module 'D' uses (depends on) module 'B'"),
    ([_m("C", "B"), _m("B", "C")],
     "Circular dependency detected in module uses-relationships: module 'C' uses (depends on) module 'B'"),
    ([_m("B", "C")], "Module-dependency not found as declared by module 'B' for uses-declaration 'C'"),
    ([_m("B", "C"), _m("C", "D"), _m("D", "x")],
     "Module-dependency not found as declared by module 'D' for uses-declaration 'x'"),
])
def test_errors(mods, message):
    with pytest.raises(EPLValidationError) as ei:
        deployment_order(mods)
    assert ei.value.message == message


def test_cycle_check_off_keeps_an_order():
    assert _order([_m("C", "B"), _m("B", "C")], check_circular=False) == ["B", "C"]


TYPES = "module app.types; create schema Purchase(id string, qty int)"
WINDOW = "module app.window; uses app.types; create window Orders#keepall as Purchase"
QUERY = ("module app.query; uses app.window; uses app.types;\n"
         "@name('q') select count(*) as c from Orders")


def test_engine_deploys_users_after_what_they_use(tmp_path: Path):
    e = Engine(time="simulated")
    f = tmp_path / "window.epl"
    f.write_text(WINDOW)
    assert e.deployment_order([QUERY, f, TYPES]) == [TYPES, f, QUERY]
    deployments = e.deploy_modules([QUERY, f, TYPES])
    assert [d.module_name for d in deployments] == ["app.types", "app.window", "app.query"]
    e.epl("insert into Orders select * from Purchase")
    got = []
    deployments[2].statement("q").add_listener(lambda new, old: got.append(new[0]["c"]))
    e.send({"id": "a", "qty": 1}, "Purchase")
    assert got == [1]


def test_uses_may_name_a_module_already_deployed():
    e = Engine(time="simulated")
    e.deploy(TYPES)
    (d,) = e.deploy_modules([WINDOW])
    assert d.module_name == "app.window"


def test_all_or_none():
    e = Engine(time="simulated")
    bad = "module app.bad; uses app.types; select nope from Purchase"
    with pytest.raises(EPLValidationError):
        e.deploy_modules([bad, TYPES])
    e.epl("create schema Purchase(x int)")          # the first module's type is gone again


def test_cycle_refused_before_anything_deploys():
    e = Engine(time="simulated")
    with pytest.raises(EPLValidationError, match="Circular dependency"):
        e.deploy_modules(["module a; uses b; create schema A(x int)",
                          "module b; uses a; create schema B(x int)"])
    e.epl("create schema A(x int)")
