"""Shared by the fused-statement tests: runs a script of operations (sends, batches, stop and
start, destroy, iteration, listeners added, removed, failing or routing, subscribers, time
steps, checkpoint and restore) against statements with fusion on or off, logging every
delivery, so the two runs can be compared."""
from __future__ import annotations

from typing import Any, Callable, Optional

from engine import Engine


def rows_of(beans: Any) -> Any:
    return None if beans is None else [sorted(b.to_dict().items()) for b in beans]


def raiser(new: Any, old: Any) -> None:
    raise RuntimeError("listener fails")


class _Sub:
    def __init__(self, log: list, name: str) -> None:
        self.log, self.name = log, name

    def update(self, *row: Any) -> None:
        self.log.append(("sub", self.name, row))


def run_script(schema: str, statements: list[str], script: list, fusion: bool,
               none_for_empty: bool, fused_check: Callable[[Any], bool], *,
               start_at: Optional[int] = None,
               extra_op: Optional[Callable[[Engine, str, Any, list[str]], bool]] = None,
               may_checkpoint: Callable[[], bool] = lambda: True) -> tuple[list, list]:
    """Run a script; returns (the log, whether the first statement was fused). `extra_op`
    takes the operations a test adds (True when it took one)."""
    engine = Engine(time="simulated", none_for_empty=none_for_empty)
    engine.fusion = fusion
    if start_at is not None:
        engine.advance_time(start_at)
    engine.epl(schema)
    engine.epl("create schema U(n int)")
    log: list = []
    engine.epl("@name('u') select count(*) as n from U").add_listener(
        lambda new, old: log.append(("u", rows_of(new))))
    names = [f"s{k}" for k in range(len(statements))]

    def listener(name: str) -> Any:
        return lambda new, old: log.append((name, rows_of(new), rows_of(old)))
    for name, text in zip(names, statements):
        engine.epl(f"@name('{name}') {text}").add_listener(listener(name))
    fused = [fused_check(engine.statement(n)) for n in names[:1]]
    for op, arg in script:
        if extra_op is not None and extra_op(engine, op, arg, names):
            continue
        live = [s for s in engine.statements if s.name in names]
        stmt = live[arg % len(live)] if live and isinstance(arg, int) else None
        if op == "many":
            engine.send_many(arg, "T")
        elif op == "send":
            engine.send(arg, "T")
        elif op == "advance":
            engine.advance_time(engine.now + arg)
        elif op == "span":
            engine.advance_time_span(engine.now + arg)
        elif op == "stop" and stmt is not None:
            stmt.stop()
        elif op == "start" and stmt is not None:
            stmt.start()
        elif op == "destroy" and stmt is not None and arg == 3:
            stmt.destroy()
        elif op == "iter" and stmt is not None:
            log.append(("iter", stmt.name, [sorted(r.items()) for r in stmt.rows()]))
        elif op == "raise" and stmt is not None:
            stmt.add_listener(raiser)
        elif op == "sub" and stmt is not None:
            stmt.subscriber = _Sub(log, stmt.name)
        elif op == "relay" and stmt is not None:      # a listener routing an event
            stmt.add_listener(lambda new, old, _e=engine: _e.route({"n": len(new or ())}, "U"))
        elif op == "send_in" and stmt is not None:    # a listener sending one
            stmt.add_listener(lambda new, old, _e=engine: _e.send({"n": 1}, "U"))
        elif op == "unlisten" and stmt is not None:
            stmt.remove_all_listeners()
        elif op == "checkpoint" and may_checkpoint():
            data = engine.checkpoint()
            alive = [s.name for s in engine.statements if s.name in names]
            engine = Engine.restore(data, listeners={n: listener(n) for n in alive})
            log.append(("restored", alive))
    return log, fused
