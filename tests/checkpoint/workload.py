"""A mixed statement set and a deterministic event source for the checkpoint tests."""
from __future__ import annotations

import json
import random
from typing import Any, Callable, Iterator

STATEMENTS = """
create schema Trade(sym string, price double, vol int);
create schema Ctl(kind string, sym string);
@name('len') select irstream sym, price from Trade#length(3);
@name('tw') select irstream sym, count(*) as c, avg(price) as ap from Trade#time(5 sec) group by sym;
@name('pat') select a.sym as s1, a.price as p1, b.price as p2 from pattern [every a=Trade(price > 80) -> b=Trade(sym = a.sym) where timer:within(3 sec)];
@name('mr') select * from Trade match_recognize (partition by sym measures A.sym as s, A.price as p1, last(B.price) as p2, count(B.price) as nb pattern (A B+) define B as B.price > A.price);
create context BySym partition by sym from Trade;
@name('ctx1') context BySym select sym, count(*) as c, sum(vol) as v from Trade;
create context Sess initiated by Ctl(kind='start') as s terminated after 4 sec;
@name('ctx2') context Sess select count(*) as c, max(price) as mx from Trade;
create window W#keepall as Trade;
insert into W select * from Trade;
on Ctl(kind='del') as d delete from W where W.sym = d.sym;
@name('wq') select irstream sym, count(*) as c from W group by sym;
create table T(sym string primary key, total sum(double), n count(*));
into table T select sum(price) as total, count(*) as n from Trade group by sym;
@name('tq') on Ctl(kind='q') as q select t.sym as sym, t.total as total, t.n as n from T as t where t.sym = q.sym;
create variable double threshold = 50;
on Ctl(kind='set') set threshold = threshold + 7;
@name('var') select sym, price, threshold as th from Trade(price > threshold);
@name('orl') select sym, sum(vol) as v from Trade group by sym output last every 2 sec;
@name('ore') select count(*) as c, avg(price) as ap from Trade output every 3 events;
@name('tb') select sym, count(*) as c from Trade#time_batch(3 sec) group by sym
"""

SYMS = ("A", "B", "C", "D")
CTL_KINDS = ("start", "del", "q", "set")


def events(n: int, seed: int) -> Iterator[tuple[int, str, dict]]:
    """(time, type, event) for n events, time non-decreasing."""
    rng = random.Random(seed)
    t = 1_000
    for _ in range(n):
        t += rng.choice((0, 50, 200, 400, 700, 1500))
        if rng.random() < 0.15:
            yield t, "Ctl", {"kind": rng.choice(CTL_KINDS), "sym": rng.choice(SYMS)}
        else:
            yield t, "Trade", {"sym": rng.choice(SYMS), "price": float(rng.randint(1, 100)),
                               "vol": rng.randint(1, 9)}


def build(engine: Any) -> None:
    engine.deploy(STATEMENTS)


def _rows(beans: Any) -> Any:
    if not beans:
        return None
    return [{k: v for k, v in sorted(b.to_dict().items())} for b in beans]


def attach(engine: Any, write: Callable[[str], None], seq: list) -> None:
    """Every named statement's deliveries as JSON lines tagged with the input event number."""
    for stmt in engine.statements:
        if stmt.name.startswith("stmt-"):
            continue
        def listener(new: Any, old: Any, _name: str = stmt.name) -> None:
            write(json.dumps([seq[0], _name, _rows(new), _rows(old)], sort_keys=True,
                             default=str) + "\n")
        stmt.add_listener(listener)


def listeners(write: Callable[[str], None], seq: list, names: Any) -> dict:
    out = {}
    for name in names:
        if name.startswith("stmt-"):
            continue
        def listener(new: Any, old: Any, _name: str = name) -> None:
            write(json.dumps([seq[0], _name, _rows(new), _rows(old)], sort_keys=True,
                             default=str) + "\n")
        out[name] = listener
    return out
