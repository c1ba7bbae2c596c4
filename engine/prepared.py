"""Prepared statements: EPL with substitution parameters (`?`, `?:name`, `?:name:type`),
compiled once the values are given (Esper's prepare / setObject / deploy)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional, Sequence

from epl.compiler.params import bind_values, parameter_names, substitutions

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


class PreparedStatement:
    """`engine.prepare(text)`: `.deploy([v1, v2])` for `?` parameters, `.deploy(name=v)` or
    `.deploy({'name': v})` for `?:name` ones; each deploy starts a new statement."""

    __slots__ = ("_engine", "text", "_node", "_params", "parameters")

    def __init__(self, engine: "Runtime", text: str) -> None:
        from epl.parser import parse
        self._engine = engine
        self.text = text
        self._node = parse(text)
        self._params = substitutions(self._node)
        # [1, 2, ...] for positional parameters, else the names in order of appearance
        self.parameters: list[Any] = parameter_names(self._params, text)

    def deploy(self, values: Optional[Any] = None, /, *, statement_name: Optional[str] = None,
               **named: Any) -> Any:
        """Bind the values and create the statement; a missing or wrongly typed value is an
        EPLValidationError naming the parameter."""
        positional: Sequence[Any] = ()
        if isinstance(values, Mapping):
            named = {**values, **named}
        elif values is not None:
            positional = list(values) if isinstance(values, (list, tuple)) else [values]
        node = bind_values(self._node, self._params, self.parameters, positional, named, self.text)
        return self._engine.create_statement(node, self.text, statement_name)

    def __repr__(self) -> str:
        return f"PreparedStatement({self.text!r}, parameters={self.parameters})"
