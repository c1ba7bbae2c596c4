"""epl-engine: the Engine facade, statements, events and their types (the public API).

The package holds the runtime (engine/*: statements, result sets, output, patterns, joins,
named windows and tables, contexts, ...), the contracts layer (engine/contracts: events,
types, errors, time) and the facade (engine/engine.py: `Engine`, the one place that joins
the EPL compiler and the runtime; with the CLI). Layers and what each may import:
docs/architecture.md. The names below are imported on first use, so `import engine` (or
importing `engine.contracts`) does not load the whole runtime.

May import: everything (it is the facade's face); nothing inside our packages imports it."""
import typing as _typing

from engine.contracts.lazy import lazy_exports as _lazy_exports

__version__ = "0.2.0"   # the package's only version number (pyproject reads it)

if _typing.TYPE_CHECKING:
    from engine.contracts.bean import EventBean as EventBean
    from engine.contracts.epl_types import EPLType as EPLType
    from engine.contracts.epl_types import PropertyType as PropertyType
    from engine.contracts.errors import EngineError as EngineError
    from engine.contracts.errors import EventTypeError as EventTypeError
    from engine.contracts.errors import StatementStateError as StatementStateError
    from engine.contracts.errors import TimeError as TimeError
    from engine.contracts.event_types import EventType as EventType
    from engine.contracts.event_types import EventTypeRegistry as EventTypeRegistry
    from engine.deployment import Deployment as Deployment
    from engine.engine import Engine as Engine
    from engine.statement import Statement as Statement
    from engine.statement import StatementState as StatementState

__all__ = [
    "Engine", "Statement", "Deployment", "StatementState", "EventBean", "EventType",
    "EventTypeRegistry", "EPLType", "PropertyType", "EngineError", "EventTypeError",
    "StatementStateError", "TimeError",
]

# Where each public name is defined; a name is imported on first use, then cached in the
# module dict, so later lookups never reach __getattr__.
_ORIGIN = {
    "Engine": ("engine.engine", "Engine"),
    "Statement": ("engine.statement", "Statement"),
    "Deployment": ("engine.deployment", "Deployment"),
    "StatementState": ("engine.statement", "StatementState"),
    "EventBean": ("engine.contracts.bean", "EventBean"),
    "EventType": ("engine.contracts.event_types", "EventType"),
    "EventTypeRegistry": ("engine.contracts.event_types", "EventTypeRegistry"),
    "EPLType": ("engine.contracts.epl_types", "EPLType"),
    "PropertyType": ("engine.contracts.epl_types", "PropertyType"),
    "EngineError": ("engine.contracts.errors", "EngineError"),
    "EventTypeError": ("engine.contracts.errors", "EventTypeError"),
    "StatementStateError": ("engine.contracts.errors", "StatementStateError"),
    "TimeError": ("engine.contracts.errors", "TimeError"),
}


__getattr__, __dir__ = _lazy_exports(__name__, _ORIGIN, __all__)
