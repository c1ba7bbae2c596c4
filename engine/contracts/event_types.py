"""Event types: map types (schemas, dicts) and class types (dataclasses, plain classes),
with supertypes, property getters compiled once per path, and value checks.

Errors (docs/errors.md): a map event, or a dataclass/annotated-class event, whose value does
not fit its property's declared type is refused by `send` with an EventTypeError naming the
property before any statement sees it (checked only when some filter wants the event). A
user class's property getter that raises reads as null for that expression; the type's
registry reports it (the engine turns it into its `evaluation_error` signal and a log line)."""
from __future__ import annotations

import dataclasses
import enum
import re
import types
import typing
from operator import attrgetter
from typing import Any, Callable, Iterable, Mapping, Optional

import engine.contracts.epl_types as T
from engine.contracts.epl_types import PropertyType
import engine.contracts.sandbox as sandbox
from engine.contracts.errors import EventTypeError

Getter = Callable[[Any], Any]


class Representation(enum.Enum):
    MAP = "map"
    CLASS = "class"
    VARIANT = "variant"     # a variant stream: the underlying is the member event's EventBean


# a segment is a name, or any text in backquotes (`user-id`, `first name`: names that are not
# identifiers, as declared with backquotes in EPL)
_SEGMENT = re.compile(r"""\s*(?:([A-Za-z_$][\w$]*)|`((?:[^`\\]|\\.)*)`)\s*(?:\[\s*(\d+)\s*\]|\(\s*['"]([^'"]*)['"]\s*\))?\s*""")
_UNESCAPE = re.compile(r"\\(.)")


def parse_path(path: str) -> list[tuple[str, Optional[int], Optional[str]]]:
    """`a.b[0].m('k')` -> [('a', None, None), ('b', 0, None), ('m', None, 'k')]."""
    out = []
    for part in _split_dots(path):
        m = _SEGMENT.fullmatch(part)
        if not m:
            raise EventTypeError(f"Invalid property path '{path}'")
        name = m.group(1) if m.group(1) is not None else _UNESCAPE.sub(r"\1", m.group(2))
        out.append((name, int(m.group(3)) if m.group(3) is not None else None, m.group(4)))
    return out


def _split_dots(path: str) -> list[str]:
    parts, depth, cur = [], 0, []
    ticked = escaped = False
    for ch in path:
        if ticked:
            cur.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == "`":
                ticked = False
            continue
        if ch == "`":
            ticked = True
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "." and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


# One dynamic step into a nested value (dict key, EventBean property or public attribute),
# `v[i]` and `v('k')`: the sandbox's rules (engine/sandbox.py) apply to each.
_step = sandbox.step
_index = sandbox.index
_key = sandbox.key


# Kinds whose values have no properties to navigate into (`s.__class__` is not valid).
_LEAF_KINDS = frozenset({
    T.EPLType.STRING, T.EPLType.BOOLEAN, T.EPLType.BYTE, T.EPLType.SHORT, T.EPLType.INT,
    T.EPLType.LONG, T.EPLType.BIGINT, T.EPLType.FLOAT, T.EPLType.DOUBLE, T.EPLType.DECIMAL,
})


