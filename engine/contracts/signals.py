"""The engine's own signals (blinker), like Esper's statement-state listeners. Each engine
has its own namespace, so receivers of one engine never see another's signals."""
from __future__ import annotations

from blinker import Namespace

SIGNAL_NAMES = (
    "statement_created",    # sender: engine, statement=
    "statement_started",
    "statement_stopped",
    "statement_destroyed",
    "listener_error",       # sender: engine, statement=, listener=, error=
    "cti_violation",        # sender: engine, input=, event=, action= ('dropped' | 'adjusted')
    "pattern_limit",        # sender: engine, statement=, count=, limit=
    "route_limit",          # sender: engine, limit=, dropped= (insert-into loop cut)
    "regex_timeout",        # sender: engine, expression=, event=, error= (filter skipped it)
    "evaluation_error",     # sender: engine, statement=, expression=, error= (value was null)
    "statement_error",      # sender: engine, statement=, event=, error= (statement skipped it)
)


class EngineSignals:
    """`engine.signals.statement_created.connect(fn)`; connect closures with weak=False."""

    def __init__(self) -> None:
        ns = Namespace()
        for name in SIGNAL_NAMES:
            setattr(self, name, ns.signal(name))


# Process-wide, for the places that have no engine at hand: a property getter refusing a step
# (see engine/sandbox.py). sender: the value's type name; name=, reason=.
_process = Namespace()
property_refused = _process.signal("property_refused")
