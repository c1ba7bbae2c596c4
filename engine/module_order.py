"""The order in which several EPL modules deploy: a module after the modules it `uses`
(Esper's deployment order), a cycle of uses an error, a use of a module that is neither
among them nor deployed an error."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Optional, Sequence

from epl.ast import Module
from engine.contracts.errors import EPLValidationError

if TYPE_CHECKING:
    from .engine import Engine


def deployment_order(modules: Sequence[Module], deployed: frozenset[str] = frozenset(), *,
                     check_uses: bool = True, check_circular: bool = True) -> list[int]:
    """Indexes into `modules` in deployment order.

    Esper's rule: module i depends on every listed module whose name i `uses` (a module may
    use itself). Repeatedly take the modules no remaining module depends on, last listed
    first; the reverse of that sequence is the order. So independent modules keep their
    listed order and a used module comes before its users."""
    names: dict[Optional[str], list[int]] = {}
    for i, m in enumerate(modules):
        names.setdefault(m.name, []).append(i)
    if check_uses:
        for m in modules:
            for use in m.uses:
                if use not in names and use not in deployed:
                    raise EPLValidationError(
                        f"Module-dependency not found as declared by module '{m.name}' for "
                        f"uses-declaration '{use}'", "")
    depends: list[list[int]] = []
    for i, m in enumerate(modules):
        deps = sorted({j for use in m.uses for j in names.get(use, ())} - {i})
        depends.append(deps)
    if check_circular:
        cycle = _first_cycle(depends)
        if cycle is not None:
            chain = " uses (depends on) ".join(f"module '{modules[i].name}'" for i in cycle)
            raise EPLValidationError(
                f"Circular dependency detected in module uses-relationships: {chain}", "")
    reverse: list[int] = []
    taken: set[int] = set()
    while len(taken) < len(modules):
        needed = {j for i, deps in enumerate(depends) if i not in taken for j in deps}
        roots = sorted((i for i in range(len(modules)) if i not in taken and i not in needed),
                       reverse=True)
        if not roots:                      # a cycle (checks off): take the first remaining
            roots = [next(i for i in range(len(modules)) if i not in taken)]
        for r in roots:
            taken.add(r)
            reverse.append(r)
    reverse.reverse()
    return reverse


def _first_cycle(depends: list[list[int]]) -> Optional[list[int]]:
    """The first chain of uses that comes back to a module on it, searched from each module in
    listed order, depth first."""
    def deep(path: list[int], node: int) -> bool:
        for nxt in depends[node]:
            if nxt in path:
                return True
            path.append(nxt)
            if deep(path, nxt):
                return True
            path.pop()
        return False

    for start in range(len(depends)):
        path = [start]
        if deep(path, start):
            return path
    return None


def read_modules(sources: Sequence[Any]) -> list[tuple[Module, str, Optional[str]]]:
    """Each source (EPL text, or a path of an `.epl` file) parsed: (module, text, path)."""
    from epl.parser import parse_module

    from .deployment import read_module
    out = []
    for src in sources:
        if isinstance(src, os.PathLike):
            text, path = read_module(src)
        else:
            text, path = src, None
        out.append((parse_module(text), text, path))
    return out


def deployed_module_names(engine: "Engine") -> frozenset[str]:
    """Names of the modules deployed on the engine and not undeployed."""
    return frozenset(d.module_name for d in engine.module_deployments
                     if d.module_name is not None and d.is_deployed)


def order_sources(engine: "Engine", sources: Sequence[Any]) -> list[Any]:
    """The sources (texts or paths) in deployment order."""
    parsed = read_modules(sources)
    order = deployment_order([m for m, _, _ in parsed], deployed_module_names(engine))
    return [sources[i] for i in order]


def deploy_in_order(engine: "Engine", sources: Sequence[Any]) -> list[Any]:
    """Deploy every module in deployment order, all or none: when one fails, the modules
    deployed before it are undeployed and the error is raised."""
    parsed = read_modules(sources)
    order = deployment_order([m for m, _, _ in parsed], deployed_module_names(engine))
    done: list[Any] = []
    try:
        for i in order:
            done.append(engine.deploy(sources[i]))
    except Exception:
        for d in reversed(done):
            d.undeploy()
        raise
    return done
