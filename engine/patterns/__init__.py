"""Event patterns (`select ... from pattern [every a=A -> b=B(id = a.id)]`): compiled once
into operator plans; each statement instance runs a tree of live sub-expressions whose
filters sit in the engine's filter index and whose timers go through the statement's
schedule, released as soon as each sub-expression ends."""
from .compile import (
    PatternPlan as PatternPlan,
    PatternService as PatternService,
    compile_pattern as compile_pattern,
    install as install,
)
from .limits import PatternLimit as PatternLimit, pattern_limit as pattern_limit, set_pattern_limit as set_pattern_limit
from .run import PatternRun as PatternRun

__all__ = [
    "PatternPlan", "PatternService", "PatternRun", "compile_pattern", "install",
    "PatternLimit", "pattern_limit", "set_pattern_limit",
]