class EventType:
    """A named event type. `getter(path)` compiles a property path once; statements keep the
    getter and call it per event on the underlying object."""

    def __init__(
        self,
        name: str,
        representation: Representation,
        properties: Mapping[str, PropertyType],
        supertypes: Iterable["EventType"] = (),
        pyclass: Optional[type] = None,
        start_timestamp: Optional[str] = None,
        end_timestamp: Optional[str] = None,
        dynamic: bool = False,
    ) -> None:
        self.name = name
        self.representation = representation
        self.is_map = representation is Representation.MAP     # read per event on send
        self.supertypes: tuple[EventType, ...] = tuple(supertypes)
        props: dict[str, PropertyType] = {}
        for sup in self.supertypes:
            props.update(sup.properties)
        props.update(properties)
        self.properties: dict[str, PropertyType] = props
        self.property_names: tuple[str, ...] = tuple(props)
        self.pyclass = pyclass
        self.start_timestamp = start_timestamp or next(
            (s.start_timestamp for s in self.supertypes if s.start_timestamp), None)
        self.end_timestamp = end_timestamp or next(
            (s.end_timestamp for s in self.supertypes if s.end_timestamp), None)
        self.dynamic = dynamic          # properties not declared may still be read
        # how the events of a map type arrive: 'map' (dicts), 'objectarray' (lists in
        # property order) or 'json' (dicts or JSON text); `convert` turns the other forms
        # into the dict the type reads (None: dicts only)
        self.wire = "map" if representation is Representation.MAP else representation.value
        self.convert: Optional[Callable[[Any], Any]] = None
        # a variant stream's member types (None: any type)
        self.variant_members: Optional[tuple[EventType, ...]] = None
        self._getters: dict[str, Getter] = {}
        self._checks: Optional[Callable[[Any], None]] = None
        # set by the registry that holds this type: called as (type, path, exception)
        self.on_getter_error: Optional[Callable[[EventType, str, Exception], None]] = None
        # send checks values of map types, and of class types whose fields declare types
        self.checked = self.is_map or bool(_value_checks(
            _checkable_class_fields(pyclass, props) if pyclass is not None else {},
            {start_timestamp, end_timestamp} - {None}))
        for ts in (self.start_timestamp, self.end_timestamp):
            if ts is not None and ts not in props:
                raise EventTypeError(
                    f"Timestamp property '{ts}' is not a property of event type '{name}'")

    # -- type relations -------------------------------------------------------------
    def ancestors(self) -> list["EventType"]:
        """This type and all its supertypes, nearest first, each once."""
        seen: list[EventType] = []
        stack = [self]
        while stack:
            t = stack.pop(0)
            if t not in seen:
                seen.append(t)
                stack.extend(t.supertypes)
        return seen

    def is_subtype_of(self, other: "EventType") -> bool:
        return other in self.ancestors()

    # -- properties -----------------------------------------------------------------
    def has_property(self, path: str) -> bool:
        return self.property_type(path) is not None

    def property_type(self, path: str) -> Optional[PropertyType]:
        """The declared type of a property path, or None when the type has no such property."""
        declared = self.properties.get(path)
        if declared is not None:      # a declared name, whatever its characters (`user-id`)
            return declared
        try:
            segs = parse_path(path)
        except EventTypeError:
            return None
        name, index, key = segs[0]
        pt = self.properties.get(name)
        if pt is None:
            if self.dynamic and (self.representation is Representation.MAP or
                                 sandbox.allowed_name(name)):
                return T.OBJECT
            return None
        pt = _apply_index_key(pt, index, key)
        for name, index, key in segs[1:]:
            if pt is None:
                return None
            if pt.kind is T.EPLType.EVENT and pt.event_type is not None:
                pt = pt.event_type.property_type(name)
            elif pt.kind in _LEAF_KINDS:
                return None     # strings, numbers and booleans have no properties
            elif not sandbox.allowed_name(name) and pt.kind is not T.EPLType.MAP:
                return None     # the sandbox: never a private or dunder attribute
            elif pt.pyclass is not None and dataclasses.is_dataclass(pt.pyclass):
                pt = _class_properties(pt.pyclass).get(name)
            else:
                pt = T.OBJECT
            if pt is not None:
                pt = _apply_index_key(pt, index, key)
        return pt

    def getter(self, path: str) -> Getter:
        g = self._getters.get(path)
        if g is None:
            g = self._compile_getter(path)
            self._getters[path] = g
        return g

    def _compile_getter(self, path: str) -> Getter:
        if self.representation is Representation.VARIANT:
            # the member event resolves the path with its own type's getters
            return lambda u, _p=path: u.get(_p)
        # a declared name is one segment whatever its characters (`user-id`, `a.b`)
        segs = [(path, None, None)] if path in self.properties else parse_path(path)
        if self.representation is Representation.MAP:
            name, index, key = segs[0]
            first: Getter = lambda u, _n=name: u.get(_n)  # noqa: E731
        elif not sandbox.allowed_name(segs[0][0]):
            name, index, key = segs[0]

            def first(u: Any, _n=name) -> Any:
                sandbox.refuse(u, _n, "private name")
                return None
        elif self.dynamic or segs[0][0] not in self.properties:
            # an undeclared attribute of a plain object: the sandbox's dynamic step
            name, index, key = segs[0]
            def first(u: Any, _n=name) -> Any:
                try:
                    return sandbox.step(u, _n)
                except sandbox.UserCodeError as exc:
                    # the event's own attribute: what the user code raised fails the statement
                    # for this event (faults.py), unlike a declared property's getter
                    raise exc.error from None
        else:
            name, index, key = segs[0]
            ag = attrgetter(name)

            def first(u: Any, _ag=ag, _n=name, _et=self, _path=path) -> Any:
                try:
                    return _ag(u)
                except AttributeError:
                    return None
                except Exception as exc:
                    # deliberate fault isolation, as for user functions (engine/faults.py): a
                    # user property getter raised: null, reported; only user code runs here
                    _et.getter_failed(_path, exc)
                    return None
        steps: list[Callable[[Any], Any]] = []
        if index is not None:
            steps.append(lambda v, _i=index: _index(v, _i))
        if key is not None:
            steps.append(lambda v, _k=key: _key(v, _k))
        for name, index, key in segs[1:]:
            steps.append(lambda v, _n=name: _step(v, _n))
            if index is not None:
                steps.append(lambda v, _i=index: _index(v, _i))
            if key is not None:
                steps.append(lambda v, _k=key: _key(v, _k))
        if not steps:
            return first

        def chained(u: Any, _first=first, _steps=tuple(steps), _et=self, _path=path) -> Any:
            v = _first(u)
            try:
                for s in _steps:
                    v = s(v)
            except sandbox.UserCodeError as exc:   # user code of a nested object raised
                _et.getter_failed(_path, exc.error)
                return None
            return v
        return chained

    def getter_failed(self, path: str, exc: Exception) -> None:
        """A user getter raised while reading `path`: the registry's reporter hears of it."""
        report = self.on_getter_error
        if report is not None:
            report(self, path, exc)

    def checker(self) -> Callable[[Any], None]:
        """The generated check function of this type (see check)."""
        if self._checks is None:
            self._checks = _compile_checker(self)
        return self._checks

    def check(self, underlying: Any) -> None:
        """Raise EventTypeError naming the property and types when an event's value does
        not fit its declared type (a missing property is null, as in Esper): map events, and
        dataclass or annotated-class events (their declared fields, never property getters)."""
        checker = self._checks
        if checker is None:
            checker = self._checks = _compile_checker(self)
        checker(underlying)

    def to_dict(self, underlying: Any) -> dict[str, Any]:
        if self.representation is Representation.VARIANT:
            return underlying.to_dict()
        if self.representation is Representation.MAP:
            if self.dynamic:
                return dict(underlying)
            return {p: underlying.get(p) for p in self.property_names}
        return {p: getattr(underlying, p, None) for p in self.property_names}

    def __repr__(self) -> str:
        return f"EventType({self.name})"

    # EventTypes are identities: engines compare them with `is`.
    __hash__ = object.__hash__

    def __reduce__(self):  # pickled engine state refers to types by name (see engine state)
        return (_lookup_type_by_name, (self.name,))


