"""The contracts layer: what every package may rely on. Events and event types (EventBean,
EventType and its registry, property types), the types of EPL values and their datetime
helpers, the errors of engine and EPL, the time service (scheduler and its protocol), the
view-context protocol, the runtime protocol (engine.contracts.runtime), application-time event
shapes, crontab schedules (engine.contracts.crontab) and the engine's signals.

May import: nothing of ours (the standard library and blinker only). Everything else imports
its names from the defining modules here (`engine.contracts.bean`, ...), never from this
package's `__init__`."""
import typing as _typing

from engine.contracts.lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from engine.contracts.bean import EventBean as EventBean
    from engine.contracts.epl_types import EPLType as EPLType
    from engine.contracts.epl_types import PropertyType as PropertyType
    from engine.contracts.errors import EPLError as EPLError
    from engine.contracts.errors import EPLSyntaxError as EPLSyntaxError
    from engine.contracts.errors import EPLValidationError as EPLValidationError
    from engine.contracts.errors import EngineError as EngineError
    from engine.contracts.errors import EvaluationTimeout as EvaluationTimeout
    from engine.contracts.errors import EventTypeError as EventTypeError
    from engine.contracts.errors import StatementStateError as StatementStateError
    from engine.contracts.errors import TimeError as TimeError
    from engine.contracts.event_types import EventType as EventType
    from engine.contracts.event_types import EventTypeRegistry as EventTypeRegistry
    from engine.contracts.event_types import Representation as Representation
    from engine.contracts.scheduler import ScheduleHandle as ScheduleHandle
    from engine.contracts.scheduler import Scheduler as Scheduler
    from engine.contracts.signals import EngineSignals as EngineSignals
    from engine.contracts.time import TimeService as TimeService
    from engine.contracts.timed import TimedBean as TimedBean
    from engine.contracts.view_context import ViewContext as ViewContext

__all__ = [
    "EventBean", "EventType", "EventTypeRegistry", "Representation", "EPLType", "PropertyType",
    "EngineError", "EventTypeError", "TimeError", "StatementStateError", "EvaluationTimeout",
    "EPLError", "EPLSyntaxError", "EPLValidationError", "Scheduler", "ScheduleHandle",
    "TimeService", "ViewContext", "TimedBean", "EngineSignals",
]

# Where each public name is defined; a name is imported on first use, then cached in the
# module dict, so later lookups never reach __getattr__.
_ORIGIN = {
    "EventBean": ("engine.contracts.bean", "EventBean"),
    "EventType": ("engine.contracts.event_types", "EventType"),
    "EventTypeRegistry": ("engine.contracts.event_types", "EventTypeRegistry"),
    "Representation": ("engine.contracts.event_types", "Representation"),
    "EPLType": ("engine.contracts.epl_types", "EPLType"),
    "PropertyType": ("engine.contracts.epl_types", "PropertyType"),
    "EngineError": ("engine.contracts.errors", "EngineError"),
    "EventTypeError": ("engine.contracts.errors", "EventTypeError"),
    "TimeError": ("engine.contracts.errors", "TimeError"),
    "StatementStateError": ("engine.contracts.errors", "StatementStateError"),
    "EvaluationTimeout": ("engine.contracts.errors", "EvaluationTimeout"),
    "EPLError": ("engine.contracts.errors", "EPLError"),
    "EPLSyntaxError": ("engine.contracts.errors", "EPLSyntaxError"),
    "EPLValidationError": ("engine.contracts.errors", "EPLValidationError"),
    "Scheduler": ("engine.contracts.scheduler", "Scheduler"),
    "ScheduleHandle": ("engine.contracts.scheduler", "ScheduleHandle"),
    "TimeService": ("engine.contracts.time", "TimeService"),
    "ViewContext": ("engine.contracts.view_context", "ViewContext"),
    "TimedBean": ("engine.contracts.timed", "TimedBean"),
    "EngineSignals": ("engine.contracts.signals", "EngineSignals"),
}


__getattr__, __dir__ = _lazy_exports(__name__, _ORIGIN, __all__)
