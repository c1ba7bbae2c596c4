"""What an evaluation fault becomes: null plus a report, or one statement skipping one event.

The decisions (docs/errors.md):
- A user-registered Python function or a user class's property getter that raises evaluates
  to null for that expression: `evaluation_error` signal (statement=, expression=, error=)
  and a warning on the `epl.engine` logger. The statement goes on with the null, so its
  state is that of a run where the value was null.
- Anything else that escapes a statement's processing of an event (a bug, or an object
  property holding a value no operator accepts that a check could not refuse) stops that
  statement for that event only: `statement_error` signal (statement=, event=, error=) and
  an error log line; every other statement processes the event, and events queued by
  `insert into` are still processed.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime, StatementRef

log = logging.getLogger("epl.engine")


def evaluation_failed(engine: Optional["Runtime"], expression: str, exc: BaseException) -> None:
    """A user function or getter raised inside `expression`: report it; the caller uses null."""
    if engine is None:          # compiled without an engine at hand: the log line alone
        log.warning("Expression '%s' raised %s: %s; evaluated as null",
                    expression, type(exc).__name__, exc)
        return
    stmt = engine.current_statement
    log.warning("Expression '%s' of statement '%s' raised %s: %s; evaluated as null",
                expression, getattr(stmt, "name", None), type(exc).__name__, exc)
    engine.signals.evaluation_error.send(engine, statement=stmt, expression=expression,
                                         error=exc)


def statement_failed(engine: "Runtime", statement: Optional["StatementRef"], event: Any,
                     exc: BaseException) -> None:
    """A statement raised while processing `event` (None for a timer callback): report it."""
    log.error("Statement '%s' failed processing %r; other statements continue",
              getattr(statement, "name", None), event, exc_info=exc)
    engine.signals.statement_error.send(engine, statement=statement, event=event, error=exc)


def statement_of_slot(engine: "Runtime", slot: Any) -> Optional["StatementRef"]:
    """The statement whose schedules use `slot` (slots start with the statement's order key)."""
    if isinstance(slot, tuple):
        for s in engine.statements:
            key = s._order_key
            if slot[:len(key)] == key:
                return s
    return None
