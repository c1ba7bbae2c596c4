"""`in keys of` a live container (FilterOp.IN_KEYS): the index reads the container per event,
so keys added to or removed from it change what matches without any change to the filters;
the same through `match`, a type's router and the batch scanner, with one container (tested
inline by the generated code) or several, beside other filters on the same property."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from engine.bean import EventBean
from engine.event_types import EventTypeRegistry
from filterindex import FilterIndex, FilterOp, FilterParam, FilterSpec

VALUES = [None, 0, 1, 2, 2.0, "a", "b", [1]]       # [1]: unhashable, in no container


def _tick():
    return EventTypeRegistry().register_map("Tick", {"symbol": "string", "price": "double"})


def _keys_spec(t, container, key, price_gt=None):
    path = (FilterParam("symbol", FilterOp.IN_KEYS, container, key=key),)
    if price_gt is not None:
        path = (FilterParam("price", FilterOp.GT, price_gt, t.getter("price")),) + path
    return FilterSpec(t, (path,))


def _expected(filters, event):
    out = []
    for name, (container, price_gt) in filters.items():
        v = event.get("symbol")
        try:
            hit = v in container
        except TypeError:
            hit = False
        if hit and (price_gt is None or (event.get("price") is not None and event["price"] > price_gt)):
            out.append(name)
    return sorted(out)


script = st.lists(st.one_of(
    st.tuples(st.just("add"), st.integers(0, 2), st.sampled_from([None, 1.0])),   # a filter on container i
    st.tuples(st.just("remove"), st.integers(0, 5)),
    st.tuples(st.just("put"), st.integers(0, 2), st.sampled_from(VALUES[:-1])),   # key into container i
    st.tuples(st.just("drop"), st.integers(0, 2), st.sampled_from(VALUES[:-1])),
    st.tuples(st.just("send"), st.sampled_from(VALUES), st.sampled_from([None, 0.5, 2.0])),
), max_size=40)


@settings(max_examples=150, deadline=None)
@given(script)
def test_matches_follow_the_containers_live(steps):
    t = _tick()
    index = FilterIndex()
    containers = [{}, set(), {}]
    filters: dict = {}              # handle name -> (container, price bound)
    tokens: dict = {}
    route = index.router(t)
    probe = EventBean(t, None)
    n = 0
    for s in steps:
        if s[0] == "add":
            name = f"h{n}"
            n += 1
            tokens[name] = index.add(_keys_spec(t, containers[s[1]], f"c{s[1]}-{name}", s[2]), name)
            filters[name] = (containers[s[1]], s[2])
        elif s[0] == "remove" and filters:
            name = sorted(filters)[s[1] % len(filters)]
            index.remove(tokens.pop(name))
            del filters[name]
        elif s[0] == "put":
            c = containers[s[1]]
            if isinstance(c, set):
                c.add(s[2])
            else:
                c[s[2]] = True
        elif s[0] == "drop":
            c = containers[s[1]]
            if isinstance(c, set):
                c.discard(s[2])
            else:
                c.pop(s[2], None)
        elif s[0] == "send":
            event = {"symbol": s[1], "price": s[2]}
            want = _expected(filters, event)
            assert sorted(index.match(EventBean(t, event))) == want
            assert sorted(route.fn(EventBean(t, event))) == want
            # the scanner over one event at a time: the containers are as they are now
            got = [sorted(h) for _, h in index.scanner(t)([event], 0, 1, probe)]
            assert got == ([want] if want else [])


def test_one_container_is_tested_inline_by_the_route():
    """A lone `in keys` filter costs the route no call: its function's source tests the
    container itself."""
    from filterindex.codegen import source_of
    t = _tick()
    index = FilterIndex()
    keys: dict = {}
    index.add(_keys_spec(t, keys, "k"), "h")
    route = index.router(t)
    assert route.fn(EventBean(t, {"symbol": "a"})) == ()
    keys["a"] = 1
    assert list(route.fn(EventBean(t, {"symbol": "a"}))) == ["h"]
    src = source_of(route.fn)
    assert src is not None and " in c" in src and "(bean)" not in src.split("out = None", 1)[1]
    del keys["a"]
    assert route.fn(EventBean(t, {"symbol": "a"})) == ()
