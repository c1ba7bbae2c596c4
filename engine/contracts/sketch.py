"""Count-min sketch (Esper's `countMinSketch()` table column, filled by `countMinSketchAdd(x)`,
read by `countMinSketchFrequency(x)` and `countMinSketchTopk()`): approximate frequencies in
fixed memory.

Parameters as Esper names them: `epsOfTotalCount` (default 0.0001) and `confidence` (0.99)
size the table (width ceil(2 / eps), depth ceil(-log2(1 - confidence)), as the count-min
paper and Esper do); `seed` (1234567) keys the hash; `topk` (default none) keeps the k most
frequent values. A frequency is never below the true count and exceeds it by at most
eps * (total count) with probability `confidence`; for a given seed the results are
deterministic. The hashes are ours (BLAKE2b keyed by the seed, double hashing over the
rows), not Esper's MurmurHash: estimates equal Esper's wherever both are exact (no colliding
values, which the default width makes the usual case for small vocabularies), and may differ
in which values collide otherwise.

This module holds the sketch as an EPL value (CountMinSketchState, the value of a table's
sketch column, and its parameters), shared by the compiler (parameters, the methods' types)
and the runtime; the aggregator that fills a column is engine/aggregation/sketch.py's."""
from __future__ import annotations

import math
from array import array
from typing import Any, Mapping, Optional

from engine.contracts.epl_types import EPLType, PropertyType
from engine.contracts.frozen import frozen_dataclass

from engine.contracts.aggregation import AggregationError

try:    # what hashlib.blake2b is, without hashlib loading OpenSSL (3 ms of a cold start)
    from _blake2 import blake2b
except ImportError:     # pragma: no cover (a Python built without it)
    from hashlib import blake2b

DEFAULTS = {"epsoftotalcount": 0.0001, "confidence": 0.99, "seed": 1234567, "topk": None}


@frozen_dataclass(slots=True)
class CountMinSketchTopK:
    """One entry of `countMinSketchTopk()`: a value and its estimated frequency."""

    frequency: int
    value: Any


@frozen_dataclass(slots=True)
class SketchParams:
    eps_of_total_count: float = 0.0001
    confidence: float = 0.99
    seed: int = 1234567
    topk: Optional[int] = None

    @property
    def width(self) -> int:
        return int(math.ceil(2 / self.eps_of_total_count))

    @property
    def depth(self) -> int:
        return max(1, int(math.ceil(-math.log(1 - self.confidence) / math.log(2))))


def sketch_params(values: Mapping[str, Any]) -> SketchParams:
    """The column's parameters from `{epsOfTotalCount: .., confidence: .., seed: .., topk: ..}`
    (names in any case); raises AggregationError for unknown names or values out of range."""
    out = dict(DEFAULTS)
    for k, v in values.items():
        key = k.lower()
        if key == "agent":          # Esper's Java agent class: values are hashed by us
            continue
        if key not in out:
            raise AggregationError(f"Unrecognized parameter '{k}' for count-min-sketch, expecting "
                                   f"one of epsOfTotalCount, confidence, seed, topk")
        out[key] = v
    try:
        eps = float(out["epsoftotalcount"])
        conf = float(out["confidence"])
        seed = int(out["seed"])
        topk = None if out["topk"] is None else int(out["topk"])
    except (TypeError, ValueError):
        raise AggregationError("Count-min-sketch parameters must be numbers") from None
    if not 0 < eps < 1 or not 0 < conf < 1:
        raise AggregationError("Count-min-sketch epsOfTotalCount and confidence must be between 0 and 1")
    if topk is not None and topk <= 0:
        topk = None
    return SketchParams(eps, conf, seed, topk)


def _bytes(value: Any) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-16-be")
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    return (type(value).__name__ + ":" + repr(value)).encode()


class CountMinSketchState:
    """The sketch of one table row: `add`, `frequency`, `topk`."""

    __slots__ = ("params", "rows", "key", "total", "top")

    def __init__(self, params: SketchParams) -> None:
        self.params = params
        self.rows = [array("q", bytes(8 * params.width)) for _ in range(params.depth)]
        self.key = params.seed.to_bytes(8, "little", signed=True)
        self.total = 0
        self.top: Optional[dict[Any, int]] = {} if params.topk else None

    def _buckets(self, value: Any) -> list[int]:
        d = blake2b(_bytes(value), digest_size=16, key=self.key).digest()
        h1 = int.from_bytes(d[:8], "little")
        h2 = int.from_bytes(d[8:], "little") | 1
        w = self.params.width
        return [(h1 + i * h2) % w for i in range(len(self.rows))]

    def add(self, value: Any, count: int = 1) -> None:
        if value is None:
            return
        buckets = self._buckets(value)
        est = None
        for row, b in zip(self.rows, buckets):
            row[b] += count
            est = row[b] if est is None else min(est, row[b])
        self.total += count
        if self.top is not None:
            self._track(value, est or 0)

    def _track(self, value: Any, freq: int) -> None:
        top = self.top
        assert top is not None
        if value in top or len(top) < (self.params.topk or 0):
            top[value] = freq
            return
        low_value = min(top, key=top.__getitem__)
        if freq > top[low_value]:
            del top[low_value]
            top[value] = freq

    def frequency(self, value: Any) -> Optional[int]:
        if value is None:
            return None
        return min(row[b] for row, b in zip(self.rows, self._buckets(value)))

    def topk(self) -> Optional[list[CountMinSketchTopK]]:
        if self.top is None:
            return None
        ranked = sorted(self.top.items(), key=lambda kv: -kv[1])
        return [CountMinSketchTopK(f, v) for v, f in ranked]

    def __repr__(self) -> str:
        return (f"CountMinSketch(eps={self.params.eps_of_total_count}, confidence="
                f"{self.params.confidence}, total={self.total})")


SKETCH_TYPE = PropertyType(EPLType.OBJECT, pyclass=CountMinSketchState)
TOPK_TYPE = PropertyType(EPLType.ARRAY, element=PropertyType(EPLType.OBJECT, pyclass=CountMinSketchTopK))


ADD_FUNCTION = "countminsketchadd"
FREQUENCY, TOPK = "countminsketchfrequency", "countminsketchtopk"
