"""Deployment: what `Engine.deploy` returns for a module, a sequence of its statements that
can be undeployed as one."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence, overload

if TYPE_CHECKING:
    from .statement import Statement


class Deployment(Sequence["Statement"]):
    """The statements of one deployed module, in order; `undeploy()` destroys them (last
    first, so that statements reading a named window go before the window)."""

    __slots__ = ("id", "_statements")

    def __init__(self, deployment_id: int, statements: Sequence["Statement"]) -> None:
        self.id = deployment_id
        self._statements = tuple(statements)

    @overload
    def __getitem__(self, index: int) -> "Statement": ...
    @overload
    def __getitem__(self, index: slice) -> Sequence["Statement"]: ...

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        return self._statements[index]

    def __len__(self) -> int:
        return len(self._statements)

    def __iter__(self) -> Iterator["Statement"]:
        return iter(self._statements)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Deployment):
            return self._statements == other._statements
        if isinstance(other, (list, tuple)):
            return list(self._statements) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    @property
    def statements(self) -> tuple["Statement", ...]:
        return self._statements

    def statement(self, name: str) -> "Statement":
        """The statement of this deployment named `name` (KeyError when none)."""
        for s in self._statements:
            if s.name == name:
                return s
        raise KeyError(f"No statement named '{name}' in deployment {self.id}")

    @property
    def is_deployed(self) -> bool:
        return any(not s.is_destroyed for s in self._statements)

    def undeploy(self) -> None:
        """Destroy every statement of the module (idempotent)."""
        for s in reversed(self._statements):
            s.destroy()

    def __repr__(self) -> str:
        return f"Deployment({self.id}, {[s.name for s in self._statements]})"
