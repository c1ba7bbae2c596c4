"""XML DOM event types (Esper's XML events, without an XSD): events are
`xml.etree.ElementTree.Element`s (or XML text, parsed once per distinct text) whose root
element has the type's root element name.

Properties (without a schema every property exists, as in Esper):
- `name`: the attribute `name` of the root element, else the text of its first child
  element `name` (a string; a declared property is converted to its declared type);
- `a.b.c`: nested child elements (the last step may be an attribute); `a[2]`: the third
  child element named `a` (0-based, as Esper's indexed properties); `a('k')`: the child
  element `a` whose `id` attribute is k;
- XPath properties declared with the type (`@XMLSchemaField(name, xpath, type)`): evaluated
  with ElementTree's XPath subset (child and descendant steps `a/b`, `//b`, `*`, `.`, `..`,
  predicates `[@attr]`, `[@attr='v']`, `[tag]`, `[tag='text']`, `[n]`, `[last()]`),
  optionally ending in `/@attr` or `/text()`; an absolute path starts at the root element
  (`/Sensor/temp`). Result types: `string`, `number` (float), `boolean` (the node set is not
  empty / the string is not empty), `node` (an Element), `nodeset` (a list of Elements), with
  an optional `castToType`. XPath functions (`count()`, `sum()`, ...) are not supported.
Namespaces: prefixes declared with the type (`@XMLSchemaNamespacePrefix`) are usable in
XPath; element names in simple properties match the local name whatever the namespace."""
from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional

from engine.contracts.frozen import frozen_dataclass
import engine.contracts.epl_types as T
from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.errors import EventTypeError
from engine.contracts.event_types import EventType, Representation, parse_path

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


class _XMLInputMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, (ET.Element, str, bytes))


class XMLInput(metaclass=_XMLInputMeta):
    """What an XML type's events may be: an Element, or XML text (str or bytes)."""


@frozen_dataclass
class XPathProperty:
    """An XPath property of an XML type: `type` is string, number, boolean, node or
    nodeset; `cast` an EPL type name the result is converted to (None: the XPath type's)."""

    name: str
    xpath: str
    type: str = "string"
    cast: Optional[str] = None


_XPATH_TYPES = {"string": T.STRING, "number": T.DOUBLE, "boolean": T.BOOLEAN,
                "node": PropertyType(EPLType.OBJECT, pyclass=ET.Element),
                "nodeset": PropertyType(EPLType.ARRAY, element=PropertyType(EPLType.OBJECT, pyclass=ET.Element))}


@functools.lru_cache(maxsize=512)
def _parse_text(text: Any) -> ET.Element:
    return ET.fromstring(text)


def _element(u: Any) -> ET.Element:
    return u if isinstance(u, ET.Element) else _parse_text(u)


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _text(el: ET.Element) -> str:
    return "".join(el.itertext())


def _convert(value: Any, t: PropertyType) -> Any:
    """A string (or XPath result) as the declared type; None when it does not convert."""
    if value is None:
        return None
    kind = t.kind
    try:
        if kind in (EPLType.INT, EPLType.LONG, EPLType.SHORT, EPLType.BYTE, EPLType.BIGINT):
            return int(float(value)) if isinstance(value, float) else int(str(value).strip())
        if kind in (EPLType.DOUBLE, EPLType.FLOAT):
            return float(value)
        if kind is EPLType.BOOLEAN:
            if isinstance(value, bool):
                return value
            s = str(value).strip().lower()
            return True if s == "true" else False if s == "false" else None
        if kind is EPLType.STRING:
            return value if isinstance(value, str) else _text(value) if isinstance(value, ET.Element) else str(value)
    except (TypeError, ValueError):
        return None
    return value


def _dom_getter(path: str) -> Callable[[Any], Any]:
    """A simple, nested, indexed or mapped property walked over the DOM as Esper walks it: a
    simple step is an attribute of that name (checked first) or else the first child element;
    `a[i]` the i-th child element `a` (0-based); `a('k')` the child `a` whose id attribute is
    k. The value is the text of what the last step reached."""
    steps = tuple(parse_path(path))

    def get(u: Any, _steps: tuple = steps) -> Any:
        el: ET.Element = _element(u)
        last = len(_steps) - 1
        for i, (name, index, key) in enumerate(_steps):
            if index is None and key is None:
                attr = _attribute(el, name)
                if attr is not None:
                    return attr if i == last else None      # an attribute has no children
            kids = [c for c in el if _local(c.tag) == name]
            if key is not None:
                kids = [c for c in kids if c.get("id") == key]
            pos = index or 0
            if pos >= len(kids):
                return None
            el = kids[pos]
        return _text(el)
    return get


def _attribute(el: ET.Element, name: str) -> Optional[str]:
    v = el.get(name)
    if v is not None:
        return v
    for k, v in el.attrib.items():          # a namespaced attribute by its local name
        if _local(k) == name:
            return v
    return None


_ABS = re.compile(r"^/+")


