"""The public API, pinned: the exported names of each package and the typed signatures of
`Engine` and `Statement` (annotations as written, `from __future__ import annotations`).
A change here is an API change: update the pin on purpose, and CHANGELOG.md with it.

The names of epl, views, filterindex and pipeline are pinned by their own tests
(tests/epl/test_epl_api.py, tests/views/test_views_registry.py,
tests/filterindex/test_filterindex_public_api.py, tests/pipeline/test_pipeline_public_api.py);
this module pins engine and engine.contracts and checks every lazy package face."""
from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

ENGINE_ALL = {
    "Engine", "Statement", "Deployment", "StatementState", "EventBean", "EventType",
    "EventTypeRegistry", "EPLType", "PropertyType", "EngineError", "EventTypeError",
    "StatementStateError", "TimeError",
}
CONTRACTS_ALL = {
    "EventBean", "EventType", "EventTypeRegistry", "Representation", "EPLType", "PropertyType",
    "EngineError", "EventTypeError", "TimeError", "StatementStateError", "EvaluationTimeout",
    "EPLError", "EPLSyntaxError", "EPLValidationError", "Scheduler", "ScheduleHandle",
    "TimeService", "ViewContext", "TimedBean", "EngineSignals",
}

SIGNATURES = {}   # filled below: {"Engine": {...}, "Statement": {...}}

# The packages whose __init__ loads its names on first use (PEP 562).
LAZY_FACES = ["engine", "engine.contracts", "epl", "views", "filterindex", "engine.output",
              "engine.patterns"]


def test_engine_names():
    import engine
    assert set(engine.__all__) == ENGINE_ALL
    assert engine.__version__


def test_contracts_names():
    import engine.contracts
    assert set(engine.contracts.__all__) == CONTRACTS_ALL


@pytest.mark.parametrize("name", LAZY_FACES)
def test_lazy_face_resolves_every_name_and_declares_it_for_type_checkers(name):
    """Each name in `__all__` resolves, is listed in `dir()`, and the `if TYPE_CHECKING:`
    block imports the same names from the same modules the lazy table loads them from."""
    pkg = importlib.import_module(name)
    assert pkg.__doc__ and "import" in pkg.__doc__, f"{name}: say what it holds and may import"
    for n in pkg.__all__:
        assert getattr(pkg, n) is not None, n
        assert n in dir(pkg)
    path = Path(importlib.util.find_spec(name).origin)
    checked = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for imp in node.body:
                if isinstance(imp, ast.ImportFrom):
                    for a in imp.names:
                        checked[a.asname or a.name] = (imp.module, a.name)
                elif isinstance(imp, ast.Import):
                    for a in imp.names:
                        checked[a.asname or a.name] = (a.name, None)
    origin = getattr(pkg, "_ORIGIN", None)
    if origin is not None:
        assert checked == dict(origin), f"{name}: TYPE_CHECKING imports and _ORIGIN disagree"
        assert set(origin) <= set(pkg.__all__)


