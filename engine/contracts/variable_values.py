"""Variable values: the error of a bad variable access, the check that a value fits a
variable's type, and which expression types may be assigned to it. Pure functions both the
compiler (`create variable`, `on ... set`, `update istream`) and the runtime
(engine/variables.py) use."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.errors import EngineError


class VariableError(EngineError):
    """An unknown variable, a write to a constant, or a value of the wrong type."""


def check_value(name: str, t: PropertyType, value: Any) -> Any:
    """A value as the variable's type holds it; raises VariableError when it does not fit."""
    if value is None:
        return None
    k = t.kind
    ok = True
    if k in T.INTEGRAL:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif k in (EPLType.DOUBLE, EPLType.FLOAT):
        ok = isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)
        if ok:
            value = float(value)
    elif k is EPLType.DECIMAL:
        ok = isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)
        if ok:
            value = Decimal(str(value))
    elif k is EPLType.STRING:
        ok = isinstance(value, str)
    elif k is EPLType.BOOLEAN:
        ok = isinstance(value, bool)
    if not ok:
        raise VariableError(f"Variable '{name}' of declared type {t} cannot be assigned a value "
                            f"of type {type(value).__name__}")
    return value


def assignable(target: PropertyType, source: PropertyType) -> bool:
    """Whether an expression of type `source` may be assigned to a variable of type `target`
    (numeric widening only; object on either side is checked at runtime)."""
    if EPLType.OBJECT in (target.kind, source.kind) or target == source:
        return True
    if target.is_numeric and source.is_numeric:
        if target.kind in (EPLType.DOUBLE, EPLType.FLOAT, EPLType.DECIMAL):
            return True
        return source.is_integral and T.NUMERIC_RANK[source.kind] <= T.NUMERIC_RANK[target.kind]
    return target.kind == source.kind
