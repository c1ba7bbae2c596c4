"""Java HashMap iteration order for group keys. Esper collects the groups an update touches
in a HashMap, so grouped output rows come in that order; we reproduce it to be Esper-exact."""
from __future__ import annotations

import math
import struct
from typing import Any, Iterable, Sequence

from engine.contracts.epl_types import EPLType, PropertyType


def _i32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def _string_hash(s: str) -> int:
    h = 0
    data = s.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & 0xFFFFFFFF
    return _i32(h)


def _long_hash(v: int) -> int:
    v &= 0xFFFFFFFFFFFFFFFF
    return _i32(v ^ (v >> 32))


def _double_hash(v: float) -> int:
    if math.isnan(v):
        bits = 0x7FF8000000000000
    else:
        bits = struct.unpack(">q", struct.pack(">d", v))[0]
    return _long_hash(bits)


def java_hash(value: Any, kind: EPLType | None = None) -> int:
    """`hashCode()` of the Java value Esper would hold for this Python value."""
    if value is None:
        return 0
    if isinstance(value, bool):
        return 1231 if value else 1237
    if isinstance(value, str):
        return _string_hash(value)
    if isinstance(value, int):
        if kind in (EPLType.INT, EPLType.SHORT, EPLType.BYTE):
            return _i32(value)
        if kind is EPLType.LONG or not (-(1 << 31) <= value < (1 << 31)):
            return _long_hash(value)
        return _i32(value)
    if isinstance(value, float):
        if kind is EPLType.FLOAT:
            return struct.unpack(">i", struct.pack(">f", value))[0]
        return _double_hash(value)
    if isinstance(value, tuple):
        h = 1
        for v in value:
            h = _i32(31 * h + java_hash(v))
        return h
    return _i32(hash(value))


def multikey_hash(values: Sequence[Any], kinds: Sequence[EPLType | None]) -> int:
    h = 0
    for i, (v, k) in enumerate(zip(values, kinds)):
        hv = java_hash(v, k)
        h = hv if i == 0 else _i32(31 * h + hv)
    return h


def hashmap_order(keys: Iterable[Any], types: Sequence[PropertyType]) -> list[Any]:
    """The keys (distinct, in insertion order) as a fresh java.util.HashMap would iterate them."""
    keys = list(keys)
    kinds = [t.kind for t in types]
    n = len(keys)
    cap = 16
    while n > cap * 0.75:
        cap *= 2
    def bucket(key: Any) -> int:
        if len(kinds) == 1:
            h = java_hash(key, kinds[0])
        else:
            h = multikey_hash(key, kinds)
        h &= 0xFFFFFFFF
        return (h ^ (h >> 16)) & (cap - 1)
    indexed = sorted(range(n), key=lambda i: (bucket(keys[i]), i))
    return [keys[i] for i in indexed]
