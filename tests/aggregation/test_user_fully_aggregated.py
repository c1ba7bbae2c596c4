"""A statement whose only aggregations are registered ones is fully aggregated, as with the
built-ins: one row per update, not one per event (Esper's row-for-all)."""
from __future__ import annotations

from engine import Engine


class Total:
    def __init__(self) -> None:
        self.total = 0

    def enter(self, v):
        self.total += v

    def leave(self, v):
        self.total -= v

    def value(self):
        return self.total

    def clear(self):
        self.total = 0


def deliveries(epl: str) -> list:
    eng = Engine(time="simulated")
    eng.register_aggregation("total", Total)
    eng.epl("create schema S(v int, g string)")
    stmt = eng.epl(epl)
    out: list = []
    stmt.add_listener(lambda new, old: out.append([b.to_dict() for b in new or ()]))
    for v in [8, 1, 2, 4]:
        eng.send({"v": v, "g": "a"}, "S")
    return out


def test_registered_aggregation_over_a_batch_gives_one_row():
    assert deliveries("select total(v) as f from S#length_batch(2)") == \
        deliveries("select sum(v) as f from S#length_batch(2)") == [[{"f": 9}], [{"f": 6}]]


def test_registered_aggregation_with_a_property_is_aggregated_ungrouped():
    assert deliveries("select v, total(v) as f from S#length_batch(2)") == \
        [[{"v": 8, "f": 9}, {"v": 1, "f": 9}], [{"v": 2, "f": 6}, {"v": 4, "f": 6}]]
