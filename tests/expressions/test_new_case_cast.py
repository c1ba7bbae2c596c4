"""new { ... }, case, cast, instanceof, typeof and istream() as Esper's reference defines
them (Java conversions: narrowing wraps, doubles saturate, Double.toString)."""
from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal

import pytest

from engine import Engine
from epl import parse, to_epl
from epl.errors import EPLValidationError

SCHEMA = "create schema S(s string, i int, l long, d double, b boolean, ds string)"
EVENT = {"s": "1.5", "i": 3, "l": 70000, "d": 1e10, "b": True, "ds": "2024-03-05 17:45"}


def row(cols: str, event=None, window: str = "") -> dict:
    eng = Engine(time="simulated")
    eng.epl(SCHEMA)
    stmt = eng.epl(f"select {cols} from S{window} as x")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new or ()))
    eng.send(dict(event or EVENT), "S")
    return got[-1]


def test_new_builds_nested_maps():
    assert row("new {a = i, b = new {c = s, n = d * 2}} as m") == {
        "m": {"a": 3, "b": {"c": "1.5", "n": 2e10}}}


def test_new_with_bare_property_names_and_in_case():
    assert row("new {s, i} as m, case when i > 1 then new {k = 'a'} else new {k = 'b'} end as c") == {
        "m": {"s": "1.5", "i": 3}, "c": {"k": "a"}}


def test_new_constant_map_is_fresh_per_row():
    eng = Engine(time="simulated")
    eng.epl(SCHEMA)
    stmt = eng.epl("select new {k = 1} as m from S")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.get("m") for b in new))
    eng.send(dict(EVENT), "S")
    eng.send(dict(EVENT), "S")
    got[0]["k"] = 99
    assert got[1] == {"k": 1}


def test_new_duplicate_names_refused():
    with pytest.raises(EPLValidationError, match="already been declared"):
        row("new {a = 1, a = 2} as m")


def test_case_numeric_results_promote():
    assert row("case when i > 1 then 1 else 2.5 end as c1, case i when 3 then 'x' end as c2, "
               "case when i < 0 then 1 end as c3") == {"c1": 1.0, "c2": "x", "c3": None}
    assert isinstance(row("case when i > 1 then 1 else 2.5 end as c")["c"], float)


def test_case_when_must_be_boolean():
    with pytest.raises(EPLValidationError, match="must return a boolean"):
        row("case when i then 1 end as c")


def test_casts_as_java():
    r = row("cast(d, int) as ci, cast(l, short) as cs, cast(l, byte) as cb, cast(d, string) as cstr, "
            "cast(s, double) as cd, cast(s, BigDecimal) as cbd, cast(i, string) as istr, "
            "cast(b, string) as bs, cast('TRUE', boolean) as tb, cast(s, int) as si, cast(d, long) as dl, "
            "cast(i, double) as idb, cast(l, BigInteger) as bi")
    assert r == {"ci": 2147483647, "cs": 4464, "cb": 112, "cstr": "1.0E10", "cd": 1.5,
                 "cbd": Decimal("1.5"), "istr": "3", "bs": "true", "tb": True, "si": None,
                 "dl": 10000000000, "idb": 3.0, "bi": 70000}


def test_cast_to_java_class_names():
    r = row("cast(d, java.lang.Float) as f, cast(l, java.lang.Short) as sh, cast(s, java.math.BigDecimal) as bd, "
            "cast(d, Integer) as i, cast(i, java.lang.Long) as lg")
    assert r == {"f": 1e10, "sh": 4464, "bd": Decimal("1.5"), "i": 2147483647, "lg": 3}


def test_cast_as_form_and_nan():
    r = row("cast(d as int) as a", dict(EVENT, d=float("nan")))
    assert r == {"a": 0}


def test_cast_with_dateformat():
    r = row("cast(ds, long, dateformat: 'yyyy-MM-dd HH:mm') as ms, "
            "cast(ds, datetime, dateformat: 'yyyy-MM-dd HH:mm') as dt, "
            "cast(s, long, dateformat: 'yyyy') as bad")
    assert r == {"ms": int(datetime(2024, 3, 5, 17, 45, tzinfo=timezone.utc).timestamp() * 1000),
                 "dt": datetime(2024, 3, 5, 17, 45, tzinfo=timezone.utc), "bad": None}


