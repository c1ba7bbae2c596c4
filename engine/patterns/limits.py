"""The engine-wide limit on pattern sub-expression instances (Esper's
`patterns.maxSubexpressions`): live instances of followed-by children after the first, over
all statements. When a new instance would exceed it, the instance is not started (or, with
`prevent_start=False`, only reported); each time the engine sends
`engine.signals.pattern_limit` (statement=, count=, limit=) and, once each time the count
reaches the limit, logs a warning with the live instances per statement.

Configure with `set_pattern_limit(engine, n)`, or put an int in
`engine.services.pattern_limit` before statements start.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

log = logging.getLogger("epl.engine.patterns")


class PatternLimit:
    """Counts live sub-expression instances, engine-wide and per statement; `max_instances`
    None only counts."""

    def __init__(self, max_instances: Optional[int] = None, prevent_start: bool = True) -> None:
        self.max_instances: Optional[int] = None
        self.prevent_start = prevent_start
        self._count = 0
        self._per_statement: dict[str, int] = {}
        # runs that count their own instances (keyed_followed.KeyedFollowedRun: a counter
        # of their own, read here, instead of two counter updates per instance)
        self.sources: list[Any] = []
        self._warned = False
        self.configure(max_instances, prevent_start)

    def configure(self, max_instances: Optional[int], prevent_start: bool = True) -> None:
        if max_instances is not None and (isinstance(max_instances, bool) or max_instances < 0):
            raise ValueError("The pattern sub-expression limit must be zero or more")
        self.max_instances = max_instances
        self.prevent_start = prevent_start
        self._warned = False
        for s in self.sources:
            # the keyed fast path keeps a count only while a limit is set
            s.limit_changed()

    @property
    def count(self) -> int:
        """Live instances, engine-wide."""
        n = self._count
        for s in self.sources:
            n += s.live_count()
        return n

    @property
    def per_statement(self) -> dict[str, int]:
        """Live instances by statement name (statements with none left out)."""
        out = dict(self._per_statement)
        for s in self.sources:
            n = s.live_count()
            if n:
                name = s.statement.name
                out[name] = out.get(name, 0) + n
        return out

    def admit(self, engine: "Runtime", statement: Any) -> bool:
        """Whether one more instance of `statement` may start (reported when the limit is
        reached); the caller counts it."""
        limit = self.max_instances
        if limit is not None and self.count >= limit:
            self._report(engine, statement)
            if self.prevent_start:
                return False
        return True

    def try_acquire(self, engine: "Runtime", statement: Any) -> bool:
        """Count one more instance for `statement`; False when it must not start."""
        if self.max_instances is not None and not self.admit(engine, statement):
            return False
        self._count += 1
        name = statement.name
        self._per_statement[name] = self._per_statement.get(name, 0) + 1
        return True

    def release(self, statement: Any) -> None:
        if self._count > 0:           # instances counted before a limit object was swapped in
            self._count -= 1
        name = statement.name
        n = self._per_statement.get(name, 0) - 1
        if n > 0:
            self._per_statement[name] = n
        else:
            self._per_statement.pop(name, None)
        self.released()

    def released(self) -> None:
        """Instances ended: below the limit, the next time it is reached warns again."""
        if self.max_instances is None or self.count < self.max_instances:
            self._warned = False

    def _report(self, engine: "Runtime", statement: Any) -> None:
        if not self._warned:
            self._warned = True
            counts = ", ".join(f"'{k}': {v}" for k, v in sorted(self.per_statement.items()))
            action = "not started" if self.prevent_start else "started anyway"
            log.warning("Pattern sub-expression limit of %d reached by statement '%s': new "
                        "instances are %s (live instances per statement: %s)",
                        self.max_instances, statement.name, action, counts or "none")
        engine.signals.pattern_limit.send(engine, statement=statement, count=self.count,
                                          limit=self.max_instances)


def pattern_limit(engine: "Runtime") -> PatternLimit:
    """The engine's counter (created on first use; an int in services becomes the limit)."""
    lim = engine.services.pattern_limit
    if isinstance(lim, PatternLimit):
        return lim
    if lim is not None and (isinstance(lim, bool) or not isinstance(lim, int)):
        raise TypeError("engine.services.pattern_limit must be an int or a PatternLimit")
    lim = engine.services.pattern_limit = PatternLimit(lim)
    return lim


def set_pattern_limit(engine: "Runtime", max_instances: Optional[int], prevent_start: bool = True) -> None:
    """Limit the live pattern sub-expression instances of the whole engine (None: no limit).
    Instances already live count against the new limit."""
    pattern_limit(engine).configure(max_instances, prevent_start)
