"""Property names that are not identifiers, declared and used in backquotes, as in Esper."""
from __future__ import annotations

import pytest

from engine import Engine

SCHEMA = "create schema U(`user-id` string, `first name` string, `order` int, amount int)"
EVENTS = [{"user-id": "a", "first name": "Al", "order": 1, "amount": 10},
          {"user-id": "b", "first name": "Bo", "order": 2, "amount": 20},
          {"user-id": "a", "first name": "Al", "order": 3, "amount": 30}]


def run(epl: str) -> list[dict]:
    eng = Engine(time="simulated")
    eng.epl(SCHEMA)
    stmt = eng.epl(epl)
    got: list = []
    stmt.add_listener(lambda new, old: got.append([b.to_dict() for b in new or ()]))
    for e in EVENTS:
        eng.send(dict(e), "U")
    return got


def test_select_where_and_column_names():
    assert run("select `user-id`, `first name` as fn, `order` from U where `user-id` = 'a'") == [
        [{"user-id": "a", "fn": "Al", "order": 1}], [{"user-id": "a", "fn": "Al", "order": 3}]]


def test_filter_and_stream_qualified():
    assert run("select u.`first name` as n from U(`user-id` = 'b') as u") == [[{"n": "Bo"}]]


def test_group_by_order_by_having():
    got = run("select `user-id` as u, sum(amount) as s from U#keepall group by `user-id` "
              "having sum(amount) > 5 order by `user-id`")
    assert got[-1] == [{"u": "a", "s": 40}]


def test_views_and_patterns():
    assert run("select irstream `user-id` as u from U#unique(`user-id`)")[-1] == [{"u": "a"}]
    assert run("select a.`first name` as x from pattern [every a=U(`user-id` = 'b')]") == [[{"x": "Bo"}]]


def test_insert_into_and_subquery():
    eng = Engine(time="simulated")
    eng.epl(SCHEMA)
    eng.epl("insert into V select `user-id`, amount from U")
    stmt = eng.epl("select `user-id` as u, (select sum(amount) from U#keepall where `user-id` = v.`user-id`) as t "
                   "from V as v")
    got = []
    stmt.add_listener(lambda new, old: got.extend(b.to_dict() for b in new))
    for e in EVENTS:
        eng.send(dict(e), "U")
    assert got == [{"u": "a", "t": 10}, {"u": "b", "t": 20}, {"u": "a", "t": 40}]


@pytest.mark.parametrize("epl", [
    "select `user-id` from U",
    "select u.`first name` from U as u where u.`order` > 1",
])
def test_round_trip_through_the_printer(epl):
    from epl import parse, to_epl
    assert to_epl(parse(epl)) == epl
