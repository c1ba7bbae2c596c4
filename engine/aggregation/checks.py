"""Argument checks shared by the aggregation builders; messages follow Esper's wording."""
from __future__ import annotations

from typing import Callable

from engine.contracts.epl_types import EPLType, PropertyType

from engine.contracts.aggregation import AggCall, AggregationError, AggregationFactory, Aggregator, type_name
from .distinct import distinct_maker

# Values of these kinds have no order: min/max/sorted cannot take them.
_UNORDERED = {EPLType.MAP, EPLType.EVENT, EPLType.ARRAY}


def expect_args(call: AggCall, lower: int, upper: int) -> None:
    """Raise unless the call has between lower and upper positional arguments."""
    n = len(call.arg_types)
    if lower <= n <= upper:
        return
    if lower == upper == 0:
        wanted = "no parameters"
    elif lower == upper:
        wanted = f"{lower} parameter{'s' if lower != 1 else ''}"
    else:
        wanted = f"at least {lower} and up to {upper} parameters"
    raise AggregationError(f"The '{call.name}' function expects {wanted} but received {n}")


def no_distinct(call: AggCall) -> None:
    if call.distinct:
        raise AggregationError(f"Aggregation function '{call.name}' does not allow distinct")


def numeric_arg(call: AggCall, i: int = 0) -> PropertyType:
    """The type of argument i, which must be numeric."""
    t = call.arg_types[i]
    if not t.is_numeric:
        raise AggregationError(
            f"Implicit conversion from datatype '{type_name(t)}' to numeric is not allowed "
            f"for aggregation function '{call.name}'")
    return t


def ordered_arg(call: AggCall, i: int = 0) -> PropertyType:
    """The type of argument i, whose values must be comparable with each other."""
    t = call.arg_types[i]
    if t.kind in _UNORDERED:
        raise AggregationError(
            f"Implicit conversion from datatype '{type_name(t)}' to a comparable type is not "
            f"allowed for aggregation function '{call.name}'")
    return t


def check_filter(call: AggCall) -> None:
    """A `filter:` named parameter must be boolean when the compiler passes its type."""
    f = call.named.get("filter")
    if isinstance(f, PropertyType) and f.kind is not EPLType.BOOLEAN:
        raise AggregationError(
            f"Invalid filter expression parameter to the aggregation function '{call.name}' "
            f"is expected to return a boolean value but returns {type_name(f)}")


def int_constant(call: AggCall, i: int, message: str) -> int:
    """Argument i as a non-negative integer compile-time constant."""
    if i >= len(call.arg_types) or not call.is_constant(i):
        raise AggregationError(message)
    v = call.constant(i)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0 or v != int(v):
        raise AggregationError(message)
    return int(v)


def finish(call: AggCall, rtype: PropertyType, maker: Callable[[], Aggregator], *,
           distinct_ok: bool = True, tupled: bool = False,
           takes_event: bool = False) -> AggregationFactory:
    """The factory for a validated call: checks the filter, applies `distinct`."""
    check_filter(call)
    if call.distinct:
        if not distinct_ok:
            no_distinct(call)
        maker = distinct_maker(maker, tupled)
    return AggregationFactory(call.name, rtype, maker, takes_event)
