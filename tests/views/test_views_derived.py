"""Derived-value views (`#size`, `#uni`, `#linest`, `#correl`, `#weighted_avg`) through EPL:
their event type and posting rule as Esper documents them, and their statistics against
naive formulas over the window contents."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from engine import Engine
from epl.errors import EPLValidationError


def _engine(epl: str):
    e = Engine(time="simulated")
    e.epl("create schema T(symbol string, price double, volume long)")
    stmt = e.epl(epl)
    calls = []
    stmt.add_listener(lambda new, old: calls.append(([x.to_dict() for x in new or []],
                                                      [x.to_dict() for x in old or []])))
    return e, stmt, calls


def _send(e, *rows):
    for sym, price, vol in rows:
        e.send({"symbol": sym, "price": price, "volume": vol}, "T")


def test_size_posts_the_count_and_the_prior_count():
    e, stmt, calls = _engine("select irstream * from T#length(2)#size()")
    _send(e, ("A", 1.0, 1), ("B", 2.0, 2), ("C", 3.0, 3))
    # the window is full at the third event: size unchanged, nothing posted
    assert calls == [([{"size": 1}], [{"size": 0}]), ([{"size": 2}], [{"size": 1}])]
    assert [r["size"] for r in stmt] == [2]


def test_size_with_additional_property_and_old_syntax():
    e, stmt, calls = _engine("select irstream size, symbol from T.win:time(1 sec).std:size(symbol)")
    _send(e, ("A", 1.0, 1))
    e.advance_time(1000)
    assert calls == [([{"size": 1, "symbol": "A"}], [{"size": 0, "symbol": None}]),
                     ([{"size": 0, "symbol": "A"}], [{"size": 1, "symbol": "A"}])]


def test_uni_properties_and_additional_property():
    e, stmt, calls = _engine("select irstream * from T#length(3)#uni(price, symbol)")
    _send(e, ("A", 1.0, 1), ("B", 2.0, 2))
    new, old = calls[-1]
    assert new == [{"datapoints": 2, "total": 3.0, "average": 1.5, "variance": 0.5,
                    "stddev": math.sqrt(0.5), "stddevpa": 0.5, "symbol": "B"}]
    assert old[0]["datapoints"] == 1 and old[0]["symbol"] == "A"
    first_old = calls[0][1][0]
    assert first_old["datapoints"] == 0 and first_old["total"] == 0.0 and math.isnan(first_old["average"])


def test_grouped_derived_view_adds_the_group_columns():
    e, stmt, calls = _engine("select irstream * from T.std:groupwin(symbol).win:length(2).stat:uni(price)")
    _send(e, ("A", 1.0, 1), ("B", 5.0, 1), ("A", 3.0, 1))
    assert [(n[0]["symbol"], n[0]["average"], o[0]["symbol"], o[0]["datapoints"]) for n, o in calls] == \
        [("A", 1.0, "A", 0), ("B", 5.0, "B", 0), ("A", 2.0, "A", 1)]
    assert sorted((r["symbol"], r["datapoints"]) for r in stmt) == [("A", 2), ("B", 1)]


def test_linest_correl_weighted_avg_property_names():
    e, stmt, _ = _engine("select * from T#keepall#linest(price, volume)")
    assert set(stmt.event_type.property_names) >= {
        "slope", "YIntercept", "XAverage", "XStandardDeviationPop", "XStandardDeviationSample",
        "XSum", "XVariance", "YAverage", "YStandardDeviationPop", "YStandardDeviationSample",
        "YSum", "YVariance", "dataPoints", "n", "sumX", "sumXSq", "sumXY", "sumY", "sumYSq"}
    _send(e, ("A", 1.0, 10), ("A", 2.0, 20))
    row = next(iter(stmt))
    assert row["slope"] == pytest.approx(10.0) and row["YIntercept"] == pytest.approx(0.0)
    e, stmt, _ = _engine("select correlation from T#keepall#correl(price, volume)")
    _send(e, ("A", 1.0, 10), ("A", 2.0, 20))
    assert next(iter(stmt))["correlation"] == pytest.approx(1.0)
    e, stmt, _ = _engine("select average from T#keepall#weighted_avg(price, volume)")
    _send(e, ("A", 1.0, 1), ("A", 4.0, 2))
    assert next(iter(stmt))["average"] == pytest.approx(3.0)


def test_derived_view_errors():
    with pytest.raises(EPLValidationError, match="uni"):
        _engine("select * from T#uni(symbol)")
    with pytest.raises(EPLValidationError, match="last view"):
        _engine("select * from T#uni(price)#length(3)")
    with pytest.raises(EPLValidationError):
        _engine("select price from T#uni(price)")      # the stream now carries statistics


def _close(a, b):
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return b == pytest.approx(a, rel=1e-6, abs=1e-6)


def _model(window):
    xs = [p for _, p, _ in window]
    ws = [v for _, _, v in window]
    n = len(xs)
    mean = sum(xs) / n if n else math.nan
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n >= 2 else math.nan
    pop = math.sqrt(sum((x - mean) ** 2 for x in xs) / n) if n else math.nan
    sw = sum(ws)
    return {"datapoints": n, "total": float(sum(xs)), "average": mean, "variance": var,
            "stddev": math.sqrt(var) if n >= 2 else math.nan, "stddevpa": pop,
            "wavg": sum(x * w for x, w in zip(xs, ws)) / sw if sw else math.nan}


rows = st.lists(st.tuples(st.sampled_from("AB"), st.integers(-50, 50).map(float),
                          st.integers(0, 5)), max_size=30)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5), rows)
def test_uni_and_weighted_avg_match_naive_statistics(n, data):
    e, _, uni = _engine(f"select irstream * from T#length({n})#uni(price)")
    stmt2 = e.epl(f"select irstream average from T#length({n})#weighted_avg(price, volume)")
    wavg = []
    stmt2.add_listener(lambda new, old: wavg.append((new[0]["average"], old[0]["average"])))
    window: list = []
    prior = _model(window)
    for i, row in enumerate(data):
        _send(e, row)
        window = (window + [row])[-n:]
        m = _model(window)
        new, old = uni[i]
        for k in ("datapoints", "total", "average", "variance", "stddev", "stddevpa"):
            assert _close(m[k], new[0][k]), (k, m[k], new[0][k])
            assert _close(prior[k], old[0][k])
        assert _close(m["wavg"], wavg[i][0]) and _close(prior["wavg"], wavg[i][1])
        prior = m


@settings(max_examples=120, deadline=None)
@given(rows)
def test_linest_and_correl_match_naive_formulas(data):
    e, stmt, _ = _engine("select * from T#length(4)#linest(price, volume)")
    corr = e.epl("select correlation from T#length(4)#correl(volume, price)")
    window: list = []
    for row in data:
        _send(e, row)
        window = (window + [row])[-4:]
        xs = [r[1] for r in window]              # the first expression is X
        ys = [float(r[2]) for r in window]
        n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        syy = sum((y - my) ** 2 for y in ys)
        sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
        got = next(iter(stmt))
        assert got["dataPoints"] == n and _close(mx, got["XAverage"]) and _close(my, got["YAverage"])
        assert _close(sum(xs), got["sumX"]) and _close(sum(x * y for x, y in zip(xs, ys)), got["sumXY"])
        if sxx > 1e-9:
            assert _close(sxy / sxx, got["slope"]) and _close(my - sxy / sxx * mx, got["YIntercept"])
        c = next(iter(corr))["correlation"]
        if sxx > 1e-9 and syy > 1e-9:
            assert _close(sxy / math.sqrt(sxx * syy), c)


MD = [(70.0, 1000), (70.5, 1500), (70.1, 1200), (70.25, 1000)]


def test_statistics_equal_esper_bit_for_bit():
    """Values from Esper's regression suite (exact doubles)."""
    e = Engine(time="simulated")
    e.epl("create schema MD(price double, volume long)")
    lin = e.epl("select irstream * from MD#linest(price, volume)")
    lin3 = e.epl("select irstream * from MD#length(3)#linest(price, volume)")
    cor = e.epl("select irstream * from MD#correl(price, volume)")
    cor3 = e.epl("select irstream * from MD#length(3)#correl(price, volume)")
    for price, volume in MD[:3]:
        e.send({"price": price, "volume": volume}, "MD")
    r = next(iter(lin))
    assert (r["slope"], r["YIntercept"]) == (928.571428587354, -63952.38095349892)
    assert next(iter(cor))["correlation"] == 0.9762210399358
    e.send({"price": 70.25, "volume": 1000}, "MD")
    r = next(iter(lin))
    assert (r["slope"], r["YIntercept"]) == (854.6255506976092, -58830.39647835589)
    r = next(iter(lin3))
    assert (r["slope"], r["YIntercept"]) == (877.5510204634593, -60443.8775549068)
    assert next(iter(cor))["correlation"] == 0.7865410694065471
    assert next(iter(cor3))["correlation"] == 0.7046340397673054


