"""Hash segmented context: `coalesce by hash_fn(expr) from A, ... granularity N
[preallocate]`: a partition per hash bucket (hash value modulo N), created when the first
event of the bucket arrives, or all N at once with `preallocate`. A partition's statements
filter on the bucket as an indexed value, computed once per event."""
from __future__ import annotations

from typing import Any, Callable, Optional

from engine.contracts.bean import EventBean
# the hash functions the compiled hash expressions call, importable from here as before
from engine.contracts.hashing import consistent_hash_crc32, hash_code  # noqa: F401
from epl.plans.contexts import HashItem, HashSpec
from filterindex.spec import FilterOp, FilterParam, FilterSpec

from .partition import CreateHandle, Partition, PartitioningController, narrow_by_parent


class HashController(PartitioningController):
    def __init__(self, spec: HashSpec, runtime: Any, parent: Optional[Partition], level: int) -> None:
        PartitioningController.__init__(self, spec, runtime, parent, level)
        n = spec.granularity
        # the bucket, as an indexed value the filter index computes once per event
        self.lookups = tuple(
            (f"hash({spec.name},{i})", self._bucket_getter(it, n)) for i, it in enumerate(spec.items))

    @staticmethod
    def _bucket_getter(item: HashItem, n: int) -> Callable[[Any], int]:
        et, h = item.event_type, item.hash_of

        def bucket(u: Any) -> int:
            v = h(EventBean(et, u))
            return abs(int(v)) % n if v is not None else 0
        return bucket

    def start(self) -> None:
        if self.spec.preallocate:
            for b in range(self.spec.granularity):
                self._new(b)
            return
        for i, it in enumerate(self.spec.items):
            fs = narrow_by_parent(self.parent, it.template.bind(None))
            self.registrations.append(self.runtime.add_filter(fs, CreateHandle(self, i)))

    def create(self, index: int, bean: EventBean) -> None:
        b = self.lookups[index][1](bean.underlying)
        if b in self.partitions:
            return
        before = self.runtime.matched(bean)
        self._new(b)
        self.runtime.deliver_new(bean, before)

    def _new(self, bucket: int) -> Partition:
        p = self.runtime.new_partition(self, self.level, {}, self.parent, self._narrower(bucket), bucket)
        self.partitions[bucket] = p
        return p

    def _narrower(self, bucket: int) -> Callable[[FilterSpec], FilterSpec]:
        def narrow(spec: FilterSpec) -> FilterSpec:
            for it, (lookup, getter) in zip(self.spec.items, self.lookups):
                if spec.event_type.is_subtype_of(it.event_type):
                    param = FilterParam(lookup, FilterOp.EQ, bucket, getter)
                    return FilterSpec(spec.event_type, tuple(path + (param,) for path in spec.paths))
            return spec
        return narrow
