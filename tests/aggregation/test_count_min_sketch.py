"""Count-min sketch through EPL: a `countMinSketch({...})` table column filled by
`countMinSketchAdd`, read by `countMinSketchFrequency` and `countMinSketchTopk`; estimates
compared with exact counts (never below, within eps * total with the declared confidence)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from recording import Recorder

from engine import Engine
from epl.errors import EPLValidationError


def deploy(params: str = "") -> tuple[Engine, Recorder]:
    e = Engine(time="simulated")
    e.deploy(f"""create schema Word(word string); create schema Est(word string);
        create table WordTable(wordapprox countMinSketch({params}));
        into table WordTable select countMinSketchAdd(word) as wordapprox from Word;
        @name('q') select WordTable.wordapprox.countMinSketchFrequency(word) as f,
                          WordTable.wordapprox.countMinSketchTopk() as top from Est""")
    return e, Recorder(e.statement("q"))


def estimate(e: Engine, rec: Recorder, word: str):
    rec.clear()
    e.send({"word": word}, "Est")
    return rec.new_rows()[0]


def test_frequencies_of_a_small_vocabulary_are_exact():
    e, rec = deploy()
    for w in "the cat the dog the cat".split():
        e.send({"word": w}, "Word")
    assert [estimate(e, rec, w)["f"] for w in ("the", "cat", "dog", "bird")] == [3, 2, 1, 0]
    assert estimate(e, rec, "the")["top"] is None          # no topk configured


def test_topk_orders_by_frequency():
    e, rec = deploy("{topk: 2, epsOfTotalCount: 0.001, confidence: 0.999, seed: 7}")
    for w in "a b a c a b d".split():
        e.send({"word": w}, "Word")
    top = estimate(e, rec, "a")["top"]
    assert [(t.value, t.frequency) for t in top] == [("a", 3), ("b", 2)]


def test_same_seed_same_estimates_under_collisions():
    # a narrow sketch (width 20) collides: the estimates depend on the seed, deterministically
    words = [f"w{i}" for i in range(60)]
    runs = []
    for seed in (1, 1, 2):
        e, rec = deploy(f"{{epsOfTotalCount: 0.1, confidence: 0.9, seed: {seed}}}")
        for w in words:
            e.send({"word": w}, "Word")
        runs.append([estimate(e, rec, w)["f"] for w in words[:20]])
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([f"k{i}" for i in range(40)]), min_size=1, max_size=60))
def test_never_below_the_true_count(words):
    e, rec = deploy("{epsOfTotalCount: 0.05, confidence: 0.9}")
    for w in words:
        e.send({"word": w}, "Word")
    truth = Counter(words)
    for w in set(words) | {"k0"}:
        f = estimate(e, rec, w)["f"]
        assert truth[w] <= f <= len(words)


def test_error_bound_holds_with_the_declared_confidence():
    rng = random.Random(3)
    words = [f"w{int(rng.paretovariate(1.2))}" for _ in range(3000)]
    e, rec = deploy("{epsOfTotalCount: 0.002, confidence: 0.95}")
    for w in words:
        e.send({"word": w}, "Word")
    truth = Counter(words)
    within = sum(estimate(e, rec, w)["f"] - c <= 0.002 * len(words) for w, c in truth.items())
    assert within / len(truth) >= 0.95


@pytest.mark.parametrize("text, message", [
    ("select countMinSketch() from Word", "can only be used in create-table statements"),
    ("create table T2(c countMinSketch({nope: 1}))", "Unrecognized parameter 'nope'"),
    ("create table T2(c countMinSketch({confidence: 2}))", "between 0 and 1"),
    ("create table T2(c countMinSketch(string))", "expects either no parameter or a single json parameter object"),
    ("select countMinSketchAdd(word) from Word", "can only be used with into-table"),
    ("select countMinSketchFrequency(word) from Est", "requires the use of a table-access expression"),
    ("into table WordTable select countMinSketchAdd(distinct word) as wordapprox from Word",
     "is not supported with distinct"),
    ("select WordTable.wordapprox.countMinSketchFrequency() from Est", "single parameter"),
    ("select word.countMinSketchTopk() from Est", "not a count-min-sketch table column"),
])
def test_validation(text, message):
    e, _ = deploy()
    with pytest.raises(EPLValidationError, match=message):
        e.epl(text)