def test_weighted_avg_equals_esper():
    e = Engine(time="simulated")
    e.epl("create schema MD(price double, volume long, feed string)")
    s = e.epl("select irstream * from MD#length(3)#weighted_avg(price, volume, feed)")
    calls = []
    s.add_listener(lambda n, o: calls.append((n[0]["average"], n[0]["feed"], o[0]["average"], o[0]["feed"])))
    for price, volume, feed in [(10, 1000, "f1"), (11, 2000, "f2"), (10.5, 1500, "f3"), (9.5, 600, "f4")]:
        e.send({"price": float(price), "volume": volume, "feed": feed}, "MD")
    assert calls[0][0] == 10.0 and math.isnan(calls[0][2]) and calls[0][3] is None
    assert [c[0] for c in calls[1:]] == [10.666666666666666, 10.61111111111111, 10.597560975609756]
    assert [c[1] for c in calls] == ["f1", "f2", "f3", "f4"]


def test_size_without_parentheses_and_additional_properties():
    e = Engine(time="simulated")
    e.epl("create schema MD(symbol string, feed string)")
    s = e.epl("select irstream size from MD#size")
    t = e.epl("select size, symbol, feed from MD#size(symbol, feed)")
    got_s, got_t = [], []
    s.add_listener(lambda n, o: got_s.append((n[0]["size"], o[0]["size"])))
    t.add_listener(lambda n, o: got_t.append(n[0].to_dict()))
    for _ in range(2):
        e.send({"symbol": "DELL", "feed": "feed1"}, "MD")
    assert got_s == [(1, 0), (2, 1)]
    assert got_t == [{"size": 1, "symbol": "DELL", "feed": "feed1"}, {"size": 2, "symbol": "DELL", "feed": "feed1"}]


def test_wildcard_as_additional_properties():
    e = Engine(time="simulated")
    e.epl("create schema SB(theString string, intPrimitive int)")
    s = e.epl("select * from SB#length(3)#uni(intPrimitive, *)")
    got = []
    s.add_listener(lambda n, o: got.append(n[0].to_dict()))
    e.send({"theString": "E1", "intPrimitive": 1}, "SB")
    assert got[0]["average"] == 1.0 and got[0]["theString"] == "E1" and got[0]["intPrimitive"] == 1


def test_derived_views_in_subqueries():
    e = Engine(time="simulated")
    e.epl("create schema SB(theString string, intPrimitive int)")
    e.epl("create schema S0(id int)")
    s = e.epl("select (select size from SB#length(2)#size()) as sz, "
              "(select average from SB#length(2)#uni(intPrimitive)) as av from S0")
    got = []
    s.add_listener(lambda n, o: got.append((n[0]["sz"], n[0]["av"])))
    for i in (1, 2, 3):
        e.send({"theString": "x", "intPrimitive": i}, "SB")
        e.send({"id": 1}, "S0")
    assert got == [(1, 1.0), (2, 1.5), (2, 2.5)]
