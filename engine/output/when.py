"""`output when <expr> [then set v = e, ...]` and `... and when terminated [and <expr>] [then set ...]`.

The expression is evaluated after every update, and again whenever a variable it reads
changes (from outside the condition's own `then set`). It may read the built-in properties
`count_insert`, `count_remove` (events since the last output), `count_insert_total`,
`count_remove_total` (since the start) and `last_output_timestamp`. When it is true the
assignments run and output happens, with a listener call even if there is nothing to deliver.
A variable change that makes it true outputs at once through a schedule at the current time.
The spec (WhenSpec, epl/plans/output.py) is compiled once per statement by
epl/compiler/output_when.py; its `holder` is shared by the compiled expressions, so each
condition instance fills it right before evaluating.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from epl.plans.output import Assignment, WhenSpec
from .base import Fire


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
        subscribe = spec.subscribe
        self.subscriptions = [subscribe(name, self._variable_changed)
                              for name in spec.watched] if subscribe is not None else []

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
        unsubscribe = self.spec.unsubscribe
        for sub in self.subscriptions:
            if sub is not None and unsubscribe is not None:
                unsubscribe(sub)
        self.subscriptions = []
