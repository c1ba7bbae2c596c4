"""Temporal contexts. Non-overlapping (`start C1 end C2`): at most one partition at a time;
when it ends the start condition is armed again (`@now` starts the next one at once, a
crontab start that lies behind its end when the context starts starts at once). Overlapping
(`initiated by C1 terminated by C2`): every occurrence of C1 starts a partition with its own
end condition.

Partitions provide `startTime`, `endTime` (when known at the start) and whatever the start
condition names (a filter's alias, a pattern's tags); an end condition may read those."""
from __future__ import annotations

from typing import Any, Optional

from epl.plans.contexts import CrontabCondition, TemporalSpec

from .conditions import arm, end_time, next_time
from .partition import Partition, narrow_by_parent


def make_temporal(spec: TemporalSpec, runtime: Any, parent: Optional[Partition], level: int) -> Any:
    """The controller of a temporal context level (engine/contexts/controllers.py)."""
    cls = OverlappingController if spec.overlapping else NonOverlappingController
    return cls(spec, runtime, parent, level)


class _Temporal:
    def __init__(self, spec: TemporalSpec, runtime: Any, parent: Optional[Partition], level: int) -> None:
        self.spec = spec
        self.runtime = runtime
        self.parent = parent
        self.level = level
        self.start_token: Any = None
        self.stopped = False

    def _narrow(self, spec: Any) -> Any:
        return narrow_by_parent(self.parent, spec)

    def _open(self, props: dict, events: list) -> Partition:
        runtime = self.runtime
        befores = [(e, runtime.matched(e)) for e in events]
        now = runtime.engine.scheduler.now
        props = dict(props)
        props["startTime"] = now
        props["endTime"] = end_time(self.spec.end, now) if self.spec.end is not None else None
        p = runtime.new_partition(self, self.level, props, self.parent, None)
        end = self.spec.end
        if end is not None and not p.ended:
            bindings = self.spec.end_bindings(props) if self.spec.end_bindings is not None else None
            token = arm(end, runtime, p.narrow, bindings, lambda pr, ev, _p=p: self._ended(_p), False)
            p.cleanup.append(token.stop)
        for e, before in befores:
            runtime.deliver_new(e, before)
        return p

    def _ended(self, p: Partition) -> None:
        raise NotImplementedError


class NonOverlappingController(_Temporal):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.current: Optional[Partition] = None

    def start(self) -> None:
        start, end = self.spec.start, self.spec.end
        if isinstance(start, CrontabCondition) and isinstance(end, CrontabCondition):
            now = self.runtime.engine.scheduler.now
            if next_time(end, now) < next_time(start, now):      # inside the range already
                self._started({}, [])
                return
        self._arm_start()

    def _arm_start(self) -> None:
        token = arm(self.spec.start, self.runtime, self._narrow, None, self._started, True)
        if self.current is not None:       # `@now` started at once
            token.stop()
        else:
            self.start_token = token

    def _started(self, props: dict, events: list) -> None:
        if self.current is not None or self.stopped:
            return
        token, self.start_token = self.start_token, None
        if token is not None:
            token.stop()
        self.current = self._open(props, events)

    def _ended(self, p: Partition) -> None:
        if self.current is not p:
            return
        self.current = None
        self.runtime.end_partition(p)
        if not self.stopped:
            self._arm_start()

    def stop(self, terminated: bool = False) -> None:
        self.stopped = True
        token, self.start_token = self.start_token, None
        if token is not None:
            token.stop()
        p, self.current = self.current, None
        if p is not None:
            self.runtime.end_partition(p, terminated)


class OverlappingController(_Temporal):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.partitions: dict[int, Partition] = {}
        self.distinct: dict[Any, int] = {}        # distinct value -> id of its partition
        self.distinct_of: dict[int, Any] = {}

    def start(self) -> None:
        self.start_token = arm(self.spec.start, self.runtime, self._narrow, None, self._initiated, True)

    def _initiated(self, props: dict, events: list) -> None:
        if self.stopped:
            return
        if isinstance(self.spec.start, CrontabCondition):
            # a crontab initiates a partition at each of its occurrences, overlapping ones too
            self.start_token = arm(self.spec.start, self.runtime, self._narrow, None, self._initiated, True)
        key = None
        if self.spec.distinct is not None and events:
            key = self.spec.distinct(events[0])
            if key in self.distinct:
                return
        p = self._open(props, events)
        if not p.ended:
            self.partitions[id(p)] = p
            if self.spec.distinct is not None and events:
                self.distinct[key] = id(p)
                self.distinct_of[id(p)] = key

    def _ended(self, p: Partition) -> None:
        if self.partitions.pop(id(p), None) is not None:
            if id(p) in self.distinct_of:
                self.distinct.pop(self.distinct_of.pop(id(p)), None)
            self.runtime.end_partition(p)

    def stop(self, terminated: bool = False) -> None:
        self.stopped = True
        token, self.start_token = self.start_token, None
        if token is not None:
            token.stop()
        parts, self.partitions = self.partitions, {}
        self.distinct.clear()
        self.distinct_of.clear()
        for p in parts.values():
            self.runtime.end_partition(p, terminated)
