"""Pattern validation errors: each names what is wrong, and nothing stays registered."""
from __future__ import annotations

import pytest

from epl.errors import EPLValidationError


@pytest.mark.parametrize("pattern, message", [
    ("a=Nope", "Failed to resolve event type"),
    ("a=A -> a=B", "Tag 'a' for event type 'B' has already been declared"),
    ("a=A -> b=B(nope = 1)", "nope"),
    ("a=A -> b=B(id = a.nope)", "nope"),
    ("a=A where timer:nope(1)", "Pattern guard function 'timer:nope' could not be found"),
    ("timer:nope(1)", "Pattern observer function 'timer:nope' could not be found"),
    ("timer:at(61, *, *, *, *)", "Invalid parameter for pattern observer 'timer:at'"),
    ("timer:at(*, *, *, *)", "Invalid number of parameters for timer:at"),
    ("[2:3] a=A", "requires an until-expression"),
    ("[3:2] a=A until b=B", "lower bounds value '3' is higher"),
    ("[0] a=A", "repeat count must be an integer of 1 or more"),
    ("a=A where timer:within('x')", "time period or a number of seconds"),
    ("every-distinct(a.id, 0 sec) a=A", "positive time period"),
])
def test_validation_errors(engine, pattern, message):
    before = engine.filter_count()
    with pytest.raises(EPLValidationError) as e:
        engine.epl(f"select * from pattern [{pattern}]")
    assert message in str(e.value)
    assert engine.filter_count() == before and engine.schedule_count() == 0


def test_same_tag_same_type_is_allowed(engine, listen):
    rows = listen("select a.v as v from pattern [every (a=A(v > 5) or a=A(v < 0))]")
    for v in (1, 6, -1):
        engine.send({"id": 1, "v": v}, "A")
    assert rows.rows == [{"v": 6}, {"v": -1}]
