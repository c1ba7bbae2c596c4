"""The application-time input (StreamInsight's input adapter with advance-time settings):
timestamped events in any order plus CTIs; the engine's application clock releases them
once committed.

Rules:
- An input is bound to one event type and one shape. The shape is the input's `shape`, or
  what the type declares (`endtimestamp` -> interval, only `starttimestamp` -> point), or
  point. Timestamps come from the call (`start=`, `end=`) or from the type's timestamp
  properties, as int ms or aware datetimes, converted once here.
- CTIs are enqueued by hand (`enqueue_cti`), generated (`CtiGeneration`), imported from
  other inputs (`import_from`: each CTI of a source becomes a CTI of this input, the way a
  slow reference stream follows a fast one), and, when asked, a final CTI at infinity on
  `close()`. A CTI lower than the input's current one changes nothing.
- A new input starts with its CTI at the engine's current time: events before it violate.
- Violations follow the input's policy (see violations.py); the lifetime modifications of
  lifetime.py apply after it.
- Edge inputs take `enqueue_start(event)` and later `enqueue_end(event, end)`; an end edge
  is matched to the open start edge with the same (original) start time whose underlying
  event is the same object or equal. End edges matching no start edge are counted
  (`violations.unmatched_end_edges`) and ignored.
- `close()` stops the input; without a final CTI it keeps holding application time at its
  last CTI (as a stopped StreamInsight adapter does) and its uncommitted events stay
  pending.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Optional, Union

from engine.contracts.event_types import EventType

from .cti import CtiGeneration, CtiGenerator
from .lifetime import Modification, check_modifications
from .release import END, INSERT, ApplicationClock
from engine.contracts.timed import INFINITY, TICK, Shape, TimedBean, declared_shape, to_ms
from .violations import ADJUSTED, DROPPED, ViolationCounts, ViolationPolicy, judge


class ApplicationInput:
    """Create with `engine.input(type_name, ...)`; see the module docstring for the rules.

    >>> from engine import Engine
    >>> engine = Engine(time="simulated")
    >>> _ = engine.epl("create schema Reading(v int, ts long) starttimestamp ts")
    >>> inp = engine.input("Reading", generate=CtiGeneration(every_events=1, delay=-1))
    >>> inp.enqueue({"v": 1, "ts": 20}); inp.enqueue({"v": 2, "ts": 10})
    True
    False
    >>> (inp.cti, engine.now, inp.violations.dropped)
    (21, 21, 1)
    """

    def __init__(self, clock: ApplicationClock, event_type: EventType, *, name: Optional[str] = None,
                 shape: Union[str, Shape, None] = None, policy: Union[str, ViolationPolicy] = "drop",
                 generate: Optional[CtiGeneration] = None,
                 import_from: Union["ApplicationInput", Iterable["ApplicationInput"], None] = None,
                 lifetime: Iterable[Modification] = ()) -> None:
        self._clock = clock
        self._engine = clock.engine
        self.event_type = event_type
        self.name = name or event_type.name
        if shape is None:
            self.shape = declared_shape(event_type) or Shape.POINT
        else:
            self.shape = shape if isinstance(shape, Shape) else Shape(str(shape).lower())
        self.policy = ViolationPolicy.of(policy)
        self._generation = generate
        self._generator = CtiGenerator(generate) if generate is not None else None
        self._transforms, self._clip, self._shift = check_modifications(
            tuple(lifetime), self.shape is Shape.EDGE)
        self._cti = clock.engine.now
        self._importers: list[ApplicationInput] = []
        if import_from is not None:
            sources = [import_from] if isinstance(import_from, ApplicationInput) else list(import_from)
            for src in sources:
                src._importers.append(self)
        self._open_edges: dict[int, list[TimedBean]] = {}
        self._clip_last: dict[Any, TimedBean] = {}
        self.violations = ViolationCounts()
        self.received = 0          # events and edges enqueued
        self.released = 0          # beans handed to the engine
        self.closed = False

    # -- state -------------------------------------------------------------------------
    @property
    def cti(self) -> int:
        """The latest CTI of this input, in its own (unshifted) time."""
        return self._cti

    @property
    def effective_cti(self) -> int:
        c = self._cti
        return c if c >= INFINITY else c + self._shift

    def __repr__(self) -> str:
        return f"ApplicationInput({self.name!r}, {self.shape.value}, cti={self._cti})"

    # -- events ------------------------------------------------------------------------
    def enqueue(self, event: Any, start: Any = None, end: Any = None) -> bool:
        """A point or interval event; True when accepted (possibly adjusted), False when
        dropped as a CTI violation."""
        if self.shape is Shape.EDGE:
            raise ValueError(f"Input '{self.name}' takes edge events: use enqueue_start / enqueue_end")
        with self._engine.lock:
            self._check_open()
            bean_type, underlying = self._underlying(event)
            s = self._timestamp(underlying, start, self.event_type.start_timestamp, "start")
            if self.shape is Shape.POINT:
                if end is not None:
                    raise ValueError(f"Input '{self.name}' takes point events: they have no end")
                e = s + TICK
            else:
                e = self._timestamp(underlying, end, self.event_type.end_timestamp, "end")
                if e <= s:
                    raise ValueError(f"An interval event needs end > start, got [{s}, {e})")
            self.received += 1
            action, s2 = judge(self.policy, s, e, self._cti)
            if action is not None:
                self._violation(action, underlying)
            if action != DROPPED:
                for m in self._transforms:
                    s2, e = m.apply(underlying, s2, e)
                bean = TimedBean(bean_type, underlying, s2, e, self.shape)
                self._clock.push(s2, INSERT, bean, self)
            self._generate(s)
            return action != DROPPED

    def enqueue_start(self, event: Any, start: Any = None) -> bool:
        """The start edge of an edge event: valid from start until its end edge arrives."""
        self._check_edge()
        with self._engine.lock:
            self._check_open()
            bean_type, underlying = self._underlying(event)
            s = self._timestamp(underlying, start, self.event_type.start_timestamp, "start")
            self.received += 1
            action, s2 = judge(self.policy, s, INFINITY, self._cti)
            if action is not None:
                self._violation(action, underlying)
            if action != DROPPED:
                for m in self._transforms:
                    s2, _ = m.apply(underlying, s2, INFINITY)
                bean = TimedBean(bean_type, underlying, s2, INFINITY, Shape.EDGE)
                self._open_edges.setdefault(s, []).append(bean)
                self._clock.push(s2, INSERT, bean, self)
            self._generate(s)
            return action != DROPPED

    def enqueue_end(self, event: Any, end: Any = None, start: Any = None) -> bool:
        """The end edge of an edge event: the start edge with this start time and an equal
        event ends at `end`. End edges do not count for CTI generation."""
        self._check_edge()
        with self._engine.lock:
            self._check_open()
            _, underlying = self._underlying(event)
            s = self._timestamp(underlying, start, self.event_type.start_timestamp, "start")
            e = self._timestamp(underlying, end, self.event_type.end_timestamp, "end")
            if e < s:
                raise ValueError(f"An end edge needs end >= start, got start {s}, end {e}")
            self.received += 1
            bean = self._match_edge(s, underlying)
            if bean is None:
                self.violations.unmatched_end_edges += 1
                return False
            action, _ = judge(self.policy, s, e, self._cti, end_edge=True)
            if action is not None:
                self._violation(action, underlying)   # the start edge stays open
                return False
            if self._shift:
                e += self._shift
            self._clock.push(max(e, bean.start), END, bean, self)
            return True

    def _match_edge(self, start: int, underlying: Any) -> Optional[TimedBean]:
        open_ = self._open_edges.get(start)
        if not open_:
            return None
        for i, b in enumerate(open_):
            if b.underlying is underlying:
                break
        else:
            for i, b in enumerate(open_):
                if b.underlying == underlying:
                    break
            else:
                return None
        del open_[i]
        if not open_:
            del self._open_edges[start]
        return b

    # -- CTIs ------------------------------------------------------------------------------
    def enqueue_cti(self, t: Any) -> None:
        """Promise that no event of this input will start (end edges: end) before t."""
        with self._engine.lock:
            self._check_open()
            self._advance_cti(to_ms(t))

    def close(self, final_cti: Optional[bool] = None) -> None:
        """Stop the input. With a final CTI (the generation setting's `final_cti`, or the
        argument) everything it holds is committed: a CTI at infinity."""
        with self._engine.lock:
            if self.closed:
                return
            final = self._generation.final_cti if (final_cti is None and self._generation) else bool(final_cti)
            if final:
                self._advance_cti(INFINITY)
            self.closed = True

    def _advance_cti(self, t: int) -> None:
        if t <= self._cti:
            return
        self._cti = t
        for imp in self._importers:
            if not imp.closed:
                imp._advance_cti(t)
        self._clock.pump()

    def _generate(self, start: int) -> None:
        gen = self._generator
        if gen is not None:
            c = gen.on_event(start)
            if c is not None:
                self._advance_cti(c)

    # -- release hooks -----------------------------------------------------------------------
    def _before_release(self, bean: TimedBean) -> None:
        """Clip: the previous event of the same key ends where this one starts."""
        clip = self._clip
        if clip is None:
            return
        key = clip.key_of(bean)
        prev = self._clip_last.get(key)
        self._clip_last[key] = bean
        if prev is not None and prev.end > bean.start:
            self._clock.set_end(prev, max(bean.start, prev.start))

    # -- helpers ------------------------------------------------------------------------------
    def _violation(self, action: str, underlying: Any) -> None:
        if action == ADJUSTED:
            self.violations.adjusted += 1
        else:
            self.violations.dropped += 1
        self._engine.signals.cti_violation.send(self._engine, input=self, event=underlying, action=action)

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError(f"Input '{self.name}' is closed")

    def _check_edge(self) -> None:
        if self.shape is not Shape.EDGE:
            raise ValueError(f"Input '{self.name}' takes {self.shape.value} events: use enqueue")

    def _underlying(self, event: Any) -> tuple[EventType, Any]:
        from engine.contracts.bean import EventBean
        if isinstance(event, EventBean):
            bean = event
        elif isinstance(event, Mapping) or self.event_type.pyclass is None:
            bean = self._engine.to_bean(event, self.event_type.name)
        else:
            bean = self._engine.to_bean(event, None)   # a subclass keeps its own type
        if not bean.event_type.is_subtype_of(self.event_type):
            raise TypeError(f"Input '{self.name}' takes events of type '{self.event_type.name}', "
                            f"got '{bean.event_type.name}'")
        return bean.event_type, bean.underlying

    def _timestamp(self, underlying: Any, given: Any, prop: Optional[str], what: str) -> int:
        if given is not None:
            return to_ms(given)
        if prop is None:
            raise ValueError(f"Input '{self.name}': give the event's {what} time (its type "
                             f"declares no {what} timestamp)")
        v = self.event_type.getter(prop)(underlying)
        if v is None:
            raise ValueError(f"Input '{self.name}': the event's {what} timestamp '{prop}' is null")
        return to_ms(v)
