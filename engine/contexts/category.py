"""Category segmented context: `group by <condition> as label, ... from Type(filter)`: one
partition per category, all created when the context starts; inside a partition the
statements' filters on the type also require the category's condition."""
from __future__ import annotations

from typing import Any, Callable, Optional

from engine.contracts.bean import EventBean
from epl.plans.contexts import CategorySpec
from filterindex.spec import FilterOp, FilterParam, FilterSpec

from .partition import Partition


class CategoryController:
    def __init__(self, spec: CategorySpec, runtime: Any, parent: Optional[Partition], level: int) -> None:
        self.spec = spec
        self.runtime = runtime
        self.parent = parent
        self.level = level
        self.partitions: list[Partition] = []

    def start(self) -> None:
        for label, cond in self.spec.categories:
            p = self.runtime.new_partition(self, self.level, {"label": label}, self.parent,
                                           self._narrower(label, cond), label)
            self.partitions.append(p)

    def stop(self, terminated: bool = False) -> None:
        parts, self.partitions = self.partitions, []
        for p in parts:
            self.runtime.end_partition(p, terminated)

    def _narrower(self, label: str, cond: Callable[[EventBean], bool]) -> Callable[[FilterSpec], FilterSpec]:
        et = self.spec.event_type
        base = self.spec.base
        if base is not None:
            test = lambda bean, _b=base, _c=cond: _b(bean) and _c(bean)  # noqa: E731
        else:
            test = cond
        param = FilterParam("", FilterOp.BOOL_EXPR, test,
                            key=f"context {self.spec.name} category {label} #{id(self)}")

        def narrow(spec: FilterSpec) -> FilterSpec:
            if not spec.event_type.is_subtype_of(et):
                return spec
            return FilterSpec(spec.event_type, tuple(path + (param,) for path in spec.paths))
        return narrow