# Pickled engine state resolves types through the registry that is unpickling them.
_UNPICKLE_REGISTRY: list["EventTypeRegistry"] = []


def _lookup_type_by_name(name: str) -> "EventType":
    if not _UNPICKLE_REGISTRY:
        raise EventTypeError(f"Cannot unpickle event type '{name}' outside an engine restore")
    return _UNPICKLE_REGISTRY[-1].get(name)


_ALLOWED = {
    T.EPLType.STRING: ((str,), "a string"),
    T.EPLType.BOOLEAN: ((bool,), "a boolean"),
    T.EPLType.BYTE: ((int,), "an integer"), T.EPLType.SHORT: ((int,), "an integer"),
    T.EPLType.INT: ((int,), "an integer"), T.EPLType.LONG: ((int,), "an integer"),
    T.EPLType.BIGINT: ((int,), "an integer"),
    T.EPLType.FLOAT: ((int, float), "a number"), T.EPLType.DOUBLE: ((int, float), "a number"),
    T.EPLType.MAP: ((Mapping,), "a map"),
    T.EPLType.ARRAY: ((list, tuple), "an array"),
}


def _value_checks(properties: Mapping[str, PropertyType], timestamps: set) -> tuple:
    """(name, allowed Python types, description) for every property whose type can be checked;
    timestamp properties also take timezone-aware datetimes (application time converts them)."""
    from datetime import datetime
    from decimal import Decimal
    out = []
    for name, pt in properties.items():
        if name in timestamps:
            out.append((name, (int, float, datetime), "a timestamp (ms or datetime)"))
        elif pt.kind is T.EPLType.DECIMAL:
            out.append((name, (int, float, Decimal), "a decimal"))
        elif pt.kind in _ALLOWED:
            allowed, label = _ALLOWED[pt.kind]
            out.append((name, allowed, label))
        elif pt.kind is T.EPLType.OBJECT and isinstance(pt.pyclass, type) and pt.pyclass is not object:
            out.append((name, (pt.pyclass,), f"an instance of {pt.pyclass.__name__}"))
    return tuple(out)


