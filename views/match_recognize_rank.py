"""Which of the matches found together are delivered, as Esper decides: matches are taken
by their first row, earliest first; among matches with the same first row, one row per match
keeps the preferred one (the first found, unless a later one matched more events at a greedy
position, or fewer at a reluctant one, Esper's comparison) and `all matches` keeps them all;
`after match skip past last row` drops the matches starting at or before the last row of a
match taken."""
from __future__ import annotations

from typing import Any, Optional, Sequence

from views.match_recognize_plan import PAST_LAST_ROW


def counts(entry: Any, size: int) -> list[int]:
    """Events matched per position."""
    out = [0] * size
    node = entry.path
    while node is not None:
        out[node[0]] += 1
        node = node[2]
    return out


def preferred(entries: Sequence[Any], greedy: Sequence[Optional[bool]]) -> Any:
    best = entries[0]
    if len(entries) == 1:
        return best
    flagged = [(p, g) for p, g in enumerate(greedy) if g is not None]
    if not flagged:
        return best
    size = len(greedy)
    best_counts = counts(best, size)
    for cur in entries[1:]:
        cur_counts = counts(cur, size)
        for p, g in flagged:
            if (cur_counts[p] > best_counts[p]) if g else (cur_counts[p] < best_counts[p]):
                best, best_counts = cur, cur_counts
                break
    return best


def rank(ends: Sequence[Any], greedy: Sequence[Optional[bool]], all_matches: bool,
         skip: str) -> list[Any]:
    """The matches to deliver, in delivery order, among `ends` of one partition."""
    if len(ends) == 1:
        return list(ends)
    groups: dict[int, list[Any]] = {}
    for e in ends:
        groups.setdefault(e.begin, []).append(e)
    out: list[Any] = []
    cutoff = -1
    for begin in sorted(groups):
        if begin <= cutoff:
            continue
        group = groups[begin]
        taken = preferred(group, greedy)
        out.extend(group if all_matches else (taken,))
        if skip == PAST_LAST_ROW:
            cutoff = max(cutoff, taken.end)
    return out
