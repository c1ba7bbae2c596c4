"""The compiler's list of built-in aggregation names matches the runtime's builders."""
from engine.aggregation.registry import AGGREGATIONS
from engine.contracts.aggregation import BUILTIN_AGGREGATIONS, is_aggregation


def test_builtin_names_are_the_registry_keys() -> None:
    assert BUILTIN_AGGREGATIONS == frozenset(AGGREGATIONS)


def test_is_aggregation_any_case() -> None:
    assert is_aggregation("Sum") and is_aggregation("countEver") and not is_aggregation("abs")
