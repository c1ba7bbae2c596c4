"""The engine's runtime errors; they live in engine.contracts.errors, re-exported here so
existing imports keep working."""
from engine.contracts.errors import EngineError as EngineError
from engine.contracts.errors import EvaluationTimeout as EvaluationTimeout
from engine.contracts.errors import EventTypeError as EventTypeError
from engine.contracts.errors import StatementStateError as StatementStateError
from engine.contracts.errors import TimeError as TimeError
