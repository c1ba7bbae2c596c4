"""The compiled row pattern: a position automaton (Glushkov) built once per statement.

Each position is one occurrence of a pattern variable (repetitions and permutations are
expanded by the compiler first, as Esper's reference defines them: `A{2,3}` is `A A A?`,
`permute(A, B)` is `A B | B A`). A partial match sits at a position; an event moves it to any follow position
whose variable's define accepts the event. A position is an exit when the pattern may end
after it. `greedy[p]` is True/False for positions under a greedy/reluctant quantifier (their
matched-event counts rank competing matches) and None otherwise."""
from __future__ import annotations

import itertools
from typing import Any, Optional

from engine.contracts.frozen import frozen_dataclass

# internal regex tree: ("var", name) | ("cat", items) | ("alt", items)
#                    | ("star"|"plus"|"opt", inner, greedy)


@frozen_dataclass
class RowNFA:
    variables: tuple[str, ...]          # in order of first appearance
    var_of: tuple[int, ...]             # position -> variable index
    follow: tuple[tuple[int, ...], ...]  # position -> follow positions, preferred first
    starts: tuple[int, ...]
    exits: tuple[bool, ...]
    greedy: tuple[Optional[bool], ...]
    nullable: bool

    @property
    def size(self) -> int:
        return len(self.var_of)


def permute(items: list) -> Any:
    return ("alt", tuple(("cat", tuple(p)) for p in itertools.permutations(items)))


def build(tree: Any, variables: list[str]) -> RowNFA:
    var_of: list[int] = []
    greedy: list[Optional[bool]] = []
    follow: list[list[int]] = []

    def add_follow(src: list[int], dst: list[int], front: bool = False) -> None:
        for p in src:
            f = follow[p]
            new = [d for d in dst if d not in f]
            follow[p] = new + f if front else f + new

    def walk(node: Any, quant: Optional[bool]) -> tuple[list[int], list[int], bool]:
        kind = node[0]
        if kind == "var":
            p = len(var_of)
            var_of.append(variables.index(node[1]))
            greedy.append(quant)
            follow.append([])
            return [p], [p], False
        if kind == "cat":
            first: list[int] = []
            last: list[int] = []
            nullable = True
            for item in node[1]:
                f, l, n = walk(item, quant)
                add_follow(last, f)
                if nullable:
                    first = first + [x for x in f if x not in first]
                last = (last + [x for x in l if x not in last]) if n else l
                nullable = nullable and n
            return first, last, nullable
        if kind == "alt":
            first, last, nullable = [], [], False
            for item in node[1]:
                f, l, n = walk(item, quant)
                first += [x for x in f if x not in first]
                last += [x for x in l if x not in last]
                nullable = nullable or n
            return first, last, nullable
        inner_greedy = node[2]
        f, l, n = walk(node[1], inner_greedy)
        if kind in ("star", "plus"):
            # a greedy loop prefers going round again; a reluctant one leaving
            add_follow(l, f, front=inner_greedy)
        return f, l, n or kind in ("star", "opt")

    first, last, nullable = walk(tree, None)
    exits = [False] * len(var_of)
    for p in last:
        exits[p] = True
    return RowNFA(tuple(variables), tuple(var_of), tuple(tuple(f) for f in follow), tuple(first),
                  tuple(exits), tuple(greedy), nullable)