def test_cast_dateformat_round_trips_through_the_printer():
    text = "select cast(ds, long, dateformat: 'yyyy-MM-dd') from S"
    assert to_epl(parse(text)) == text


def test_typeof_and_instanceof():
    r = row("typeof(i) as ti, typeof(l) as tl, typeof(s) as ts, typeof(x) as tx, typeof(d) as td, "
            "instanceof(i, int) as ii, instanceof(i, long) as il, instanceof(d, java.lang.Number) as dn, "
            "instanceof(s, long, string) as sl, instanceof(x, S) as xs")
    assert r == {"ti": "Integer", "tl": "Long", "ts": "String", "tx": "S", "td": "Double",
                 "ii": True, "il": False, "dn": True, "sl": True, "xs": True}


def test_istream_on_insert_and_remove_streams():
    eng = Engine(time="simulated")
    eng.epl(SCHEMA)
    stmt = eng.epl("select irstream i, istream() as ist from S#length(1)")
    got = []
    stmt.add_listener(lambda new, old: got.append(([b.to_dict() for b in new or ()],
                                                   [b.to_dict() for b in old or ()])))
    eng.send(dict(EVENT, i=1), "S")
    eng.send(dict(EVENT, i=2), "S")
    assert got == [([{"i": 1, "ist": True}], []),
                   ([{"i": 2, "ist": True}], [{"i": 1, "ist": False}])]


def test_dynamic_properties_and_exists():
    eng = Engine(time="simulated")
    eng.epl("create schema D(id string, m map)")
    stmt = eng.epl("select id, exists(extra?) as ex, extra? as x, exists(m.k?) as mk, m.k? as mv, "
                   "d.m.k? as dmv, exists(id) as eid from D as d")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    eng.send({"id": "a", "extra": 5, "m": {"k": 1}}, "D")
    eng.send({"id": "b", "m": {}}, "D")
    assert got == [{"id": "a", "ex": True, "x": 5, "mk": True, "mv": 1, "dmv": 1, "eid": True},
                   {"id": "b", "ex": False, "x": None, "mk": False, "mv": None, "dmv": None, "eid": True}]
    assert to_epl(parse("select exists(a.b?) from D")) == "select exists(a.b?) from D"


def test_dynamic_indexed_mapped_and_nested():
    eng = Engine(time="simulated")
    eng.epl("create schema D(id string)")
    stmt = eng.epl("select exists(item?.id?) as a, item?.id as b, arr[1]? as c, exists(arr[5]?) as d, "
                   "m('k')? as mk from D")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    eng.send({"id": "x", "item": {"id": 7}, "arr": [1, 2], "m": {"k": 3}}, "D")
    eng.send({"id": "y"}, "D")
    assert got == [{"a": True, "b": 7, "c": 2, "d": False, "mk": 3},
                   {"a": False, "b": None, "c": None, "d": False, "mk": None}]


def test_event_identity_equals_in_a_join():
    eng = Engine(time="simulated")
    eng.epl("create schema D(id string)")
    stmt = eng.epl("select a.id as i, event_identity_equals(a, b) as same from D#lastevent as a, D#length(2) as b")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    eng.send({"id": "x"}, "D")
    eng.send({"id": "y"}, "D")
    assert {"i": "y", "same": True} in got and {"i": "y", "same": False} in got


def test_current_evaluation_context():
    eng = Engine(time="simulated")
    eng.epl("create schema D(g string)")
    stmt = eng.epl("@name('mine') select current_evaluation_context() as c from D")
    eng.epl("create context ByG partition by g from D")
    per = eng.epl("context ByG select current_evaluation_context().contextPartitionId as cp from D")
    got, cps = [], []
    stmt.add_listener(lambda new, old: got.extend(b.get("c") for b in new))
    per.add_listener(lambda new, old: cps.extend(b.get("cp") for b in new))
    eng.send({"g": "a"}, "D")
    eng.send({"g": "b"}, "D")
    assert got[0] == {"runtimeURI": "default", "statementName": "mine", "contextPartitionId": -1,
                      "statementUserObject": None}
    assert cps == [0, 1]