def _runs_code(attr: Any) -> bool:
    """Whether reading a class attribute on an instance calls code (a descriptor other than
    a __slots__ member)."""
    return hasattr(type(attr), "__get__") and not isinstance(attr, types.MemberDescriptorType)


def _checkable_class_fields(cls: Optional[type], props: Mapping[str, PropertyType]) -> dict:
    """The properties of a class type that are plain data (dataclass fields, annotated
    attributes): their values are checked on send. Python properties are left out, since
    reading one runs user code."""
    if cls is None:
        return {}
    if dataclasses.is_dataclass(cls):
        names = {f.name for f in dataclasses.fields(cls)}
    else:
        # an attribute the class defines as a descriptor (property, cached_property, ...)
        # would run user code when read
        names = {n for n in props
                 if not any(_runs_code(vars(k)[n]) for k in cls.__mro__ if n in vars(k))}
    return {n: pt for n, pt in props.items() if n in names}


def _compile_checker(event_type: "EventType") -> Callable[[Any], None]:
    """Generated once per type: one `type(v) is X` test per property on the common path,
    isinstance only for subclasses and mistakes. Property names enter the code only as
    repr() literals; types are passed in the namespace, never spelled from user text."""
    timestamps = {event_type.start_timestamp, event_type.end_timestamp} - {None}
    ns: dict[str, Any] = {}
    if event_type.is_map:
        checks = _value_checks(event_type.properties, timestamps)
        lines = ["def check(u):", "    get = u.get"]
    else:
        checks = _value_checks(_checkable_class_fields(event_type.pyclass, event_type.properties),
                               timestamps)
        lines = ["def check(u):"]
        if checks:
            lines.append("    get = lambda n: _getattr(u, n, None)")
        ns["_getattr"] = getattr
    for i, (name, allowed, label) in enumerate(checks):
        fast = " and ".join(f"t is not _t{i}_{j}" for j in range(len(allowed)))
        for j, t in enumerate(allowed):
            ns[f"_t{i}_{j}"] = t
        ns[f"_a{i}"] = allowed
        exact_bool = bool in allowed
        slow = f"not isinstance(v, _a{i})" + ("" if exact_bool else " or t is _bool")
        lines.append(f"    v = get({name!r})")
        lines.append("    if v is not None:")
        lines.append("        t = type(v)")
        lines.append(f"        if {fast} and ({slow}):")
        lines.append(f"            _fail({name!r}, {label!r}, v)")
    lines.append("    return None")
    body = lines[2:-1]
    fast = _fast_test(checks, ns) if event_type.is_map else None
    if fast is not None:
        # the common case first: a dict whose every checked value is present with exactly
        # one of its allowed Python types passes without the per-property tests (a value
        # missing, null, of a subclass or wrong: they decide)
        ns["_dict"] = dict
        lines[1:1] = ["    if type(u) is _dict:", "        try:", f"            if {fast}:",
                      "                return None", "        except KeyError:", "            pass"]

    def fail(name: str, label: str, v: Any) -> None:
        raise EventTypeError(f"Event of type '{event_type.name}': property '{name}' expects "
                             f"{label}, got {type(v).__name__} {v!r}")
    ns["_fail"] = fail
    ns["_bool"] = bool
    exec(compile("\n".join(lines), f"<check {event_type.name}>", "exec"), ns)
    check = ns["check"]
    if event_type.is_map:
        # for engine/lean_send.py, which inlines it: plain strings on the function itself
        # (they travel with it in a checkpoint; a table keyed by the function would keep
        # it, its namespace, the type and through it the engine alive)
        check._check_lines = tuple(body)       # type: ignore[attr-defined]
        check._check_fast = fast                # type: ignore[attr-defined]
    return check


