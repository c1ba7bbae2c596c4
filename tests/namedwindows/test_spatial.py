"""Spatial methods and indexes: `point(..).inside(rectangle(..))`,
`rectangle(..).intersects(rectangle(..))`, and `create index ... pointregionquadtree(..)` /
`mxcifquadtree(..)` on named windows, used by on-actions; results equal a brute-force scan."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from recording import Recorder

from engine import Engine
from epl.errors import EPLValidationError

SCHEMAS = """create schema Pt(id int, px double, py double);
create schema Rect(id int, rx double, ry double, rw double, rh double);
create schema Q(x double, y double, w double, h double)"""


def inside(px, py, x, y, w, h):
    return x <= px < x + w and y <= py < y + h


def intersects(a, b):
    x, y, w, h = a
    ox, oy, ow, oh = b
    return not (x > ox + ow or y > oy + oh or x + w < ox or y + h < oy)


@pytest.mark.parametrize("px, py, expected", [
    (0, 0, True), (9.99, 9.99, True), (10, 5, False), (5, 10, False), (-0.01, 5, False), (None, 1, None)])
def test_point_inside_rectangle_edges(px, py, expected):
    e = Engine(time="simulated")
    e.deploy(SCHEMAS)
    rec = Recorder(e.epl("select point(px, py).inside(rectangle(0, 0, 10, 10)) as r from Pt"))
    e.send({"id": 1, "px": px, "py": py}, "Pt")
    assert rec.new_rows() == [{"r": expected}]


@pytest.mark.parametrize("rect, expected", [
    ((10, 10, 1, 1), True), ((11, 0, 1, 1), False), ((-1, -1, 1, 1), True), ((2, 2, 1, 1), True),
    ((0, 10.5, 3, 3), False)])
def test_rectangles_intersect_including_edges(rect, expected):
    e = Engine(time="simulated")
    e.deploy(SCHEMAS)
    rec = Recorder(e.epl("select rectangle(rx, ry, rw, rh).intersects(rectangle(0, 0, 10, 10)) as r from Rect"))
    x, y, w, h = rect
    e.send({"id": 1, "rx": x, "ry": y, "rw": w, "rh": h}, "Rect")
    assert rec.new_rows() == [{"r": expected}]


coord = st.floats(min_value=-20, max_value=120, allow_nan=False).map(lambda v: round(v, 1))
size = st.floats(min_value=0, max_value=60, allow_nan=False).map(lambda v: round(v, 1))
step = st.one_of(
    st.tuples(st.just("pt"), coord, coord),
    st.tuples(st.just("q"), coord, coord, size, size))


@settings(max_examples=150, deadline=None)
@given(st.lists(step, max_size=40), st.integers(min_value=1, max_value=3))
def test_point_index_on_select_equals_brute_force(steps, capacity):
    e = Engine(time="simulated")
    e.deploy(SCHEMAS + f""";
        create window W#length(12) as Pt; insert into W select * from Pt;
        create index I on W((px, py) pointregionquadtree(0, 0, 100, 100, {capacity}, 6));
        @name('q') on Q select w.id as id from W as w where point(w.px, w.py).inside(rectangle(x, y, w, h))""")
    rec = Recorder(e.epl("select 1 from Q"))
    rec.attach(e.statement("q"))
    window: list = []
    expected: list = []
    for i, s in enumerate(steps):
        if s[0] == "pt":
            e.send({"id": i, "px": s[1], "py": s[2]}, "Pt")
            window = (window + [(i, s[1], s[2])])[-12:]
        else:
            e.send({"x": s[1], "y": s[2], "w": s[3], "h": s[4]}, "Q")
            expected.append([{"id": p[0]} for p in window if inside(p[1], p[2], *s[1:])])
    got = [list(d.new) for d in rec.of("q")]
    # a delivery per query that found something
    assert got == [x for x in expected if x]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("r"), coord, coord, size, size),
                          st.tuples(st.just("q"), coord, coord, size, size),
                          st.tuples(st.just("d"), coord, coord, size, size)), max_size=40))
def test_mxcif_index_on_select_and_delete_equal_brute_force(steps):
    e = Engine(time="simulated")
    e.deploy(SCHEMAS + """;
        create window W#keepall as Rect; insert into W select * from Rect;
        create index I on W((rx, ry, rw, rh) mxcifquadtree(0, 0, 100, 100, 2, 8));
        @name('q') on Q(w > 1) select w.id as id from W as w
            where rectangle(w.rx, w.ry, w.rw, w.rh).intersects(rectangle(x, y, w, h));
        @name('d') on Q(w <= 1) as q delete from W as w
            where rectangle(q.x, q.y, q.w, q.h).intersects(rectangle(w.rx, w.ry, w.rw, w.rh))""")
    rec = Recorder(e.statement("q"), e.statement("d"))
    window: list = []
    expected: list = []
    for i, s in enumerate(steps):
        if s[0] == "r":
            e.send({"id": i, "rx": s[1], "ry": s[2], "rw": s[3], "rh": s[4]}, "Rect")
            window.append((i, s[1:]))
            continue
        w = s[3] if s[0] == "q" else min(s[3], 1.0)
        if s[0] == "q" and w <= 1:
            w = 1.5
        q = (s[1], s[2], w, s[4])
        e.send({"x": q[0], "y": q[1], "w": q[2], "h": q[3]}, "Q")
        hit = [r for r in window if intersects(r[1], q)]
        if hit:
            expected.append([{"id": r[0]} for r in hit] if s[0] == "q" else None)
        if s[0] == "d":
            window = [r for r in window if r not in hit]
    got = [list(d.new) if d.statement == "q" else None for d in rec.deliveries]
    assert got == expected
    assert sorted(r["id"] for r in e.execute_query("select id from W")) == sorted(r[0] for r in window)


def test_trigger_point_inside_indexed_rectangles():
    e = Engine(time="simulated")
    e.deploy(SCHEMAS + """;
        create window W#keepall as Rect; insert into W select * from Rect;
        create index I on W((rx, ry, rw, rh) mxcifquadtree(0, 0, 100, 100));
        @name('q') on Pt as p select w.id as id from W as w
            where point(p.px, p.py).inside(rectangle(w.rx, w.ry, w.rw, w.rh))""")
    rec = Recorder(e.statement("q"))
    for i, r in enumerate([(0, 0, 10, 10), (5, 5, 10, 10), (200, 200, 5, 5)]):
        e.send({"id": i, "rx": r[0], "ry": r[1], "rw": r[2], "rh": r[3]}, "Rect")
    e.send({"id": 9, "px": 7.0, "py": 7.0}, "Pt")
    e.send({"id": 9, "px": 202.0, "py": 201.0}, "Pt")
    assert [list(d.new) for d in rec.deliveries] == [[{"id": 0}, {"id": 1}], [{"id": 2}]]


def test_spatial_predicates_in_subqueries_and_joins():
    e = Engine(time="simulated")
    e.deploy(SCHEMAS + """;
        create window W#keepall as Pt; insert into W select * from Pt;
        create index I on W((px, py) pointregionquadtree(0, 0, 100, 100))""")
    sub = Recorder(e.epl("select (select count(*) from W as w where point(w.px, w.py)"
                         ".inside(rectangle(q.x, q.y, q.w, q.h))) as n from Q as q"))
    join = Recorder(e.epl("select p.id as id from Q#lastevent as q, Pt#keepall as p "
                          "where point(p.px, p.py).inside(rectangle(q.x, q.y, q.w, q.h))"))
    for i, (x, y) in enumerate([(1, 1), (50, 50), (99, 99)]):
        e.send({"id": i, "px": float(x), "py": float(y)}, "Pt")
    e.send({"x": 0.0, "y": 0.0, "w": 60.0, "h": 60.0}, "Q")
    assert sub.new_rows() == [{"n": 2}]
    assert join.new_rows() == [{"id": 0}, {"id": 1}]


@pytest.mark.parametrize("text, message", [
    ("create index X on W((px) pointregionquadtree(0, 0, 10, 10))", "requires 2 expressions"),
    ("create index X on W((px, py) pointregionquadtree(0, 0, 10))", "requires 4 to 6 parameters"),
    ("create index X on W((px, py) octree(0, 0, 10, 10))", "Unrecognized advanced-type index 'octree'"),
    ("create index X on W((px, py) pointregionquadtree(0, 0, -1, 10))", "positive width and height"),
    ("create index X on W((id, px) pointregionquadtree(0, 0, px, 10))", "constant numeric parameters"),
    ("select point(px).inside(rectangle(0, 0, 1, 1)) from Pt", "point takes 2 parameters"),
    ("select point(px, py).inside(1) from Pt", "expecting a single rectangle"),
    ("select rectangle(0, 0, 1, 'a').intersects(rectangle(0, 0, 1, 1)) from Pt", "must return a numeric"),
])
def test_validation(text, message):
    e = Engine(time="simulated")
    e.deploy(SCHEMAS + "; create window W#keepall as Pt")
    with pytest.raises(EPLValidationError, match=message):
        e.epl(text)


def test_filters_with_filterindex_parameter_and_patterns():
    e = Engine(time="simulated")
    e.deploy(SCHEMAS)
    flt = Recorder(e.epl("expression myindex {pointregionquadtree(0, 0, 100, 100)} "
                         "select id from Rect(point(0, 0, filterindex: myindex).inside(rectangle(rx, ry, rw, rh)))"))
    pat = Recorder(e.epl("select p.id as p, r.id as r from pattern[every p=Pt -> "
                         "r=Rect(point(p.px, p.py).inside(rectangle(rx, ry, rw, rh)))]"))
    e.send({"id": 1, "px": 5.0, "py": 5.0}, "Pt")
    e.send({"id": 10, "rx": -1.0, "ry": -1.0, "rw": 2.0, "rh": 2.0}, "Rect")   # holds 0,0 only
    e.send({"id": 11, "rx": 4.0, "ry": 4.0, "rw": 2.0, "rh": 2.0}, "Rect")     # holds 5,5
    assert flt.new_rows() == [{"id": 10}]
    assert pat.new_rows() == [{"p": 1, "r": 11}]


def test_spatial_index_on_tables_and_context_partitioned_windows():
    e = Engine(time="simulated")
    e.deploy(SCHEMAS + """;
        create table T(id int primary key, px double, py double);
        on Pt merge T where T.id = Pt.id when not matched then insert select id, px, py;
        create index TI on T((px, py) pointregionquadtree(0, 0, 100, 100));
        create context ByQuad partition by id from Pt;
        context ByQuad create window PW#keepall as Pt;
        context ByQuad insert into PW select * from Pt;
        context ByQuad create index PI on PW((px, py) pointregionquadtree(0, 0, 100, 100))""")
    table = Recorder(e.epl("on Q select t.id as id from T as t where point(t.px, t.py).inside(rectangle(x, y, w, h))"))
    for i, (x, y) in enumerate([(1, 1), (50, 50), (99, 99), (1, 1)]):
        e.send({"id": i % 3, "px": float(x), "py": float(y)}, "Pt")
    e.send({"x": 0.0, "y": 0.0, "w": 60.0, "h": 60.0}, "Q")
    assert table.new_rows() == [{"id": 0}, {"id": 1}]
    part = Recorder(e.epl("context ByQuad on Pt(px > 98) as p select count(*) as n from PW as w "
                          "where point(w.px, w.py).inside(rectangle(0, 0, 10, 10))"))
    e.send({"id": 0, "px": 99.0, "py": 99.0}, "Pt")       # partition 0 holds (1,1) twice
    assert part.new_rows() == [{"n": 2}]
