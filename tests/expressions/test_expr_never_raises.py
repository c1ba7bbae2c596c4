"""Whatever values reach them, the functions of this area evaluate to a value or null and
never raise out of send (properties typed `object` let any value through)."""
from __future__ import annotations

from datetime import date, datetime, timezone
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine

VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["2024-03-05", "1.5", "true", "NaN", "Infinity", "yyyy", "'", "9999-99-99"]),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(datetime(2024, 1, 31, 23, 59, tzinfo=timezone.utc)), st.just(datetime(9999, 12, 31, 23, 59)),
    st.just(date(2020, 2, 29)), st.just(Decimal("1.5")),
)

COLUMNS = [
    "a.getYear()", "a.getMonthOfYear()", "a.getDayOfWeek()", "a.getWeekyear()", "a.get('month')",
    "a.plus(1 month)", "a.minus(b)", "a.plus(b day)", "a.roundCeiling('year')", "a.roundHalf('month')",
    "a.roundFloor('day')", "a.set('hour', b)", "a.withDate(b, b, b)", "a.withTime(b, b, b, b)",
    "a.withMax('year')", "a.withMin('day')", "a.toMillisec()", "a.toDate()", "a.format()", "a.format(c)",
    "a.between(b, c)", "a.before(b)", "cast(a, int)", "cast(a, long)", "cast(a, short)",
    "cast(a, double)", "cast(a, string)", "cast(a, BigDecimal)", "cast(a, BigInteger)",
    "cast(a, boolean)", "cast(a, long, dateformat: 'yyyy-MM-dd')", "cast(a, datetime, dateformat: 'iso')",
    "typeof(a)", "instanceof(a, int, java.lang.Number, string)", "exists(a.x?)", "a.x?",
    "new {p = a, q = new {r = b}}", "case a when b then c else a end", "prev(b, a)", "prevtail(b, a)",
    "prior(1, a)", "prevwindow(a)", "prevcount(a)",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(VALUES, VALUES, VALUES), min_size=1, max_size=4))
def test_no_exception_escapes_send(rows):
    eng = Engine(time="simulated", check_events=False)
    eng.epl("create schema O(a object, b object, c object)")
    cols = ", ".join(f"{c} as c{i}" for i, c in enumerate(COLUMNS))
    stmt = eng.epl(f"select {cols} from O#length(3)")
    got = []
    stmt.add_listener(lambda new, old: got.extend(new or ()))
    for a, b, c in rows:
        eng.send({"a": a, "b": b, "c": c}, "O")
    assert len(got) == len(rows)
