"""Deployment: what `Engine.deploy` returns for a module, a sequence of its statements that
can be undeployed as one, with the module's headers (`module`, `uses`, `import`); errors that
name the failing statement's line in the module."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence, overload

from engine.contracts.errors import EPLError

if TYPE_CHECKING:
    from .statement import Statement


class Deployment(Sequence["Statement"]):
    """The statements of one deployed module, in order; `undeploy()` destroys them (last
    first, so that statements reading a named window go before the window). `module_name`,
    `uses` and `imports` are the module's headers (imports are recorded, not executed:
    Esper's imports name Java classes; register Python functions with
    engine.register_function); `path` is the file deployed, if any."""

    __slots__ = ("id", "_statements", "module_name", "uses", "imports", "path")

    def __init__(self, deployment_id: int, statements: Sequence["Statement"],
                 module_name: Optional[str] = None, uses: tuple[str, ...] = (),
                 imports: tuple[str, ...] = (), path: Optional[str] = None) -> None:
        self.id = deployment_id
        self._statements = tuple(statements)
        self.module_name = module_name
        self.uses = uses
        self.imports = imports
        self.path = path

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


def located(error: EPLError, line: int, module_name: Optional[str],
            path: Optional[str]) -> EPLError:
    """The same error, its message naming the statement's line in the module."""
    where = f"line {line}"
    if path:
        where += f" of {path}"
    elif module_name:
        where += f" of module '{module_name}'"
    clone = type(error).__new__(type(error))
    clone.__dict__.update(error.__dict__)
    clone.message = f"{error.message} (statement at {where})"
    if clone.line is None:
        clone.line = line
    Exception.__init__(clone, clone._format())
    return clone


def read_module(path: Any) -> tuple[str, str]:
    """The text of an `.epl` file and the path as given."""
    import os
    p = os.fspath(path)
    with open(p, encoding="utf-8") as f:
        return f.read(), p
