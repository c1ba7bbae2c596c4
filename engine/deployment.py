"""What `engine.deploy` returns: the module's statements (a list) with its name, uses and
imports, and errors that name the failing statement's line in the module."""
from __future__ import annotations

from typing import Any, Optional

from epl.errors import EPLError


class Deployment(list):
    """The statements of one deployed module, in module order. `module_name`, `uses` and
    `imports` are the module's headers (imports are recorded, not executed: Esper's imports
    name Java classes; register Python functions with engine.register_function)."""

    def __init__(self, statements: list, module_name: Optional[str] = None,
                 uses: tuple[str, ...] = (), imports: tuple[str, ...] = (),
                 path: Optional[str] = None) -> None:
        super().__init__(statements)
        self.module_name = module_name
        self.uses = uses
        self.imports = imports
        self.path = path

    def undeploy(self) -> None:
        """Destroy the module's statements, last first."""
        for s in reversed(self):
            s.destroy()


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
