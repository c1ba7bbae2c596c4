"""The matcher against a brute-force reference: for random patterns built from the grammar,
random defines and random short row sequences in two partitions, the reference enumerates
every contiguous run of a partition's rows that the pattern and the defines accept, then
applies Esper's rules (matches found at one row taken by first row, the preferred one per
first row or all of them with `all matches`, and the skip rule deciding which later matches
may still start; with a length window, rows that left it). Ties between equally preferred matches are broken by the automaton's
declared preference order, the one thing the reference borrows from it (and checks: every
transition a reference match takes must exist in the automaton)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from engine import Engine
from engine.rowrecog import nfa as N
from epl import parse
from epl.compiler.rowrecog import _max_occurrences, _tree

VARS = ("A", "B", "C")
QUANTS = ["", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{1,2}", "{,2}", "{2,}"]


@st.composite
def patterns(draw, depth: int = 0) -> str:
    n = draw(st.integers(1, 3 if depth == 0 else 2))
    items = []
    for _ in range(n):
        if depth < 1 and draw(st.integers(0, 4)) == 0:
            inner = draw(patterns(depth + 1))
            if draw(st.booleans()):
                inner = inner + " | " + draw(patterns(depth + 1))
            atom = "(" + inner + ")"
        else:
            atom = draw(st.sampled_from(VARS))
        items.append(atom + draw(st.sampled_from(QUANTS)))
    text = " ".join(items)
    if depth == 0 and draw(st.integers(0, 3)) == 0:
        text = text + " | " + draw(st.sampled_from(VARS))
    return text


# -- the reference ------------------------------------------------------------------------------

def _annotate(tree, counter, greedy=None):
    """The tree with each variable occurrence numbered as the automaton numbers positions
    (left to right, a quantified part once) and the greediness of its innermost quantifier."""
    kind = tree[0]
    if kind == "var":
        pos = counter[0]
        counter[0] += 1
        return ("var", tree[1], pos, greedy)
    if kind in ("cat", "alt"):
        return (kind, tuple(_annotate(t, counter, greedy) for t in tree[1]))
    return (kind, _annotate(tree[1], counter, tree[2]), tree[2])


def _consume(node, rows, i, accepts):
    """Every way `node` consumes rows[i:j]: (j, ((position, row index), ...))."""
    kind = node[0]
    if kind == "var":
        if i < len(rows) and accepts(node[1], rows[i]):
            yield i + 1, ((node[2], i),)
        return
    if kind == "cat":
        def chain(k, at):
            if k == len(node[1]):
                yield at, ()
                return
            for j, path in _consume(node[1][k], rows, at, accepts):
                for j2, rest in chain(k + 1, j):
                    yield j2, path + rest
        yield from chain(0, i)
        return
    if kind == "alt":
        for item in node[1]:
            yield from _consume(item, rows, i, accepts)
        return
    inner = node[1]
    if kind == "opt":
        yield i, ()
        yield from _consume(inner, rows, i, accepts)
        return

    def loop(at):
        yield at, ()
        for j, path in _consume(inner, rows, at, accepts):
            if j > at:
                for j2, rest in loop(j):
                    yield j2, path + rest
    if kind == "star":
        yield from loop(i)
    else:   # plus
        for j, path in _consume(inner, rows, i, accepts):
            for j2, rest in loop(j):
                yield j2, path + rest


def _greedy_flags(node, out):
    if node[0] == "var":
        out[node[2]] = node[3]
    elif node[0] in ("cat", "alt"):
        for t in node[1]:
            _greedy_flags(t, out)
    else:
        _greedy_flags(node[1], out)


def _preferred(group, flags, size):
    """Esper's choice among matches with the same first row: the first, unless a later one
    has more rows at some greedy position (fewer at a reluctant one)."""
    def counts(m):
        c = [0] * size
        for p, _ in m[1]:
            c[p] += 1
        return c
    best = group[0]
    bc = counts(best)
    for cur in group[1:]:
        cc = counts(cur)
        for p in range(size):
            g = flags.get(p)
            if g is None:
                continue
            if (cc[p] > bc[p]) if g else (cc[p] < bc[p]):
                best, bc = cur, cc
                break
    return best


def reference(pattern_text, defines, rows, all_matches, skip, window=None):
    """(global row index, [match, ...]) in delivery order; a match is (begin, path) with
    path ((position, row index), ...) over the partition's rows."""
    node = parse(f"select * from T match_recognize (pattern ({pattern_text}))").from_.match_recognize
    variables, counts, multi = [], {}, set()
    tree = _tree(node.pattern, variables, counts, multi, False)
    automaton = N.build(tree, variables)
    counter = [0]
    annotated = _annotate(tree, counter)
    flags: dict = {}
    _greedy_flags(annotated, flags)

    def accepts(var, row):
        allowed = defines.get(var)
        return allowed is None or row["val"] in allowed

    def key(path):
        # the automaton's preference order; raises when the automaton lacks a transition
        k = [automaton.starts.index(path[0][0])]
        for (p, _), (q, _) in zip(path, path[1:]):
            k.append(automaton.follow[p].index(q))
        assert automaton.exits[path[-1][0]], "reference match ends where the automaton cannot"
        return tuple(k)

    out = []
    for part in sorted({r["key"] for r in rows}):
        prow = [r for r in rows if r["key"] == part]
        cutoff = -1
        for n in range(len(prow)):
            cands = []
            for b in range(n + 1):
                if b <= cutoff:
                    continue
                seen = set()
                if window is not None and prow[b]["n"] <= prow[n]["n"] - window:
                    continue    # a row that left the length window
                for j, path in _consume(annotated, prow[b:n + 1], 0, accepts):
                    if j == n + 1 - b and path and path not in seen:
                        seen.add(path)
                        cands.append((b, tuple((p, i + b) for p, i in path)))
            if not cands:
                continue
            groups: dict = {}
            for c in sorted(cands, key=lambda c: (c[0], key(c[1]))):
                groups.setdefault(c[0], []).append(c)
            taken = []
            block = -1
            for b in sorted(groups):
                if b <= block:
                    continue
                best = _preferred(groups[b], flags, counter[0])
                taken.extend(groups[b] if all_matches else [best])
                if skip == "past last row":
                    block = n
            if skip == "past last row":
                cutoff = n
            elif skip == "to next row":
                cutoff = max(cutoff, max(m[0] for m in taken))
            out.append((prow[n]["n"], [(prow, m) for m in taken], automaton, variables))
    return sorted(out, key=lambda x: x[0])