def _fast_test(checks: tuple, ns: dict[str, Any]) -> Optional[str]:
    """The checker's common case as one condition on a dict `u` (None when there is none):
    each checked property present with a value whose type is exactly one of its allowed
    types, which the per-property tests would pass without looking further. Only when every
    allowed type is a plain class (an abstract one such as Mapping is never a value's exact
    type: the condition would never hold); several types as a frozenset (`_f{i}`)."""
    if not checks or any(type(t) is not type for _, allowed, _ in checks for t in allowed):
        return None
    tests = []
    for i, (name, allowed, _) in enumerate(checks):
        if len(allowed) == 1:
            tests.append(f"type(u[{name!r}]) is _t{i}_0")
        else:
            ns[f"_f{i}"] = frozenset(allowed)
            tests.append(f"type(u[{name!r}]) in _f{i}")
    return " and ".join(tests)


def checker_source(check: Callable[[Any], None]) -> Optional[tuple[list[str], dict[str, Any], Optional[str]]]:
    """The per-property tests of a map type's checker (`EventType.checker()`: after its
    test of the common case and its `get = u.get`, before its `return`), one indent level,
    its namespace and that test's condition on the dict `u` (None: no such test); None for
    any other function."""
    lines = getattr(check, "_check_lines", None)
    if lines is None:
        return None
    return list(lines), check.__globals__, getattr(check, "_check_fast", None)


def _apply_index_key(pt: PropertyType, index: Optional[int], key: Optional[str]) -> Optional[PropertyType]:
    if index is not None:
        return pt.element if pt.kind is T.EPLType.ARRAY and pt.element else T.OBJECT
    if key is not None:
        # the mapped syntax `m('k')` indexes maps (or untyped values, checked per event)
        return T.OBJECT if pt.kind in (T.EPLType.MAP, T.EPLType.OBJECT) else None
    return pt


# what resolving a user class's annotations raises when they name what is not importable
# (a forward reference to an unknown name, a string that is not an expression, a typing
# construct this Python does not know): the properties are typed from the raw annotations
_UNRESOLVED_HINTS = (NameError, AttributeError, TypeError, SyntaxError)


def _class_properties(cls: type) -> dict[str, PropertyType]:
    """Declared properties of a Python class: dataclass fields, annotations, properties, slots."""
    props: dict[str, PropertyType] = {}
    if dataclasses.is_dataclass(cls):
        try:
            hints = typing.get_type_hints(cls)
        except _UNRESOLVED_HINTS:
            hints = {}
        for f in dataclasses.fields(cls):
            if sandbox.allowed_name(f.name):     # private fields are not EPL properties
                props[f.name] = T.type_of_python(hints.get(f.name, f.type))
        return props
    for klass in reversed(cls.__mro__):
        if klass is object:
            continue
        try:
            hints = typing.get_type_hints(klass)
        except _UNRESOLVED_HINTS:
            hints = getattr(klass, "__annotations__", {})
        for n, h in hints.items():
            if not n.startswith("_") and typing.get_origin(h) is not typing.ClassVar:
                props[n] = T.type_of_python(h)
        for n, v in vars(klass).items():
            if isinstance(v, property) and not n.startswith("_"):
                ret = typing.get_type_hints(v.fget).get("return") if v.fget else None
                props[n] = T.type_of_python(ret) if ret is not None else T.OBJECT
        for n in getattr(klass, "__slots__", ()):
            if not n.startswith("_"):
                props.setdefault(n, T.OBJECT)
    return props


