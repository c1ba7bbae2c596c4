"""`frozen_dataclass` (engine/contracts/frozen.py) behaves as `@dataclass(frozen=True)`:
equality, hash values, repr, immutability, replace, copies, explicit methods kept, the
docstring of a class without one."""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field

import pytest

from engine.contracts.frozen import frozen_dataclass

DECORATORS = {
    "stdlib": dataclass(frozen=True),
    "stdlib slots": dataclass(frozen=True, slots=True),
    "frozen_dataclass": frozen_dataclass,
    "frozen_dataclass slots": frozen_dataclass(slots=True),
}


def declare(deco):
    @deco
    class Node:
        a: int
        b: object = None
        flag: bool = field(default=False, kw_only=True)
        span: object = field(default=None, compare=False)
        weight: int = field(default=0, hash=False)

    @deco
    class One:
        x: float

    @deco
    class Empty:
        pass

    @deco
    class OwnEq:
        a: int

        def __eq__(self, other: object) -> bool:
            return True

    @deco
    class OwnRepr:
        a: int

        def __repr__(self) -> str:
            return "mine"

    return Node, One, Empty, OwnEq, OwnRepr


def observe(deco) -> list:
    Node, One, Empty, OwnEq, OwnRepr = declare(deco)
    n = Node(1, (2,), span=5, weight=3)
    nan = float("nan")
    return [
        repr(n).split(".")[-1], n == Node(1, (2,), span=9, weight=3), n == Node(1, (2,), weight=4),
        n != Node(2), n.__eq__(3), n == (1, (2,), 3),
        hash(n), hash(n) == hash(Node(1, (2,), weight=99)),
        One(nan) == One(nan), One(1.0) == One(1), hash(One(1.5)), repr(One(1.5)).split(".")[-1],
        repr(Empty()).split(".")[-1], Empty() == Empty(), hash(Empty()),
        OwnEq(1) == OwnEq(2), hash(OwnEq(3)), repr(OwnRepr(1)),
        copy.deepcopy(n) == n, repr(dataclasses.replace(n, a=7)).split(".")[-1],
        [f.name for f in dataclasses.fields(Node)], type(n).__dataclass_params__.frozen,
        Node.__match_args__, [c.__doc__ for c in (Node, One, Empty, OwnEq)],
    ]


@pytest.mark.parametrize("name", ["stdlib slots", "frozen_dataclass", "frozen_dataclass slots"])
def test_same_as_a_frozen_dataclass(name):
    assert observe(DECORATORS[name]) == observe(DECORATORS["stdlib"])


@pytest.mark.parametrize("name", ["frozen_dataclass", "frozen_dataclass slots"])
def test_fields_cannot_be_assigned(name):
    Node = declare(DECORATORS[name])[0]
    n = Node(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        n.a = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        del n.a


def test_recursive_repr_is_guarded():
    @frozen_dataclass
    class Box:
        items: list

    box = Box([])
    box.items.append(box)
    assert repr(box).endswith("Box(items=[...])")