def _row(prow, match, automaton, variables, groups):
    labels: dict = {v: [] for v in variables}
    for p, i in match[1]:
        labels[variables[automaton.var_of[p]]].append(prow[i]["id"])
    row = {}
    for v in variables:
        ids = labels[v]
        if v in groups:
            row[f"c{v}"] = len(ids)
            row[f"f{v}"] = ids[0] if ids else None
            row[f"s{v}"] = ids[1] if len(ids) > 1 else None
            row[f"l{v}"] = ids[-1] if ids else None
        else:
            row[v] = ids[0] if ids else None
    return row


@settings(max_examples=150, deadline=None)
@given(pattern=patterns(),
       defines=st.dictionaries(st.sampled_from(VARS), st.sets(st.integers(0, 2), min_size=1, max_size=2)),
       vals=st.lists(st.tuples(st.sampled_from("pq"), st.integers(0, 2)), max_size=9),
       all_matches=st.booleans(),
       skip=st.sampled_from(["past last row", "to next row", "to current row"]),
       window=st.sampled_from([None, None, 2, 3, 5]))
def test_matcher_equals_brute_force(pattern, defines, vals, all_matches, skip, window):
    node = parse(f"select * from T match_recognize (pattern ({pattern}))").from_.match_recognize
    variables, counts, multi = [], {}, set()
    tree = _tree(node.pattern, variables, counts, multi, False)
    groups = {v for v, c in _max_occurrences(tree).items() if c > 1} | multi
    defines = {v: s for v, s in defines.items() if v in variables}
    measures = []
    for v in variables:
        if v in groups:
            measures += [f"count({v}.id) as c{v}", f"first({v}.id) as f{v}", f"{v}[1].id as s{v}",
                         f"last({v}.id) as l{v}"]
        else:
            measures.append(f"{v}.id as {v}")
    define = ", ".join(f"{v} as {v}.val in ({', '.join(map(str, sorted(s)))})" for v, s in defines.items())
    win = f"#length({window})" if window else ""
    epl = (f"select * from T{win} match_recognize (partition by key measures {', '.join(measures)} "
           f"{'all matches ' if all_matches else ''}after match skip {skip} pattern ({pattern})"
           + (f" define {define}" if define else "") + ")")
    engine = Engine(time="simulated")
    engine.epl("create schema T(key string, val int, id int)")
    stmt = engine.epl(epl)
    got = []
    current = [None]
    stmt.add_listener(lambda new, old: got.append((current[0], [b.to_dict() for b in new])))
    rows = []
    for i, (k, v) in enumerate(vals):
        row = {"key": k, "val": v, "id": i, "n": i}
        rows.append(row)
        current[0] = i
        engine.send({"key": k, "val": v, "id": i}, "T")
    want = [(n, [_row(prow, m, automaton, variables, groups) for prow, m in matches])
            for n, matches, automaton, variables in reference(pattern, defines, rows, all_matches, skip, window)]
    assert got == want, epl
