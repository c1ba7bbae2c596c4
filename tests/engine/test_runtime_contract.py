"""The runtime contract (engine/contracts/runtime.py): plans and features use the Runtime
protocol, never the engine's private attributes; every plan has one interface; statement kinds
are compiled through the typed feature registry keyed by AST class."""
from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

import epl.ast as A
from engine import Engine
from engine.features import Features
from engine.plan import Plan, SelectPlan
from engine.contracts.runtime import Runtime

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "epl", "views", "filterindex", "pipeline")


def _sources() -> list[Path]:
    return [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]


def _private_engine_reads(path: Path) -> list[str]:
    """`<x>.engine._name`, `engine._name`, `self._engine._name`: a private of the engine."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            base = node.value
            name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", None)
            if name in ("engine", "_engine"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}.{node.attr}")
    return found


def test_no_module_but_the_engine_reads_engine_privates() -> None:
    reads = [r for p in _sources() if p != ROOT / "engine" / "engine.py"
             for r in _private_engine_reads(p)]
    assert reads == []


def test_generated_code_reads_no_engine_privates() -> None:
    """The fused statements' generated loops test `engine.pending` and call `engine.drain()`."""
    from epl.compiler.fused.source import generate
    from epl.compiler.fused.shape import analyze
    from epl.parser import parse
    shape = analyze(parse("select count(*) as c from T#length(3)"))
    src = generate(shape, ["CountAll"], ["c"], False, True)
    assert "engine.pending" in src and "engine.drain()" in src
    assert not re.search(r"\bengine\._", src)


def test_no_module_reaches_engine_privates_by_name() -> None:
    """`getattr(engine, "_depth", 0)` is a private read too."""
    found = [f"{p.relative_to(ROOT)}:{i}" for p in _sources() if p != ROOT / "engine" / "engine.py"
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"getattr\((self\.)?_?engine, [\"']_", line)]
    assert found == []


def test_engine_parameters_are_typed() -> None:
    untyped = [f"{p.relative_to(ROOT)}:{i}" for p in _sources()
               for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
               if re.search(r"\b_?engine: Any\b", line)]
    assert untyped == []


def test_no_plan_is_asked_what_it_can_do() -> None:
    offenders = [f"{p.relative_to(ROOT)}:{i}" for p in _sources()
                 for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"hasattr\(\w*plan\w*, \"(instantiate|streams)\"\)", line)]
    assert offenders == []


def test_the_protocol_module_imports_only_typing() -> None:
    """engine/contracts/runtime.py imports only typing at run time, and, for type checkers,
    only the standard library and other contracts modules: never the runtime (features,
    statements, services) nor the compiler."""
    tree = ast.parse((ROOT / "engine" / "contracts" / "runtime.py").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert {(n.module if isinstance(n, ast.ImportFrom) else n.names[0].name) for n in top} \
        <= {"__future__", "typing"}
    every = {n.module if isinstance(n, ast.ImportFrom) else a.name
             for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
             for a in n.names}
    ours = {m for m in every if m.split(".")[0] in PACKAGES}
    assert all(m.startswith("engine.contracts.") for m in ours), ours
    assert not any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(tree))


def _members(protocol: type) -> set[str]:
    names = set(getattr(protocol, "__annotations__", {}))
    names |= {n for n, _ in inspect.getmembers(protocol) if not n.startswith("_")}
    return names - {"register", "mro"}


def test_the_engine_and_an_isolated_runtime_provide_the_contract() -> None:
    engine = Engine(time="simulated")
    try:
        runtime = engine.isolated("iso").runtime
        for target in (engine, runtime):
            missing = [n for n in sorted(_members(Runtime)) if not hasattr(target, n)]
            assert missing == []
        assert runtime.filters is not engine.filters
        assert runtime.scheduler is not engine.scheduler
    finally:
        engine.close()


def test_select_plans_instantiate_like_every_other_plan() -> None:
    assert callable(getattr(SelectPlan, "instantiate", None))
    assert "instantiate" in _members(Plan)


def test_every_statement_kind_has_a_compiler_keyed_by_its_class() -> None:
    engine = Engine(time="simulated")
    try:
        features = engine.features
        assert isinstance(features, Features)
        assert all(isinstance(k, type) for k in features.statements)
        kinds = {c for c in vars(A).values() if isinstance(c, type) and issubclass(c, A.Statement)
                 and c not in (A.Statement, A.SelectStatement, A.CreateSchema)
                 and not [s for s in c.__subclasses__()]}
        kinds.discard(getattr(A, "DeclaringStatement", None))
        assert kinds - set(features.statements) == set()
        assert features.function_hook is not None and features.dot_hook is not None
        assert "statements" not in engine.services
    finally:
        engine.close()


@pytest.mark.parametrize("text", [
    "create window W#keepall as (a int)",
    "create variable int v = 1",
    "create context C partition by a from T",
    "create expression e { x => x + 1 }",
])
def test_declarations_compile_through_the_registry(text: str) -> None:
    engine = Engine(time="simulated")
    try:
        engine.epl("create schema T(a int)")
        stmt = engine.epl(text)
        assert stmt.is_started
    finally:
        engine.close()


def test_fire_and_forget_forms_are_refused_as_statements_with_eplerror() -> None:
    from epl.errors import EPLError
    engine = Engine(time="simulated")
    try:
        engine.epl("create window W#keepall as (a int)")
        with pytest.raises(EPLError):
            engine.epl("delete from W")
    finally:
        engine.close()


def test_run_drains_what_the_action_routes() -> None:
    """Runtime.run: one processing step; a send inside it is processed before run returns."""
    engine = Engine(time="simulated")
    try:
        engine.epl("create schema T(a int)")
        seen = []
        engine.epl("select a from T").add_listener(lambda new, old: seen.extend(e["a"] for e in new))

        def action() -> int:
            assert engine.processing
            engine.send({"a": 1}, "T")
            assert seen == []           # queued: the step is still running
            return 7
        assert engine.run(action) == 7
        assert seen == [1] and not engine.processing
    finally:
        engine.close()


def test_feature_services_are_looked_up_by_typed_accessors() -> None:
    lookups = [f"{p.relative_to(ROOT)}:{i}" for p in _sources()
               for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
               if re.search(r"services(\.get\(|\.setdefault\(|\[)[\"']", line)]
    assert lookups == []
    engine = Engine(time="simulated")
    try:
        for name in ("variables", "named_windows", "contexts", "subqueries", "patterns"):
            assert getattr(engine.services, name) is engine.services[name]
    finally:
        engine.close()
