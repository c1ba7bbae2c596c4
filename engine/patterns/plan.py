"""PatternPlan: a compiled pattern (epl/compiler/patterns.py makes it), started once per
statement instance as a PatternRun."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from engine.contracts.event_types import EventType
from engine.patterns.run import PatternRun


@dataclass(frozen=True)
class PatternPlan:
    """A compiled pattern. `start(instance, handle)` runs it for one statement instance
    (`instance.engine`, `.ctx`, `.statement`; optional `.pattern_filter_addendum`) and feeds
    each match (an EventBean of `match_type`) to `handle.on_event`; it returns the run,
    whose `stop()` releases every filter and schedule."""

    root: Any
    match_type: EventType
    event_types: tuple              # types the pattern's filters listen to
    suppress_overlapping: bool = False
    discard_partials: bool = False
    # a fast path's plan data for the pattern's shape (epl/plans/keyed_followed.py), or None
    fast: Any = None

    def start(self, instance: Any, handle: Any, initial: Optional[dict] = None) -> Any:
        """`initial`: tags bound before the pattern starts (a context's end pattern reading
        what its start condition provided). The run's `stop()` releases it."""
        # a guarded statement (engine/rollback.py) keeps the general state machines
        if self.fast is not None and initial is None and getattr(instance, "guard", None) is None:
            from engine.patterns.keyed_followed import start_keyed
            run = start_keyed(self.fast, instance, handle)
            if run is not None:
                return run
        return PatternRun(self, instance, handle).start(initial)
