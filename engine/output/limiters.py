"""Output limiters: what sits between a statement's result set and its listeners when the
statement has an output clause. Each takes view updates (`deliver`), feeds its condition, and
emits when the condition fires.

- BatchLimiter: `output [all|last] every ...` and grouped `output first`: a per-kind batch
  collects the updates and turns them into rows when the condition fires.
- FirstLimiter: ungrouped `output first`: the first update with a result after each firing is
  output at once, the rest is only applied to the aggregation.
- SnapshotLimiter: `output snapshot`: the statement's current result when the condition fires.
- AfterLimiter: `output after ...` alone: nothing until the after-clause is satisfied.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from .after import AfterState
from .rows import Rows
from .tap import HandOver, ViewUpdate

Emit = Callable[..., None]


class Output:
    """Delivers a firing's rows; an empty firing reaches listeners only when forced."""

    __slots__ = ("emit",)

    def __init__(self, emit: Emit) -> None:
        self.emit = emit   # emit(new, old, force=False), the statement's

    def __call__(self, force: bool, new: Rows, old: Rows) -> None:
        if new or old:
            self.emit(new or None, old or None)
        elif force:
            self.emit(None, None, force=True)


def _as_update(new_rows: Any, old_rows: Any) -> Optional[ViewUpdate]:
    """The view update handed over by the tapped processor; None for anything else and for
    updates without events (no Esper view posts those)."""
    if isinstance(new_rows, ViewUpdate) and (new_rows.new or new_rows.old):
        return new_rows
    return None


class Limiter:
    """What every limiter holds: the statement instance's processor (its `process` gives the
    rows of one update, aggregation applied) and the stand-in the plumbing calls instead
    (tap.py), the statement's output, the after-clause and the condition when there is one."""

    __slots__ = ("process", "stand_in", "out", "after", "terminable", "condition")

    def __init__(self, processor: Any, emit: Emit, after: Optional[AfterState],
                 terminable: bool = False) -> None:
        self.process: Callable = processor.process
        self.stand_in = HandOver(processor)
        self.out = Output(emit)
        self.after = after
        self.terminable = terminable
        self.condition: Any = None

    def _start(self, condition: Any, ctx: Any) -> None:
        self.condition = condition.make(ctx, self._fire)

    def _fire(self, do_output: bool, force: bool) -> None:
        raise NotImplementedError

    def terminated(self) -> None:
        if self.terminable:
            self.condition.terminated()

    def stop(self) -> None:
        if self.condition is not None:
            self.condition.stop()


class BatchLimiter(Limiter):
    __slots__ = ("batch", "keep_before_after", "keeps_aggregation")

    def __init__(self, processor: Any, batch: Any, condition: Any, ctx: Any, emit: Emit,
                 after: Optional[AfterState] = None, keep_before_after: bool = True,
                 terminable: bool = False, keeps_aggregation: bool = False) -> None:
        Limiter.__init__(self, processor, emit, after, terminable)
        self.batch = batch
        # Esper's non-buffered `output all|last` helpers apply each update to the aggregation
        # as it arrives and never start it afresh: a unidirectional join keeps its aggregation
        # across triggering events here (see engine/joins/executor.py)
        self.keeps_aggregation = keeps_aggregation
        # Esper keeps updates that arrive before the after-clause is satisfied in the batch
        # for aggregated statements (they count towards the aggregates), drops them otherwise
        self.keep_before_after = keep_before_after
        self._start(condition, ctx)

    def deliver(self, new_rows: Any, old_rows: Any) -> None:
        u = _as_update(new_rows, old_rows)
        if u is None:
            return
        if self.after is not None and not self.after.passed(len(u.new)):
            if self.keep_before_after:
                self.batch.add(u.new, u.old)
            return
        self.batch.add(u.new, u.old)
        self.condition.update(len(u.new), len(u.old))

    def _fire(self, do_output: bool, force: bool) -> None:
        new, old = self.batch.flush()
        if do_output:
            self.out(force, new, old)


class FirstLimiter(Limiter):
    __slots__ = ("selector", "witnessed")

    def __init__(self, processor: Any, condition: Any, ctx: Any, emit: Emit, selector: str,
                 after: Optional[AfterState] = None, terminable: bool = False) -> None:
        Limiter.__init__(self, processor, emit, after, terminable)
        self.selector = selector
        self.witnessed = False
        self._start(condition, ctx)

    def _relevant(self, new: Rows, old: Rows) -> bool:
        if self.selector == "istream":
            return bool(new)
        if self.selector == "rstream":
            return bool(old)
        return bool(new or old)

    def deliver(self, new_rows: Any, old_rows: Any) -> None:
        u = _as_update(new_rows, old_rows)
        if u is None:
            return
        if self.after is not None and not self.after.passed(len(u.new)):
            return
        new, old = self.process(u.new, u.old)
        if not self.witnessed:
            if not self._relevant(new, old):
                return
            self.witnessed = True
            self.out(True, new, old)
        self.condition.update(len(u.new), len(u.old))

    def _fire(self, do_output: bool, force: bool) -> None:
        self.witnessed = False


class SnapshotLimiter(Limiter):
    __slots__ = ("iterate",)

    def __init__(self, processor: Any, iterate: Callable[[], Sequence[Any]], condition: Any,
                 ctx: Any, emit: Emit, after: Optional[AfterState] = None,
                 terminable: bool = False) -> None:
        Limiter.__init__(self, processor, emit, after, terminable)
        self.iterate = iterate
        self._start(condition, ctx)

    def deliver(self, new_rows: Any, old_rows: Any) -> None:
        u = _as_update(new_rows, old_rows)
        if u is None:
            return
        self.process(u.new, u.old)          # keeps the aggregates current; rows come from iterate
        if self.after is not None and not self.after.passed(len(u.new)):
            return
        self.condition.update(len(u.new), len(u.old))

    def _fire(self, do_output: bool, force: bool) -> None:
        if do_output:
            rows = list(self.iterate())
            self.out(force, rows or None, None)


class AfterLimiter(Limiter):
    """Counts output rows (not events) towards `after N events`, as Esper does here."""

    __slots__ = ()

    def __init__(self, processor: Any, after: AfterState, emit: Emit) -> None:
        Limiter.__init__(self, processor, emit, after)

    def deliver(self, new_rows: Any, old_rows: Any) -> None:
        u = _as_update(new_rows, old_rows)
        if u is None:
            return
        new, old = self.process(u.new, u.old)
        if not self.after.passed(len(new) if new else 0):
            return
        self.out(False, new, old)
