"""The controller of each kind of context level, by the class of its spec (plan data,
epl/plans/contexts.py): a context runtime looks its levels' factories up once, when it is
made, and calls them as the context starts and partitions open."""
from __future__ import annotations

from epl.plans.contexts import CategorySpec, ContextDefinition, HashSpec, KeyedSpec, TemporalSpec

from .category import CategoryController
from .hashed import HashController
from .keyed import KeyedController
from .partition import MakeController
from .temporal import make_temporal

CONTROLLERS: dict[type, MakeController] = {
    KeyedSpec: KeyedController,
    CategorySpec: CategoryController,
    HashSpec: HashController,
    TemporalSpec: make_temporal,
}


def controllers_of(definition: ContextDefinition) -> tuple[MakeController, ...]:
    """The controller factory of each level of a context."""
    return tuple(CONTROLLERS[type(level.spec)] for level in definition.levels)
