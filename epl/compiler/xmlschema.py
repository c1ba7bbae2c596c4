"""`create xml schema Name (cols)` with `@XMLSchema(rootElementName='...')`,
`@XMLSchemaField(name='p', xpath='/Root/a/b', type='number', castToType='double')` and
`@XMLSchemaNamespacePrefix(prefix='p', namespace='urn:...')`: an XML DOM event type
(engine/contracts/xml_types.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.contracts.errors import EventTypeError
from engine.contracts.xml_types import XMLEventType, XPathProperty

import epl.ast as A
from engine.contracts.errors import EPLValidationError

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def _attrs(a: A.Annotation) -> dict[str, Any]:
    out = {k.lower(): v for k, v in a.attrs}
    if a.value is not None:
        out.setdefault("value", a.value)
    return out


def xml_schema_type(node: A.CreateSchema, engine: "Runtime", text: str) -> XMLEventType:
    if node.inherits or node.class_name is not None:
        raise EPLValidationError("An XML schema takes no supertypes or class", text)
    root = node.name
    namespaces: dict[str, str] = {}
    fields = []
    for a in node.annotations:
        n = a.name.lower()
        attrs = _attrs(a)
        if n == "xmlschema":
            root = str(attrs.get("rootelementname") or attrs.get("value") or node.name)
            if attrs.get("defaultnamespace"):
                namespaces[""] = str(attrs["defaultnamespace"])
            if attrs.get("schemaresource") or attrs.get("schematext"):
                raise EPLValidationError("XML schemas (XSD) are not supported: declare the "
                                         "properties as columns or with @XMLSchemaField", text)
        elif n == "xmlschemanamespaceprefix":
            if "prefix" not in attrs or "namespace" not in attrs:
                raise EPLValidationError("@XMLSchemaNamespacePrefix requires prefix and namespace", text)
            namespaces[str(attrs["prefix"])] = str(attrs["namespace"])
        elif n == "xmlschemafield":
            if "name" not in attrs or "xpath" not in attrs:
                raise EPLValidationError("@XMLSchemaField requires name and xpath", text)
            fields.append(XPathProperty(str(attrs["name"]), str(attrs["xpath"]),
                                        str(attrs.get("type", "string")),
                                        str(attrs["casttotype"]) if attrs.get("casttotype") else None))
    try:
        props = {}
        for col in node.columns:
            if col.type is None:
                raise EPLValidationError(f"Property '{col.name}' of schema '{node.name}' has no type", text)
            props[col.name] = engine.types.resolve_type(col.type.name + ("[]" if col.type.array else ""))
        return XMLEventType(node.name, root, props, tuple(fields), namespaces)
    except EventTypeError as e:
        raise EPLValidationError(str(e), text) from None
