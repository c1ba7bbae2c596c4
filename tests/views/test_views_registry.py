"""The registry: names, parameter validation and chain building; and the public API."""
from __future__ import annotations

import pytest
from viewtest_support import Recorder, const, expr, period, prop

import views
from views import (VIEW_FACTORIES, SimulatedViewContext, ViewArg, ViewParameterError,
                   create_factories, make_chain)


def test_unknown_view_name() -> None:
    with pytest.raises(ViewParameterError, match="View name 'foo' is not a known view name"):
        create_factories([("foo", [])])


@pytest.mark.parametrize("spec, message", [
    (("length", []), "Error in view 'length': expects one parameter"),
    (("length", [const(0)]), "Error in view 'length': invalid parameter '0'"),
    (("length", [const(2.5)]), "invalid parameter '2.5'"),
    (("length", [const(1), const(2)]), "received 2 parameters"),
    (("time", [prop("price")]), "Error in view 'time': invalid parameter 'price'"),
    (("time", [period(0)]), "greater than zero"),
    (("time_batch", [period(1000), const("FORCE_UPDATES")]), "invalid keyword 'FORCE_UPDATES'"),
    (("time_batch", [period(1000), const("START_EAGER"), const(5)]), "reference point before"),
    (("time_batch", [period(1000), prop("x")]), "reference point"),
    (("time_length_batch", [period(1000)]), "expects a time period, a number of events"),
    (("keepall", [const(1)]), "Error in view 'keepall': expects no parameters"),
    (("sort", [const(3)]), "a size and one or more sort criteria"),
    (("sort", [prop("x"), prop("y")]), "invalid parameter 'x'"),
    (("rank", [prop("a"), prop("b"), prop("c")]), "then the size"),
    (("rank", [prop("a"), prop("b"), const(3)]), "then the size"),
    (("expr", [const(1)]), "expected an expression"),
    (("expr_batch", [expr("x", lambda b, v: 1), const(3)]), "boolean constant"),
    (("unique", []), "one or more unique-key expressions"),
    (("groupwin", [prop("k")]), "requires one or more child views"),
    (("ext_timed", [ViewArg("s", result_type=__import__("engine.epl_types").epl_types.STRING),
                    period(1000)]), "must return a numeric value"),
])
def test_parameter_errors_name_the_view_and_parameter(spec, message) -> None:
    with pytest.raises(ViewParameterError, match=message):
        create_factories([spec])


def test_namespaces_and_case_are_tolerated() -> None:
    fs = create_factories([("win:LENGTH", [const(2)])])
    assert fs[0].is_data_window


def test_groupwin_takes_the_rest_as_sub_chain() -> None:
    fs = create_factories([("groupwin", [prop("k")]), ("length", [const(3)]),
                           ("unique", [prop("v")])])
    # the sub-chain's two data windows keep their intersection
    assert len(fs) == 1 and len(fs[0].sub) == 1 and len(fs[0].sub[0].members) == 2


def test_make_chain_links_views_to_the_sink() -> None:
    ctx = SimulatedViewContext()
    rec = Recorder()
    first, vs = make_chain(create_factories([("length", [const(2)]), ("groupwin", [prop("k")]),
                                             ("unique", [prop("k")])]), ctx, rec)
    assert vs[0] is first and vs[0].child is vs[1] and vs[1].child is rec


DERIVED = {"size", "uni", "linest", "correl", "weighted_avg"}


def test_every_registered_factory_is_a_data_window_or_derived() -> None:
    assert set(VIEW_FACTORIES) == {
        "length", "length_batch", "time", "time_batch", "time_length_batch", "time_accum",
        "ext_timed", "ext_timed_batch", "keepall", "unique", "firstunique", "firstevent",
        "lastevent", "firstlength", "firsttime", "sort", "rank", "groupwin", "expr",
        "expr_batch", "interval", "time_order", "timetolive"} | DERIVED
    assert all(cls.is_data_window != (name in DERIVED) for name, cls in VIEW_FACTORIES.items())


def test_public_api_is_pinned() -> None:
    expected = {
        "NOT_CONSTANT", "Events", "UpdateSink", "View", "ViewArg", "ViewContext", "ViewFactory",
        "ViewParameterError", "VIEW_FACTORIES", "create_factories", "make_chain",
        "SimulatedViewContext", "EXPR_BUILTIN_NAMES"}
    for name in ("Length", "LengthBatch", "Time", "TimeBatch", "TimeLengthBatch", "TimeAccum",
                 "ExtTimed", "ExtTimedBatch", "KeepAll", "Unique", "FirstUnique", "FirstEvent",
                 "LastEvent", "FirstLength", "FirstTime", "Sort", "Rank", "Expr", "ExprBatch"):
        expected |= {f"{name}Window", f"{name}WindowFactory"}
    expected |= {"GroupWinView", "GroupWinFactory", "TimeOrderWindow", "TimeOrderWindowFactory",
                 "TimeToLiveWindowFactory", "UnionWindow", "UnionFactory"}
    for name in ("Size", "Uni", "Linest", "Correl", "WeightedAvg"):
        expected |= {f"{name}View", f"{name}ViewFactory"}
    assert set(views.__all__) == expected
    assert all(hasattr(views, n) for n in expected)


def test_view_arg_descending_defaults_false() -> None:
    assert ViewArg("x").descending is False