class EventTypeRegistry:
    """All event types of one engine, by name and by Python class."""

    def __init__(self) -> None:
        self._by_name: dict[str, EventType] = {}
        self._by_class: dict[type, EventType] = {}
        self._listeners: list[Callable[[EventType], None]] = []
        self._removed: list[Callable[[EventType], None]] = []
        # the engine's reporter for user getters that raise: (type, path, exception)
        self.on_getter_error: Optional[Callable[[EventType, str, Exception], None]] = None

    def _getter_failed(self, event_type: EventType, path: str, exc: Exception) -> None:
        if self.on_getter_error is not None:
            self.on_getter_error(event_type, path, exc)

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def get(self, name: str) -> EventType:
        t = self._by_name.get(name)
        if t is None:
            raise EventTypeError(f"Event type named '{name}' has not been defined")
        return t

    def find(self, name: str) -> Optional[EventType]:
        return self._by_name.get(name)

    def finder(self) -> Callable[[str], Optional[EventType]]:
        """`find` without its call frame, for per-event loops (stays current: the registry
        keeps one dict for its lifetime)."""
        return self._by_name.get

    def all(self) -> list[EventType]:
        return list(self._by_name.values())

    def on_added(self, callback: Callable[[EventType], None]) -> None:
        self._listeners.append(callback)

    def add(self, event_type: EventType) -> EventType:
        existing = self._by_name.get(event_type.name)
        if existing is not None:
            if existing.properties == event_type.properties and existing.supertypes == event_type.supertypes:
                return existing
            raise EventTypeError(f"Event type named '{event_type.name}' has already been declared with different properties")
        self._by_name[event_type.name] = event_type
        event_type.on_getter_error = self._getter_failed
        if event_type.pyclass is not None:
            self._by_class[event_type.pyclass] = event_type
        for cb in self._listeners:
            cb(event_type)
        return event_type

    def on_removed(self, callback: Callable[[EventType], None]) -> None:
        """`callback(event_type)` after a type leaves the registry (caches by name forget it)."""
        self._removed.append(callback)

    def remove(self, name: str) -> None:
        t = self._by_name.pop(name, None)
        if t is not None and t.pyclass is not None:
            self._by_class.pop(t.pyclass, None)
        if t is not None:
            for cb in self._removed:
                cb(t)

    def register_map(
        self,
        name: str,
        properties: Mapping[str, Any],
        inherits: Iterable[str] = (),
        start_timestamp: Optional[str] = None,
        end_timestamp: Optional[str] = None,
    ) -> EventType:
        """A map type from `{name: type}` where type is an EPL name, a Python class, a
        PropertyType, or the name of another event type (nested)."""
        props = {k: self.resolve_type(v) for k, v in properties.items()}
        supers = [self.get(s) for s in inherits]
        return self.add(EventType(name, Representation.MAP, props, supers,
                                  start_timestamp=start_timestamp, end_timestamp=end_timestamp))

    def register_class(
        self,
        cls: type,
        name: Optional[str] = None,
        start_timestamp: Optional[str] = None,
        end_timestamp: Optional[str] = None,
    ) -> EventType:
        """A class type; its registered base classes become its supertypes."""
        if cls in self._by_class and name in (None, self._by_class[cls].name):
            return self._by_class[cls]
        supers = [self._by_class[b] for b in cls.__mro__[1:] if b in self._by_class]
        # keep only the nearest registered ancestors
        supers = [s for s in supers if not any(o is not s and o.is_subtype_of(s) for o in supers)]
        props = _class_properties(cls)
        return self.add(EventType(name or cls.__name__, Representation.CLASS, props, supers,
                                  pyclass=cls, start_timestamp=start_timestamp,
                                  end_timestamp=end_timestamp, dynamic=not props))

    def for_object(self, obj: Any) -> EventType:
        """The type of a Python object: its class, or a registered base class (the subclass
        is then registered as a subtype)."""
        cls = type(obj)
        t = self._by_class.get(cls)
        if t is not None:
            return t
        for base in cls.__mro__[1:]:
            if base in self._by_class:
                return self.register_class(cls)
        raise EventTypeError(
            f"Event class '{cls.__name__}' is not registered; register it with "
            f"engine.register_type({cls.__name__}) or send a dict with a type name")

    def resolve_type(self, spec: Any) -> PropertyType:
        if isinstance(spec, PropertyType):
            return spec
        if isinstance(spec, EventType):
            return PropertyType(T.EPLType.EVENT, event_type=spec)
        if isinstance(spec, str):
            array = spec.endswith("[]")
            base = spec[:-2].strip() if array else spec
            pt = T.type_from_name(base)
            if pt is None:
                et = self._by_name.get(base)
                if et is None:
                    raise EventTypeError(f"Unknown property type '{base}'")
                pt = PropertyType(T.EPLType.EVENT, event_type=et)
            return T.array_of(pt) if array else pt
        if isinstance(spec, type) and spec in self._by_class:
            return PropertyType(T.EPLType.EVENT, event_type=self._by_class[spec])
        return T.type_of_python(spec)
