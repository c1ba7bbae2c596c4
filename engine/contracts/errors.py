"""The errors of engine and EPL: runtime errors for bad events and misuse (EngineError and
subclasses), and errors of statement text (EPLError: syntax and validation)."""
from __future__ import annotations

from typing import Optional


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



class EPLError(Exception):
    """Base of the errors a statement text can raise; `epl` is the statement text."""

    def __init__(self, message: str, epl: Optional[str] = None,
                 line: Optional[int] = None, column: Optional[int] = None) -> None:
        self.message = message
        self.epl = epl
        self.line = line
        self.column = column
        super().__init__(self._format())

    def _format(self) -> str:
        return f"{self.message} [{self.epl}]" if self.epl else self.message


class EPLSyntaxError(EPLError):
    """`Incorrect syntax near 'from' (a reserved keyword) at line 1 column 21, please check
    the select clause [select case when 1>2 from A]`; `near` is the offending token's text
    (None at end of input) and `expected` what the parser wanted there."""

    def __init__(self, message: str, epl: Optional[str] = None, line: Optional[int] = None,
                 column: Optional[int] = None, near: Optional[str] = None,
                 expected: Optional[str] = None) -> None:
        self.near = near
        self.expected = expected
        super().__init__(message, epl, line, column)


class EPLValidationError(EPLError):
    """A statement that parses but cannot be compiled: unknown event type, property, view,
    function, or a bad argument."""