def test_importing_a_face_does_not_load_the_runtime():
    import subprocess
    import sys
    code = ("import sys, engine, epl, views, filterindex, engine.contracts; "
            "print(sorted(m for m in sys.modules if m.startswith(('engine.', 'epl.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env=_env(), check=True).stdout.strip()
    # the faces alone and the one helper that makes them lazy, no module behind them
    assert out == "['engine.contracts', 'engine.contracts.lazy']", out


def _env() -> dict:
    import os
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def _signatures(cls: type) -> dict[str, str]:
    out = {}
    for n, v in sorted(vars(cls).items()):
        if n.startswith("_"):
            continue
        if isinstance(v, property):
            out[n] = "property -> " + str(inspect.signature(v.fget).return_annotation)
            continue
        f = v.__func__ if isinstance(v, (staticmethod, classmethod)) else v
        if callable(f):
            out[n] = str(inspect.signature(f))
    return out


@pytest.mark.parametrize("cls_name", ["Engine", "Statement"])
def test_signatures_are_pinned(cls_name):
    import engine
    cls = getattr(engine, cls_name)
    assert _signatures(cls) == SIGNATURES[cls_name]


@pytest.mark.parametrize("cls_name", ["Engine", "Statement"])
def test_no_any_in_public_signatures(cls_name):
    """Public signatures use precise types or protocols; the aliases they name count too."""
    import engine
    cls = getattr(engine, cls_name)
    module = importlib.import_module(cls.__module__)
    listeners = importlib.import_module("engine.listeners")
    for name, sig in _signatures(cls).items():
        assert not re.search(r"\bAny\b", sig), f"{cls_name}.{name}{sig}"
        for word in set(re.findall(r"[A-Za-z_]\w*", sig)):
            for mod in (module, listeners):
                alias = vars(mod).get(word)
                if alias is not None and not isinstance(alias, type) and \
                        type(alias).__module__ == "typing":
                    assert not re.search(r"\bAny\b", repr(alias)), f"{cls_name}.{name}: {word}"


SIGNATURES["Engine"] = {
    'advance_time': "(self, t: 'int') -> 'None'",
    'advance_time_span': "(self, t: 'int') -> 'None'",
    'after_event': "(self, action: 'Callable[[], None]') -> 'None'",
    'application_inputs': 'property -> dict[str, ApplicationInput]',
    'busy': 'property -> bool',
    'checkpoint': "(self, path: 'Optional[PathArg]' = None, *, meta: 'Optional[Mapping[str, object]]' = None) -> 'bytes'",
    'checkpoint_to': "(self, path: 'PathArg', *, meta: 'Optional[Mapping[str, object]]' = None) -> 'bytes'",
    'close': "(self) -> 'None'",
    'create_statement': "(self, node: 'A.Statement', text: 'str', name: 'Optional[str]' = None) -> 'Statement'",
    'deploy': "(self, text: 'PathArg') -> 'Deployment'",
    'deploy_file': "(self, path: 'PathArg') -> 'Deployment'",
    'deploy_modules': "(self, modules: 'Sequence[PathArg]') -> 'list[Deployment]'",
    'deployment_order': "(self, modules: 'Sequence[PathArg]') -> 'list[PathArg]'",
    'drain': "(self, process: 'Optional[Callable[[EventBean], None]]' = None) -> 'None'",
    'derive': "(self, ins: 'InsertIntoPlan', row: 'EventBean') -> 'EventBean'",
    'epl': "(self, text: 'str', name: 'Optional[str]' = None) -> 'Statement'",
    'event_type': "(self, name: 'str') -> 'EventType'",
    'execute_query': "(self, epl: 'str') -> 'list[EventBean]'",
    'feed': "(self, bean: 'EventBean', handles: 'Sequence[object]') -> 'None'",
    'filter_count': "(self) -> 'int'",
    'forget_statement': "(self, stmt: 'Statement') -> 'None'",
    'get_variable': "(self, name: 'str') -> 'object'",
    'input': "(self, type_name: 'Union[str, type]', **settings: 'object') -> 'ApplicationInput'",
    'insert_rows': "(self, ins: 'InsertIntoPlan', new_rows: 'Optional[list]', old_rows: 'Optional[list]') -> 'None'",
    'isolated': "(self, name: 'str') -> 'IsolatedService'",
    'module_deployments': 'property -> list[Deployment]',
    'now': 'property -> int',
    'prepare': "(self, text: 'str') -> 'PreparedStatement'",
    'process': "(self, bean: 'EventBean') -> 'None'",
    'processing': 'property -> bool',
    'queue_results': "(self, statement: 'Statement', new_rows: 'Optional[list]', old_rows: 'Optional[list]') -> 'None'",
    'register_aggregation': "(self, name: 'str', factory: 'Callable[..., object]') -> 'None'",
    'register_function': "(self, name: 'str', fn: 'Callable[..., object]', result_type: 'Optional[TypeSpec]' = None) -> 'None'",
    'register_type': "(self, type_: 'Union[type, str]', properties: 'Optional[Mapping[str, TypeSpec]]' = None, *, name: 'Optional[str]' = None, inherits: 'Iterable[str]' = (), start_timestamp: 'Optional[str]' = None, end_timestamp: 'Optional[str]' = None) -> 'EventType'",
    'restore': '(cls, source: \'Union[bytes, PathArg]\', *, listeners: \'Optional[Receivers]\' = None, subscribers: \'Optional[Mapping[str, object]]\' = None) -> "\'Engine\'"',
    'route': "(self, event: 'object', type_name: 'Optional[str]' = None) -> 'None'",
    'run': "(self, action: 'Callable[[], T]', process: 'Optional[Callable[[EventBean], None]]' = None) -> 'T'",
    'schedule_count': "(self) -> 'int'",
    'send': "(self, event: 'object', type_name: 'Optional[str]' = None) -> 'None'",
    'send_many': "(self, events: 'Iterable[object]', type_name: 'Optional[str]' = None, *, times: 'Optional[Iterable[int]]' = None, types: 'Optional[Iterable[str]]' = None) -> 'None'",
    'set_variable': "(self, name: 'str', value: 'object') -> 'None'",
    'start_instances': "(self, stmt: 'Statement') -> 'None'",
    'start_timer': "(self, resolution_ms: 'int' = 100) -> 'None'",
    'thread_safe': 'property -> bool',
    'statement': "(self, name: 'str') -> 'Statement'",
    'statements': 'property -> list[Statement]',
    'stop_instances': "(self, stmt: 'Statement') -> 'None'",
    'timer_resolution_ms': 'property -> Optional[int]',
    'to_bean': "(self, event: 'object', type_name: 'Optional[str]') -> 'EventBean'",
    'variables': 'property -> VariableService',
    'window_changed': "(self, consumers: 'tuple', new: 'Optional[list]', old: 'Optional[list]') -> 'None'",
}
SIGNATURES["Statement"] = {
    'add_listener': "(self, listener: 'Listener', *, signature: 'Optional[ListenerSignature]' = None) -> 'Listener'",
    'column_names': 'property -> tuple[str, ...]',
    'deliveries': '(self, maxsize: \'int\' = 1024) -> "\'DeliveryStream\'"',
    'destroy': "(self) -> 'None'",
    'event_type': "property -> Optional['EventType']",
    'is_destroyed': 'property -> bool',
    'is_started': 'property -> bool',
    'listeners': 'property -> list[Listener]',
    'on_update': "(self, listener: 'Optional[Listener]' = None, *, signature: 'Optional[ListenerSignature]' = None) -> 'Union[Listener, Callable[[Listener], Listener]]'",
    'remove_all_listeners': "(self) -> 'None'",
    'remove_listener': "(self, listener: 'Listener') -> 'None'",
    'rows': "(self) -> 'list[dict]'",
    'set_subscriber': "(self, obj: 'Optional[object]') -> 'None'",
    'start': "(self) -> 'None'",
    'stop': "(self) -> 'None'",
    'subscriber': 'property -> Optional[object]',
    'to_dataframe': '(self) -> "\'pandas.DataFrame\'"',
}
