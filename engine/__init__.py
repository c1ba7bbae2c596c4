"""epl-engine runtime: the engine, statements, events and their types."""
__version__ = "0.2.0"   # the package's only version number (pyproject reads it)

from .bean import EventBean as EventBean
from .deployment import Deployment as Deployment
from .engine import Engine as Engine
from .epl_types import EPLType as EPLType, PropertyType as PropertyType
from .errors import (
    EngineError as EngineError,
    EventTypeError as EventTypeError,
    StatementStateError as StatementStateError,
    TimeError as TimeError,
)
from .event_types import EventType as EventType, EventTypeRegistry as EventTypeRegistry
from .statement import Statement as Statement, StatementState as StatementState

__all__ = [
    "Engine", "Statement", "Deployment", "StatementState", "EventBean", "EventType", "EventTypeRegistry",
    "EPLType", "PropertyType", "EngineError", "EventTypeError", "StatementStateError", "TimeError",
]
