"""Reading the files a user gives the `epl` command: errors become InputError with a message
that starts with FILE:LINE[:COL] (printed as is, exit status 2)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from .engine import Engine


class InputError(Exception):
    """An error in a file the user gave: printed as is (it starts with FILE:LINE)."""


# -- statements --------------------------------------------------------------------------------
def read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from e


def _offset_line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def deploy_file(engine: "Engine", path: str) -> list[Any]:
    """Every statement of an EPL module file, created in order; an error names the file, the
    line (and column) in it."""
    from epl.parser import parse_module
    from engine.contracts.errors import EPLError
    text = read_text(path)
    try:
        module = parse_module(text)
    except EPLError as e:
        raise InputError(_located(path, e.line, e.column, e.message)) from e
    created = []
    pos = 0
    for stmt_text in module.texts:
        start = text.find(stmt_text, pos)
        start = pos if start < 0 else start
        pos = start + len(stmt_text)
        first_line = _offset_line(text, start)
        first_col = start - (text.rfind("\n", 0, start) + 1) + 1
        try:
            created.append(engine.epl(stmt_text))
        except EPLError as e:
            if e.line is not None:
                line = first_line + e.line - 1
                col = (first_col + e.column - 1 if e.line == 1 else e.column) if e.column else None
            else:
                line, col = first_line, None
            raise InputError(_located(path, line, col, e.message)) from e
        except Exception as e:  # an engine error about a statement (a duplicate name, ...)
            raise InputError(_located(path, first_line, None, f"{type(e).__name__}: {e}")) from e
    return created


def _located(path: str, line: Optional[int], col: Optional[int], message: str) -> str:
    where = path if line is None else f"{path}:{line}" + (f":{col}" if col else "")
    return f"{where}: {message}"
