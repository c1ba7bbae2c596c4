"""Match events: the event type of a pattern stream (one property per tag, an array for tags
under a repeat) and what overlapping matches are (for @SuppressOverlappingMatches and
@DiscardPartialsOnMatch)."""
from __future__ import annotations

import itertools
from typing import Iterable, Mapping

import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.event_types import EventType, Representation

_names = itertools.count()


def match_type(tags: Mapping[str, EventType], array_tags: Iterable[str]) -> EventType:
    """A map type with a property per tag: single tags first, then repeated ones (as Esper's
    pattern types order them). The underlying of a match is a dict tag -> EventBean, or tag ->
    list of EventBean for repeated tags."""
    arrays = set(array_tags)
    props: dict[str, PropertyType] = {}
    for tag, et in tags.items():
        if tag not in arrays:
            props[tag] = PropertyType(EPLType.EVENT, event_type=et)
    for tag, et in tags.items():
        if tag in arrays:
            props[tag] = T.array_of(PropertyType(EPLType.EVENT, event_type=et))
    return EventType(f"pattern_{next(_names)}", Representation.MAP, props)


def events_of(bean: EventBean) -> list:
    """The tagged events of one match, in tag order."""
    out: list = []
    for v in bean.underlying.values():
        if v is None:
            continue
        if isinstance(v, list):
            out.extend(v)
        else:
            out.append(v)
    return out


def event_ids(beans: Iterable[EventBean]) -> set:
    return {id(e) for b in beans for e in events_of(b)}


def without_overlaps(matches: list) -> list:
    """@SuppressOverlappingMatches among matches of the same event: the first is kept, each
    later one only when it shares no event with those kept (nor repeats one of its own)."""
    kept = [matches[0]]
    seen = {id(e) for e in events_of(matches[0])}
    for m in matches[1:]:
        ids = [id(e) for e in events_of(m)]
        if len(set(ids)) == len(ids) and not seen.intersection(ids):
            seen.update(ids)
            kept.append(m)
    return kept
