"""Statement names are unique per engine and automatic names are never reused; a schema
declares each property once; a refused statement leaves nothing registered."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError


def test_automatic_names_are_never_reused_after_destroy():
    e = Engine(time="simulated")
    e.epl("create schema A(x int)")
    a = e.epl("select * from A")
    e.epl("select * from A")
    a.destroy()
    c = e.epl("select * from A")
    names = [s.name for s in e.statements]
    assert len(set(names)) == len(names) == 3
    assert e.statement(c.name) is c


def test_automatic_names_skip_names_users_gave():
    e = Engine(time="simulated")
    e.epl("create schema A(x int)")      # stmt-0
    e.epl("@name('stmt-1') select * from A")
    s = e.epl("select x from A")
    assert s.name == "stmt-2"


@pytest.mark.parametrize("second", [
    "@name('q') select x from A",
    "@name('q') create schema B(y int)",
    "@name('q') create window W#keepall as A",
    "@name('q') insert into C select x from A",
])
def test_a_duplicate_name_is_refused_naming_the_existing_statement(second):
    e = Engine(time="simulated")
    e.epl("create schema A(x int)")
    first = e.epl("@name('q') select * from A")
    before_types = {t.name for t in e.types.all()}
    filters = e.filter_count()
    with pytest.raises(EPLValidationError, match="Statement by name 'q' already exists.*select \\* from A"):
        e.epl(second)
    assert e.statements[-1] is first and e.statement("q") is first
    assert {t.name for t in e.types.all()} == before_types        # nothing half-registered
    assert e.filter_count() == filters


def test_a_duplicate_name_passed_to_epl_is_refused():
    e = Engine(time="simulated")
    e.epl("create schema A(x int)")
    e.epl("select * from A", name="n")
    with pytest.raises(EPLValidationError, match="'n' already exists"):
        e.epl("select x from A", name="n")


def test_deploy_is_all_or_nothing_on_a_duplicate_name():
    e = Engine(time="simulated")
    e.epl("create schema A(x int)")
    count = len(e.statements)
    with pytest.raises(EPLValidationError, match="'d' already exists"):
        e.deploy("@name('d') select * from A; create schema Z(z int); @name('d') select x from A")
    assert len(e.statements) == count and "Z" not in e.types


def test_duplicate_property_names_in_create_schema_are_refused():
    e = Engine(time="simulated")
    with pytest.raises(EPLValidationError, match="Duplicate column name 'a'"):
        e.epl("create schema X(a int, a string)")
    assert "X" not in e.types and not e.statements
