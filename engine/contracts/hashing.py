"""Esper's hash functions of EPL values (`consistent_hash_crc32`, `hash_code`), which hash
contexts (`coalesce by hash_code(x) from ...`) compile into their bucket expressions."""
from __future__ import annotations

import zlib
from typing import Any


def consistent_hash_crc32(value: Any) -> int:
    """Esper's consistent_hash_crc32: CRC-32 of the value's text."""
    if value is None:
        return 0
    return zlib.crc32(str(value).encode("utf-8"))


def hash_code(value: Any) -> int:
    """Java's hashCode for strings and numbers (what Esper's hash_code computes)."""
    if value is None:
        return 0
    if isinstance(value, bool):
        return 1231 if value else 1237
    if isinstance(value, int):
        if -2**31 <= value < 2**31:
            return value
        v = value & 0xFFFFFFFFFFFFFFFF          # Long.hashCode: high word xor low word
        h = (v ^ (v >> 32)) & 0xFFFFFFFF
        return h - 2**32 if h >= 2**31 else h
    if isinstance(value, str):
        h = 0
        for ch in value:
            h = (31 * h + ord(ch)) & 0xFFFFFFFF
        return h - 2**32 if h >= 2**31 else h
    return hash(value)
