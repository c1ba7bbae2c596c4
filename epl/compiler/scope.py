"""Name resolution for expressions: which stream, tag, variable, context property or
built-in a name refers to, decided once at compile time."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from engine.contracts.epl_types import PropertyType
from engine.contracts.event_types import EventType

from ..ast import Property, PropSeg
from engine.contracts.errors import EPLValidationError


@dataclass
class StreamInfo:
    """One stream of a statement: its position in the events-per-stream tuple."""

    index: int
    event_type: EventType
    alias: Optional[str] = None
    type_name: Optional[str] = None


@dataclass
class Resolved:
    """Where a property lives: `kind` is 'stream' (index), 'builtin' (name), 'variable',
    'context'; `path` is what remains to read inside that source."""

    kind: str
    index: int
    path: str
    type: PropertyType
    name: str = ""


@dataclass
class Scope:
    """Everything an expression may refer to. `builtins` are extra names evaluated from a
    dict passed at call time (expression views); `variables` reads engine variables;
    `context_type` is the current context's properties (`context.label`)."""

    streams: list[StreamInfo]
    functions: dict[str, Callable[..., Any]] = field(default_factory=dict)
    builtins: dict[str, PropertyType] = field(default_factory=dict)
    variables: Any = None                # engine.variables.VariableService or None
    context_type: Optional[EventType] = None
    allow_aggregation: bool = False
    aggregations: Any = None             # collector set by the statement compiler
    epl: Optional[str] = None
    services: Any = None                 # engine services for time, prev/prior, subqueries
    subquery_compiler: Any = None
    builtins_holder: Any = None          # object with `.values` (dict) for builtins
    context_holder: Any = None           # object with `.properties` for `context.x`
    # rollup levels: group-by expressions (by text) this level leaves out read as null;
    # `grouped_texts` is what the level groups by, for grouping()/grouping_id()
    null_texts: frozenset = frozenset()
    grouped_texts: Optional[frozenset] = None

    def fail(self, message: str) -> EPLValidationError:
        return EPLValidationError(message, self.epl)

    def stream_by_alias(self, name: str) -> Optional[StreamInfo]:
        for s in self.streams:
            if s.alias == name:
                return s
        for s in self.streams:
            if s.alias is None and s.type_name == name:
                return s
        return None

    def resolve(self, prop: Property) -> Resolved:
        segs = prop.path
        first = segs[0]
        # 1. stream alias or type name qualifying a property: `a.amount`, `Withdrawal.amount`
        if len(segs) > 1 and first.index is None and first.key is None:
            s = self.stream_by_alias(first.name)
            if s is not None:
                path = _path_text(segs[1:])
                t = s.event_type.property_type(path)
                if t is None:
                    raise self.fail(
                        f"Failed to resolve property '{_path_text(segs)}': property named '{path}' "
                        f"is not valid in stream '{first.name}' (type '{s.event_type.name}')")
                return Resolved("stream", s.index, path, t)
        # 2. built-in names of expression views, `context.x`
        if first.name in self.builtins and len(segs) == 1:
            return Resolved("builtin", -1, first.name, self.builtins[first.name], first.name)
        if first.name == "context" and len(segs) > 1 and self.context_type is not None:
            path = _path_text(segs[1:])
            t = self.context_type.property_type(path)
            if t is None:
                raise self.fail(f"Context property '{path}' is not valid for context "
                                f"'{self.context_type.name}'")
            return Resolved("context", -1, path, t)
        # 3. an unqualified property of exactly one stream
        path = _path_text(segs)
        found = [s for s in self.streams if s.event_type.property_type(path) is not None
                 and not (s.event_type.dynamic and len(self.streams) > 1)]
        if len(found) > 1:
            names = ", ".join(repr(s.alias or s.type_name) for s in found)
            raise self.fail(f"Property named '{path}' is ambiguous as it is valid for more "
                            f"than one stream ({names})")
        if found:
            s = found[0]
            return Resolved("stream", s.index, path, s.event_type.property_type(path))
        # 4. a variable
        if self.variables is not None and len(segs) >= 1 and self.variables.has(first.name):
            rest = _path_text(segs[1:]) if len(segs) > 1 else ""
            return Resolved("variable", -1, rest, self.variables.type_of(first.name), first.name)
        if len(self.streams) == 1:
            s = self.streams[0]
            raise self.fail(f"Failed to validate expression: property named '{path}' is not "
                            f"valid in any stream (event type '{s.event_type.name}')")
        raise self.fail(f"Failed to validate expression: property named '{path}' is not valid in any stream")


_PLAIN = re.compile(r"[A-Za-z_$][\w$]*")


def _path_text(segs: tuple[PropSeg, ...]) -> str:
    out = []
    for s in segs:
        t = s.name
        if not _PLAIN.fullmatch(t):   # a backquoted name: `user-id`
            t = "`" + t.replace("\\", "\\\\").replace("`", "\\`") + "`"
        if s.index is not None:
            t += f"[{s.index}]"
        if s.key is not None:
            t += f"('{s.key}')"
        out.append(t)
    return ".".join(out)
