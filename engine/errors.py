"""Runtime errors the engine raises for bad events and misuse (EPL errors live in epl.errors)."""
from __future__ import annotations


class EngineError(Exception):
    """Base of the engine's runtime errors."""


class EventTypeError(EngineError):
    """An event the engine cannot take: unknown type, wrong representation, bad property."""


class TimeError(EngineError):
    """Time moved backwards, or a simulated-time call on a system-time engine."""


class StatementStateError(EngineError):
    """An operation not allowed in the statement's current state (e.g. start after destroy)."""


class EvaluationTimeout(EngineError):
    """An evaluation passed its time bound (a back-tracking regular expression): the statement
    fails for that event alone, as any statement fault does."""