def compile_xpath(prop: XPathProperty, root: str, namespaces: Mapping[str, str]) -> Callable[[Any], Any]:
    """The getter of an XPath property; EventTypeError for what ElementTree cannot evaluate."""
    path = prop.xpath.strip()
    if re.search(r"[a-zA-Z-]+\(", path.replace("last()", "").replace("text()", "")):
        raise EventTypeError(f"XPath expression '{prop.xpath}' of property '{prop.name}': functions "
                             f"are not supported (ElementTree's XPath subset)")
    attr = None
    text_node = False
    m = re.search(r"/@([\w:.-]+)$", path) or re.match(r"^@([\w:.-]+)$", path)
    if m:
        attr, path = m.group(1), path[:m.start()]
    elif path.endswith("/text()"):
        text_node, path = True, path[:-len("/text()")]
    if path.startswith("//"):
        rel = "." + path
        root_step = None
    elif path.startswith("/"):
        parts = _ABS.sub("", path).split("/", 1)
        root_step = parts[0]
        rel = "./" + parts[1] if len(parts) > 1 and parts[1] else "."
    else:
        root_step, rel = None, (path or ".")
    if root_step is not None and root_step != "*" and _local(root_step.split(":")[-1]) != root:
        raise EventTypeError(f"XPath expression '{prop.xpath}' of property '{prop.name}' does not "
                             f"start at the root element '{root}'")
    ns = dict(namespaces)
    if attr is not None and ":" in attr:
        prefix, local = attr.split(":", 1)
        attr = f"{{{ns.get(prefix, '')}}}{local}" if prefix in ns else local
    try:
        ET.Element("x").findall(rel, ns)
    except (SyntaxError, KeyError) as e:
        raise EventTypeError(f"XPath expression '{prop.xpath}' of property '{prop.name}' cannot be "
                             f"evaluated: {e}") from None
    kind = prop.type.lower()
    if kind not in _XPATH_TYPES:
        raise EventTypeError(f"XPath property '{prop.name}': unknown type '{prop.type}', expecting "
                             f"string, number, boolean, node or nodeset")
    cast = T.type_from_name(prop.cast) if prop.cast else None
    if prop.cast and cast is None:
        raise EventTypeError(f"XPath property '{prop.name}': unknown castToType '{prop.cast}'")

    def nodes(u: Any) -> list:
        return _element(u).findall(rel, ns)

    def value(u: Any) -> Any:
        found = nodes(u)
        if kind == "nodeset":
            return found
        if kind == "node":
            return found[0] if found else None
        if attr is not None:
            s = next((n.get(attr) for n in found if n.get(attr) is not None), None)
        elif text_node:
            s = found[0].text if found else None
        else:
            s = _text(found[0]) if found else None
        if kind == "boolean":
            return bool(s) if attr is not None or text_node else bool(found)
        if kind == "number":
            try:
                return float(s) if s is not None else None
            except ValueError:
                return float("nan")
        return s

    if cast is None:
        return value
    return lambda u: _convert(value(u), cast)


class XMLEventType(EventType):
    """An XML DOM event type: root element name, declared (typed) properties, XPath
    properties; any other property path is read from the DOM as a string."""

    def __init__(self, name: str, root_element_name: str,
                 properties: Optional[Mapping[str, PropertyType]] = None,
                 xpath_properties: tuple[XPathProperty, ...] = (),
                 namespaces: Optional[Mapping[str, str]] = None) -> None:
        props = dict(properties or {})
        namespaces = namespaces or {}
        xp_getters: dict[str, Callable[[Any], Any]] = {}
        for xp in xpath_properties:
            getter = compile_xpath(xp, root_element_name, namespaces)
            xp_getters[xp.name] = getter
            cast = T.type_from_name(xp.cast) if xp.cast else None
            props[xp.name] = cast or _XPATH_TYPES[xp.type.lower()]
        super().__init__(name, Representation.CLASS, props, pyclass=XMLInput, dynamic=True)
        self.root_element_name = root_element_name
        self.namespaces = dict(namespaces)
        self.xpath_properties = tuple(xpath_properties)
        self._xpath_getters = xp_getters
        self.checked = True             # the root element is checked on send

    def property_type(self, path: str) -> Optional[PropertyType]:
        declared = self.properties.get(path)
        if declared is not None:
            return declared
        try:
            parse_path(path)
        except EventTypeError:
            return None
        return T.STRING                 # any DOM path: its text

    def _compile_getter(self, path: str) -> Callable[[Any], Any]:
        xp = self._xpath_getters.get(path)
        if xp is not None:
            return xp
        dom = _dom_getter(path)
        declared = self.properties.get(path)
        if declared is None or declared.kind is EPLType.STRING:
            return dom
        return lambda u, _g=dom, _t=declared: _convert(_g(u), _t)

    def check(self, underlying: Any) -> None:
        try:
            el = _element(underlying)
        except ET.ParseError as e:
            raise EventTypeError(f"Event of XML type '{self.name}' is not well-formed XML: {e}") from None
        if _local(el.tag) != self.root_element_name:
            raise EventTypeError(f"Unexpected root element name '{_local(el.tag)}' encountered, "
                                 f"expected a root element name of '{self.root_element_name}'")

    def checker(self) -> Callable[[Any], None]:
        return self.check

    def to_dict(self, underlying: Any) -> dict[str, Any]:
        return {p: self.getter(p)(underlying) for p in self.property_names}


def register_xml_type(engine: "Runtime", name: str, root_element_name: Optional[str] = None, *,
                      properties: Optional[Mapping[str, Any]] = None,
                      xpath_properties: Optional[Mapping[str, Any]] = None,
                      namespaces: Optional[Mapping[str, str]] = None) -> XMLEventType:
    """Register an XML DOM event type: `properties` {name: EPL type} read from child elements
    or attributes, `xpath_properties` {name: xpath | (xpath, type) | (xpath, type, castToType)}.
    Events are then sent as `engine.send(element_or_text, name)`."""
    xps = []
    for pname, spec in (xpath_properties or {}).items():
        if isinstance(spec, str):
            xps.append(XPathProperty(pname, spec))
        else:
            xps.append(XPathProperty(pname, *spec))
    props = {k: engine.types.resolve_type(v) for k, v in (properties or {}).items()}
    et = XMLEventType(name, root_element_name or name, props, tuple(xps), namespaces)
    return engine.types.add(et)
