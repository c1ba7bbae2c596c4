"""A keyed context's own window with on-delete, checked against a per-key model: each
account's window is a length(3) window of its own events, on-delete removes from the
account's window only, and a terminating event drops the account's window."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from engine import Engine

ACCTS = ("a", "b", "c")
ops = st.lists(st.one_of(
    st.tuples(st.just("tx"), st.sampled_from(ACCTS), st.integers(0, 9)),
    st.tuples(st.just("cmd"), st.sampled_from(ACCTS), st.integers(0, 9)),
    st.tuples(st.just("stop"), st.sampled_from(ACCTS), st.just(0)),
), max_size=40)


def build() -> tuple[Engine, list]:
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema Tx(acct string, amount int)")
    e.epl("create schema Cmd(acct string, lim int)")
    e.epl("create schema Stop(acct string)")
    e.epl("create context ByAcct partition by acct from Tx, acct from Cmd, acct from Stop "
          "terminated by Stop")
    e.epl("context ByAcct create window W#length(3) as Tx")
    e.epl("context ByAcct insert into W select * from Tx")
    deleted: list = []
    d = e.epl("context ByAcct on Cmd delete from W where amount > lim")
    d.add_listener(lambda new, old: deleted.extend((b["acct"], b["amount"]) for b in new or ()))
    return e, deleted


def contents(e: Engine) -> dict:
    out: dict = {}
    for b in e.execute_query("select * from W"):
        out.setdefault(b["acct"], []).append(b["amount"])
    return out


@settings(max_examples=120, deadline=None)
@given(ops)
def test_partitioned_window_with_on_delete_matches_per_key_model(steps):
    e, deleted = build()
    model: dict[str, list[int]] = {}
    try:
        for kind, acct, value in steps:
            want_deleted: list = []
            if kind == "tx":
                e.send({"acct": acct, "amount": value}, "Tx")
                w = model.setdefault(acct, [])
                w.append(value)
                del w[:-3]
            elif kind == "cmd":
                e.send({"acct": acct, "lim": value}, "Cmd")
                w = model.setdefault(acct, [])
                want_deleted = [(acct, v) for v in w if v > value]
                w[:] = [v for v in w if v <= value]
            else:
                e.send({"acct": acct}, "Stop")
                model.pop(acct, None)
            assert deleted == want_deleted
            deleted.clear()
            assert contents(e) == {k: v for k, v in model.items() if v}
            # one window per live partition; an empty partition keeps an empty window
            assert e.services["named_windows"].get("W").instance_count() == len(model)
            per = {r["k"]: r["n"] for r in e.execute_query(
                "context ByAcct select context.key1 as k, count(*) as n from W")}
            assert per == {k: len(v) for k, v in model.items()}
    finally:
        e.close()
