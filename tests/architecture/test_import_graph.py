"""The import graph of our packages: layers import downward only, and no import cycle spans
more than two modules (docs/architecture.md explains the layers).

The graph counts every import statement, those inside functions and under TYPE_CHECKING
included (found with `ast`, nothing is imported); `from a.b import c` is an edge to module
`a.b.c` when that is a module, else to `a.b`, and always to `a.b` as well."""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "epl", "views", "filterindex", "pipeline")

# The facade: the one place that joins the compiler and the runtime (the Engine, the CLI and
# its replay tools, test helpers for users, snapshots of a whole engine, the Spark pipeline).
FACADE = {
    "engine", "engine.engine", "engine.cli", "engine.cli_input", "engine.cli_output",
    "engine.cli_progress", "engine.replay", "engine.replay_clock", "engine.testing",
    "engine.pytest_plugin", "engine.prepared", "engine.checkpoint", "engine.state",
    "engine.isolation",   # `engine.isolated(name)`: a second routing front over the Engine's own
    "engine.module_order",   # `engine.deploy_modules`: parses modules and deploys them in order
}

# What each layer may import besides itself; anything else is an upward (or sideways) edge.
MAY_IMPORT = {
    "contracts": set(),
    "views": {"contracts"},
    "filterindex": {"contracts"},
    "epl": {"contracts", "views", "filterindex"},
    "runtime": {"contracts", "views", "filterindex", "epl"},   # but never epl.compiler
    "facade": {"contracts", "views", "filterindex", "epl", "runtime"},
}


def is_package(module: str) -> bool:
    return (ROOT.joinpath(*module.split(".")) / "__init__.py").is_file()


def layer_of(module: str) -> str:
    top = module.split(".")[0]
    if module == "engine.contracts" or module.startswith("engine.contracts."):
        return "contracts"
    if top == "pipeline" or module in FACADE:
        return "facade"
    if top == "engine":
        # a runtime package's __init__ is its public face: it may re-export what the compiler
        # defines for the feature (`engine.patterns.compile_pattern`), and so nothing inside
        # our packages may import it (the layering below catches that as an upward edge)
        return "facade" if is_package(module) else "runtime"
    return top


def upward(a: str, b: str) -> bool:
    la, lb = layer_of(a), layer_of(b)
    if la == lb:
        return False
    if la == "runtime" and (b == "epl.compiler" or b.startswith("epl.compiler.")):
        return True
    return lb not in MAY_IMPORT[la]


def modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def import_graph() -> dict[str, set[str]]:
    mods = modules()

    def resolve(name: str):
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = defaultdict(set)
    for m, path in mods.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = m.split(".") if is_pkg else m.split(".")[:-1]
                    base = base[:len(base) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [f"{mod}.{a.name}" for a in node.names] + [mod]
            else:
                continue
            for t in targets:
                if t.split(".")[0] in PACKAGES:
                    r = resolve(t)
                    if r and r != m:
                        edges[m].add(r)
    return edges


def strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative (the graph is deep enough to hit the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    nodes = set(edges) | {b for bs in edges.values() for b in bs}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    out.append(comp)
    return out


# -- what is left (may only shrink) ---------------------------------------------------------
# Each entry is an import edge the layering forbids, kept until its code moves. The test
# fails when an entry no longer exists (delete it: the list only shrinks) and when an edge
# that is not listed goes upward or closes a cycle of more than two modules.
from allowlist_import_graph import ALLOWED, CYCLIC  # noqa: E402  (the long lists live apart)


def test_layers_import_downward_only():
    edges = import_graph()
    bad = sorted((a, b) for a, bs in edges.items() for b in bs
                 if upward(a, b) and (a, b) not in ALLOWED)
    assert not bad, "upward imports (see docs/architecture.md for the layers):\n" + "\n".join(
        f"  {a} ({layer_of(a)}) -> {b} ({layer_of(b)})" for a, b in bad)


def test_no_import_cycle_longer_than_two_modules():
    edges = import_graph()
    pruned = {a: {b for b in bs if (a, b) not in ALLOWED} for a, bs in edges.items()}
    cycles = [sorted(c) for c in strongly_connected(pruned) if len(c) > 2]
    assert not cycles, "import cycles:\n" + "\n".join(f"  {c}" for c in cycles)


def test_cycles_left_only_shrink():
    """The modules still on a long cycle through allowlisted edges: no module may join."""
    cyclic = set().union(*[c for c in strongly_connected(import_graph()) if len(c) > 2])
    assert cyclic <= CYCLIC, f"modules newly on an import cycle: {sorted(cyclic - CYCLIC)}"
    assert CYCLIC <= cyclic, f"off the cycle now, delete from CYCLIC: {sorted(CYCLIC - cyclic)}"


def test_allowlist_only_shrinks():
    edges = import_graph()
    stale = sorted(e for e in ALLOWED if e[1] not in edges.get(e[0], ()))
    assert not stale, "these allowlisted imports are gone; delete them from the list:\n" + \
        "\n".join(f"  {a} -> {b}" for a, b in stale)
    long_cycles = [c for c in strongly_connected(edges) if len(c) > 2]
    fine = sorted(e for e in ALLOWED if not upward(*e)
                  and not any(e[0] in c and e[1] in c for c in long_cycles))
    assert not fine, f"allowlisted but allowed anyway; delete them: {fine}"


def test_lazy_package_faces_are_imported_only_from_outside():
    """Inside our packages, names come from their defining modules, never from a package
    `__init__` that loads them lazily (that would load the whole package and hide the edge)."""
    edges = import_graph()
    lazy = {m for m, path in modules().items()
            if path.name == "__init__.py" and "_lazy_exports(" in path.read_text()}
    bad = sorted((a, b) for a, bs in edges.items() for b in bs
                 if b in lazy and layer_of(a) != "facade")
    assert not bad, f"import the defining module instead: {bad}"


def test_contracts_import_nothing_of_ours_and_load_alone():
    import os
    import subprocess
    import sys
    code = ("import sys, engine.contracts.bean, engine.contracts.event_types, "
            "engine.contracts.errors, engine.contracts.scheduler, engine.contracts.time, "
            "engine.contracts.view_context; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            f"{PACKAGES!r} and not m.startswith('engine.contracts')))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env=env, check=True).stdout.strip()
    assert out == "['engine']", out
