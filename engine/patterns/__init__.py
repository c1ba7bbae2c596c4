"""Event patterns (`select ... from pattern [every a=A -> b=B(id = a.id)]`): compiled once
into a tree of operator plans (plan data, epl/plans/patterns.py; the compiler is
epl/compiler/patterns.py); each statement instance runs a tree of live sub-expressions whose
filters sit in the engine's filter index and whose timers go through the statement's
schedule, released as soon as each sub-expression ends.

The modules here are runtime: they import the contracts, filterindex, epl.ast and epl.plans,
never the compiler. This `__init__` is the package's public face (names load on first use,
some from the compiler); nothing inside our packages imports it."""
import typing as _typing

from engine.contracts.lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from engine.patterns.limits import PatternLimit as PatternLimit
    from engine.patterns.limits import pattern_limit as pattern_limit
    from engine.patterns.limits import set_pattern_limit as set_pattern_limit
    from epl.plans.patterns import PatternPlan as PatternPlan
    from engine.patterns.run import PatternRun as PatternRun
    from epl.compiler.patterns import PatternService as PatternService
    from epl.compiler.patterns import compile_pattern as compile_pattern
    from epl.compiler.patterns import install as install

__all__ = [
    "PatternPlan", "PatternService", "PatternRun", "compile_pattern", "install",
    "PatternLimit", "pattern_limit", "set_pattern_limit",
]

# Where each public name is defined; a name is imported on first use, then cached in the
# module dict, so later lookups never reach __getattr__.
_ORIGIN = {
    "PatternPlan": ("epl.plans.patterns", "PatternPlan"),
    "PatternService": ("epl.compiler.patterns", "PatternService"),
    "PatternRun": ("engine.patterns.run", "PatternRun"),
    "compile_pattern": ("epl.compiler.patterns", "compile_pattern"),
    "install": ("epl.compiler.patterns", "install"),
    "PatternLimit": ("engine.patterns.limits", "PatternLimit"),
    "pattern_limit": ("engine.patterns.limits", "pattern_limit"),
    "set_pattern_limit": ("engine.patterns.limits", "set_pattern_limit"),
}


__getattr__, __dir__ = _lazy_exports(__name__, _ORIGIN, __all__)
