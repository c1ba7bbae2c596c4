"""Finds the keyed followed-by shape of a pattern at compile time and describes it as plan
data (epl/plans/keyed_followed.py; engine/patterns/keyed_followed.py runs it): `every
a=A(...) -> b=B(x = a.y, ...)`, optionally `and not C(z = a.y, ...)` beside B, optionally
`where timer:within(t)` on the B side; anything else keeps the general state machines. Reads the general plan's filter templates and guard
period by their field names, without importing the runtime's plan classes."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Optional

import epl.ast as A
from epl.ast.walk import walk
from epl.plans.keyed_followed import EXACT_KINDS, KeyedFollowedPlan

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def _strip(node: Any) -> Any:
    while isinstance(node, A.PatternParens):
        node = node.inner
    return node


def _only_known_fields(node: Any, known: set) -> bool:
    """False when the node carries a field this module does not know set to a non-default
    value (an attribute such as `@consume` added later): such patterns take the general path."""
    for f in dataclasses.fields(node):
        if f.name in known or f.name == "span":
            continue
        default = f.default if f.default is not dataclasses.MISSING else (
            f.default_factory() if f.default_factory is not dataclasses.MISSING else dataclasses.MISSING)
        if default is dataclasses.MISSING or getattr(node, f.name) != default:
            return False
    return True


def _conjuncts(e: Any, out: list) -> None:
    while isinstance(e, A.Parens):
        e = e.inner
    if isinstance(e, A.BinaryOp) and e.op is A.BinOp.AND:
        _conjuncts(e.left, out)
        _conjuncts(e.right, out)
    else:
        out.append(e)


def _plain_path(e: Any) -> Optional[tuple[str, ...]]:
    while isinstance(e, A.Parens):
        e = e.inner
    if not isinstance(e, A.Property):
        return None
    if any(s.index is not None or s.key is not None or s.dynamic for s in e.path):
        return None
    return tuple(s.name for s in e.path)


def _mentions(e: Any, names: set) -> bool:
    """Whether an expression may read a tag (a property path or a bare name starting with
    one); anything else naming it (a method on it) is caught by compiling without tags."""
    for n in walk(e):
        if isinstance(n, A.Property) and n.path and n.path[0].name in names:
            return True
    return False


_PLAIN_NODES = (A.Literal, A.BinaryOp, A.UnaryOp, A.Parens, A.Between, A.InRange, A.InList, A.Like,
                A.Regexp, A.IsNull)


def _reads_only_b(e: Any, b_type: Any, b_tag: Optional[str]) -> bool:
    """Whether a condition reads only B's own properties and literals. The state machines
    bind anything else (variables, functions) when each A arrives, the fast path's single
    registration could not: such conditions take the general path."""
    for n in walk(e):
        if isinstance(n, A.Property):
            path = _plain_path(n)
            if path is None:
                return False
            if len(path) == 2 and b_tag is not None and path[0] == b_tag:
                path = path[1:]
            if len(path) != 1 or path[0] not in b_type.properties:
                return False
        elif not isinstance(n, _PLAIN_NODES):
            return False
    return True


def detect(pattern: Any, plan: Any, engine: "Runtime", scope: Any, text: str) -> Optional[KeyedFollowedPlan]:
    """The fast plan for a pattern of the keyed followed-by shape, or None."""
    try:
        return _detect(pattern, plan, scope)
    except Exception:      # anything unusual in the shape: the general path handles it
        return None


def _detect(pattern: Any, plan: Any, scope: Any) -> Optional[KeyedFollowedPlan]:
    node = _strip(pattern)
    root = plan.root
    if not isinstance(node, A.PatternFollowedBy) or len(node.children) != 2:
        return None
    if any(x is not None for x in node.limits) or len(root.children) != 2:
        return None
    every = _strip(node.children[0])
    if not isinstance(every, A.PatternEvery) or not _only_known_fields(every, {"child"}):
        return None
    a_node = _strip(every.child)
    second = _strip(node.children[1])
    within = within_ms = None
    if isinstance(second, A.PatternGuard):
        # timer:within(t) has one parameter (timer:withinmax, with a count, is not this shape)
        if f"{second.namespace}:{second.name}".lower() != "timer:within" or len(second.args) != 1:
            return None
        if not _only_known_fields(second, {"namespace", "name", "args", "child"}):
            return None
        guard = root.children[1].guard
        if getattr(guard, "max_count", None) is not None:
            return None
        within = guard.delta_of
        if _constant(second.args[0]):
            within_ms = within({})
            if within_ms.__class__ is not int:
                within_ms = None        # the run evaluates it per A event
        b_node = _strip(second.child)
        b_parent = root.children[1].child
    else:
        b_node = second
        b_parent = root.children[1]
    c_node = c_type = None
    if isinstance(b_node, A.PatternAnd):
        # `b=B(...) and not C(...)` (either order): C ends the instances of its key
        if len(b_node.children) != 2 or not _only_known_fields(b_node, {"children"}):
            return None
        kinds = [isinstance(_strip(c), A.PatternNot) for c in b_node.children]
        if kinds.count(True) != 1:
            return None
        i_not = kinds.index(True)
        not_node = _strip(b_node.children[i_not])
        if not _only_known_fields(not_node, {"child"}):
            return None
        c_node = _strip(not_node.child)
        if not isinstance(c_node, A.PatternFilter) or c_node.tag is not None:
            return None
        c_type = b_parent.children[i_not].child.event_type
        b_plan = b_parent.children[1 - i_not]
        b_node = _strip(b_node.children[1 - i_not])
    else:
        b_plan = b_parent
    for f in (a_node, b_node) + ((c_node,) if c_node is not None else ()):
        if not isinstance(f, A.PatternFilter) or not _only_known_fields(f, {"event_filter", "tag"}) \
                or not _only_known_fields(f.event_filter, {"type_name", "filter"}):
            return None
    a_tag, b_tag = a_node.tag, b_node.tag
    if a_tag is None or a_tag == b_tag:
        return None
    a_plan = root.children[0].child
    a_type, b_type = a_plan.event_type, b_plan.event_type
    types = (a_type, b_type) + ((c_type,) if c_type is not None else ())
    for i, x in enumerate(types):
        if x.representation.name == "VARIANT":
            return None
        for y in types[i + 1:]:
            if x is y or x.is_subtype_of(y) or y.is_subtype_of(x):
                return None
    tags = {a_tag} | ({b_tag} if b_tag else set())
    if any(t in x.properties for t in tags for x in types):
        return None             # a property named like a tag: leave name resolution alone
    keyed = _keyed_filter(b_node, b_type, b_tag, a_tag, a_type, tags, scope)
    if keyed is None:
        return None
    a_props, b_props, b_template = keyed
    c_template, c_props = None, ()
    if c_node is not None:
        keyed = _keyed_filter(c_node, c_type, None, a_tag, a_type, tags, scope)
        if keyed is None or sorted(keyed[0]) != sorted(a_props) or len(set(a_props)) != len(a_props):
            return None         # C must be keyed on the same A properties as B
        by_a = dict(zip(keyed[0], keyed[1]))
        c_template, c_props = keyed[2], tuple(by_a[p] for p in a_props)
    return KeyedFollowedPlan(a_plan.template, a_type, a_tag, a_props, b_template, b_type,
                             b_tag, b_props, within, plan.match_type, within_ms,
                             c_template, c_type, c_props)


def _keyed_filter(node: Any, et: Any, tag: Optional[str], a_tag: str, a_type: Any, tags: set,
                  scope: Any) -> Optional[tuple]:
    """(A key properties, the filter's key properties, its constant part's template) for a
    filter whose condition is key equalities with the A tag and conditions reading neither
    tag; None otherwise."""
    from epl.compiler.filters import compile_filter
    from epl.compiler.scope import StreamInfo

    terms: list = []
    if node.event_filter.filter is not None:
        _conjuncts(node.event_filter.filter, terms)
    a_props: list[str] = []
    props: list[str] = []
    rest: list = []
    for t in terms:
        key = _key_term(t, a_tag, tag, a_type, et)
        if key is not None:
            a_props.append(key[0])
            props.append(key[1])
        elif _mentions(t, tags) or not _reads_only_b(t, et, tag):
            return None
        else:
            rest.append(t)
    if not a_props:
        return None
    cond = None
    for t in rest:
        cond = t if cond is None else A.BinaryOp(A.BinOp.AND, cond, t)
    own = StreamInfo(0, et, tag, node.event_filter.type_name)
    template = compile_filter(cond, own, scope)     # fails on anything reading a tag
    return tuple(a_props), tuple(props), template


_CONSTANT_NODES = (A.Literal, A.TimePeriod, A.BinaryOp, A.UnaryOp, A.Parens)


def _constant(e: Any) -> bool:
    """Whether a `within` period is a constant (literals and arithmetic only)."""
    return all(isinstance(n, _CONSTANT_NODES) for n in walk(e))


def _key_term(t: Any, a_tag: str, b_tag: Optional[str], a_type: Any, b_type: Any) -> Optional[tuple[str, str]]:
    """(A property, B property) for `B.x = a.y` (either side first), else None."""
    if not isinstance(t, A.BinaryOp) or t.op is not A.BinOp.EQ:
        return None
    left, right = _plain_path(t.left), _plain_path(t.right)
    if left is None or right is None:
        return None
    for mine, theirs in ((left, right), (right, left)):
        if len(theirs) != 2 or theirs[0] != a_tag:
            continue
        if len(mine) == 2 and b_tag is not None and mine[0] == b_tag:
            mine = mine[1:]
        if len(mine) != 1:
            continue
        a_prop, b_prop = theirs[1], mine[0]
        pa, pb = a_type.properties.get(a_prop), b_type.properties.get(b_prop)
        if pa is None or pb is None or pa.kind is not pb.kind or pa.kind not in EXACT_KINDS:
            return None
        return a_prop, b_prop
    return None
