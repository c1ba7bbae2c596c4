"""Match events (the compiler's `match_type`, epl/compiler/patterns.py, is their type): the
events a match holds and what overlapping matches are (for @SuppressOverlappingMatches and
@DiscardPartialsOnMatch)."""
from __future__ import annotations

from typing import Iterable

from engine.contracts.bean import EventBean


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
