"""`output when <expr> [then set v = e, ...]` and `... and when terminated [and <expr>] [then set ...]`.

The expression is evaluated after every update, and again whenever a variable it reads
changes (from outside the condition's own `then set`). It may read the built-in properties
`count_insert`, `count_remove` (events since the last output), `count_insert_total`,
`count_remove_total` (since the start) and `last_output_timestamp`. When it is true the
assignments run and output happens, with a listener call even if there is nothing to deliver.
A variable change that makes it true outputs at once through a schedule at the current time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import engine.contracts.epl_types as T

from .base import Fire, OutputCondition

BUILTINS = {
    "count_insert": T.INT, "count_remove": T.INT,
    "count_insert_total": T.INT, "count_remove_total": T.INT,
    "last_output_timestamp": T.LONG,
}

Assignment = tuple[Callable[[Any], None], Callable[[Sequence[Any]], Any]]   # (write, value)


class BuiltinValues:
    """What compiled expressions read for the built-in names (the scope's builtins holder)."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}


@dataclass(frozen=True)
class WhenSpec:
    """Compiled once per statement; `holder` is shared by the compiled expressions, so each
    condition instance fills it right before evaluating."""

    when: Optional[Callable[[Sequence[Any]], Any]]
    then: tuple[Assignment, ...]
    holder: BuiltinValues
    watched: tuple[str, ...] = ()            # variables whose change re-evaluates `when`
    variables: Any = None
    terminable: bool = False
    terminated_and: Optional[Callable[[Sequence[Any]], Any]] = None
    terminated_then: tuple[Assignment, ...] = ()

    def make(self, ctx: Any, fire: Fire) -> OutputCondition:
        return WhenCondition(self, ctx, fire)


class WhenCondition:
    __slots__ = ("spec", "ctx", "fire", "count_insert", "count_remove", "total_insert",
                 "total_remove", "last_output", "handle", "in_then", "subscriptions")

    def __init__(self, spec: WhenSpec, ctx: Any, fire: Fire) -> None:
        self.spec = spec
        self.ctx = ctx
        self.fire = fire
        self.count_insert = self.count_remove = 0
        self.total_insert = self.total_remove = 0
        self.last_output = ctx.now()
        self.handle: Any = None
        self.in_then = False
        self.subscriptions = [_subscribe(spec.variables, name, self._variable_changed)
                              for name in spec.watched]

    def _fill(self) -> None:
        self.spec.holder.values = {
            "count_insert": self.count_insert, "count_remove": self.count_remove,
            "count_insert_total": self.total_insert, "count_remove_total": self.total_remove,
            "last_output_timestamp": self.last_output,
        }

    def _evaluate(self, fn: Optional[Callable]) -> bool:
        if fn is None:
            return False
        self._fill()
        return fn(()) is True

    def _assign(self, assignments: tuple[Assignment, ...]) -> None:
        if not assignments:
            return
        self.in_then = True
        try:
            for write, value in assignments:
                self._fill()
                write(value(()))
        finally:
            self.in_then = False

    def _reset(self) -> None:
        self.count_insert = self.count_remove = 0
        self.last_output = self.ctx.now()

    def update(self, new_count: int, old_count: int) -> None:
        self.count_insert += new_count
        self.count_remove += old_count
        self.total_insert += new_count
        self.total_remove += old_count
        if self._evaluate(self.spec.when):
            self._assign(self.spec.then)
            self.fire(True, True)
            self._reset()

    def _variable_changed(self, *args: Any) -> None:
        if self.in_then or self.handle is not None:
            return
        if self._evaluate(self.spec.when):
            self.handle = self.ctx.schedule(self.ctx.now(), self._due)
            self._assign(self.spec.then)

    def _due(self) -> None:
        self.handle = None
        self.fire(True, True)
        self._reset()

    def terminated(self) -> None:
        output = True
        if self.spec.terminated_and is not None:
            output = self._evaluate(self.spec.terminated_and)
        self._assign(self.spec.terminated_then)
        if output:
            self.fire(True, True)

    def stop(self) -> None:
        if self.handle is not None:
            self.ctx.cancel(self.handle)
            self.handle = None
        for sub in self.subscriptions:
            _unsubscribe(self.spec.variables, sub)
        self.subscriptions = []


# The variable service belongs to another part of the engine; these adapters name the few
# operations the condition needs (epl/compiler/output_when.py compiles the condition).

def _subscribe(variables: Any, name: str, callback: Callable[..., None]) -> Any:
    if variables is not None and hasattr(variables, "subscribe"):
        return variables.subscribe(name, callback)
    return None


def _unsubscribe(variables: Any, handle: Any) -> None:
    if handle is not None and variables is not None and hasattr(variables, "unsubscribe"):
        variables.unsubscribe(handle)
