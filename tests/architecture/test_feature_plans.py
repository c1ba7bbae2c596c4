"""Patterns, contexts and match_recognize compile to plan data (epl/plans/, frozen dataclasses
with parameters and compiled closures), and the runtime builds its objects from the plan when
a statement or partition starts, never per event."""
from __future__ import annotations

import dataclasses

import pytest

import engine.contexts.controllers as controllers
import engine.patterns.run as run
import epl.plans.contexts as PC
import epl.plans.patterns as PP
from engine import Engine
from engine.fastpath_switch import set_fast_paths


def _plan_nodes(plan):
    """The pattern's operator nodes, and the values they hold (not walked further)."""
    stack = [plan]
    while stack:
        p = stack.pop()
        yield p
        if type(p).__module__ != "epl.plans.patterns":
            continue
        for f in dataclasses.fields(p):
            v = getattr(p, f.name)
            for x in (v if isinstance(v, tuple) else (v,)):
                if dataclasses.is_dataclass(x) and not isinstance(x, type):
                    stack.append(x)


def _engine():
    engine = Engine(time="simulated")
    engine.epl("create schema A(id int, v int)")
    engine.epl("create schema B(id int, v int)")
    return engine


PATTERNS = [
    "every a=A -> b=B(id = a.id) where timer:within(5 sec)",
    "every-distinct(a.id) a=A -> (b=B and not A(id = a.id))",
    "[2] a=A until B or timer:interval(1 sec)",
    "every a=A -> timer:at(*, *, *, *, *) and b=B while (b.v > 0)",
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_pattern_compiles_to_frozen_plan_data(pattern):
    engine = _engine()
    stmt = engine.epl(f"select * from pattern [{pattern}]")
    plan = stmt.plan.streams[0].pattern
    assert isinstance(plan, PP.PatternPlan)
    kinds = set()
    for node in _plan_nodes(plan.root):
        module = type(node).__module__
        # plan nodes, and what the compiler may build: filter templates, crontab specs
        assert module.split(".")[0] in ("epl", "filterindex") or module.startswith("engine.contracts"), node
        assert type(node).__dataclass_params__.frozen
        assert not hasattr(node, "make") and not hasattr(node, "start")
        kinds.add(type(node).__name__)
    assert len(kinds) >= 4


def test_the_state_node_factories_are_built_once_per_run_not_per_event(monkeypatch):
    built = []
    real = run.build
    monkeypatch.setattr(run, "build", lambda root: built.append(root) or real(root))
    engine = _engine()
    set_fast_paths(engine, False)       # the general state machines
    stmt = engine.epl("select * from pattern [every a=A -> b=B(id = a.id)]")
    got = []
    stmt.add_listener(lambda new, old: got.extend(new))
    for i in range(50):
        engine.send({"id": i % 5, "v": i}, "A")
        engine.send({"id": i % 5, "v": i}, "B")
    assert len(got) == 50
    assert len(built) == 1
    stmt.stop()
    stmt.start()
    engine.send({"id": 1, "v": 0}, "A")
    engine.send({"id": 1, "v": 0}, "B")
    assert len(built) == 2 and len(got) == 51


CONTEXTS = {
    "partition by id from A, id from B terminated by B(v = 0)": PC.KeyedSpec,
    "group by v > 0 as pos, group by v <= 0 as neg from A": PC.CategorySpec,
    "coalesce by hash_code(id) from A granularity 4": PC.HashSpec,
    "start A as a end pattern [B(id = a.id)]": PC.TemporalSpec,
    "initiated by A as a terminated after 5 sec": PC.TemporalSpec,
}


@pytest.mark.parametrize("text,spec_class", list(CONTEXTS.items()))
def test_a_context_compiles_to_plan_data(text, spec_class):
    engine = _engine()
    engine.epl(f"create context C {text}")
    stmt = engine.epl("context C select count(*) as n from A")
    definition = engine.services.contexts.get("C")
    assert isinstance(definition, PC.ContextDefinition)
    [level] = definition.levels
    assert type(level.spec) is spec_class
    assert isinstance(stmt.plan, PC.ContextSelectPlan)
    assert type(stmt.plan).__module__ == "epl.plans.contexts"


def test_context_controllers_are_made_per_partition_level_not_per_event(monkeypatch):
    made = []
    real = dict(controllers.CONTROLLERS)
    for cls, make in real.items():
        monkeypatch.setitem(controllers.CONTROLLERS, cls,
                            lambda *a, _m=make: made.append(a[0]) or _m(*a))
    engine = _engine()
    engine.epl("create context C context P partition by id from A, "
               "context G group by v > 0 as pos, group by v <= 0 as neg from A")
    stmt = engine.epl("context C select count(*) as n from A")
    got = []
    stmt.add_listener(lambda new, old: got.extend(new))
    for i in range(40):
        engine.send({"id": i % 4, "v": i}, "A")
    assert len(got) == 40
    # the keyed level once when the context starts, a category level per key
    assert [type(s) for s in made] == [PC.KeyedSpec] + [PC.CategorySpec] * 4


def test_match_recognize_is_a_view_factory_holding_plan_data():
    from views.match_recognize import MatchRecognizeFactory
    from views.match_recognize_plan import RowRecogPlan
    engine = _engine()
    stmt = engine.epl("select * from A match_recognize (measures a.id as x pattern (a b) "
                      "define b as b.v > a.v)")
    factory = stmt.plan.streams[0].views[-1]
    assert isinstance(factory, MatchRecognizeFactory)
    assert isinstance(factory.plan, RowRecogPlan)
