"""The source of a fused statement, whatever its shape: a window's sink or codegen's function."""
from __future__ import annotations

from typing import Any, Sequence

from . import codegen
from .shape import Shape
from .windows_sink import generate_sink


def generate(shape: Shape, classes: Sequence[str], names: Sequence[str], reclaim: bool,
             listeners_only: bool, checked: Sequence[str] = (),
             streams: tuple[bool, bool] = (True, False), exact: Sequence[Any] = ()) -> str:
    """codegen.generate's source, as its arguments say there. A shape with a `window` gets a
    fused sink instead (windows_sink.py; `streams`: whether the statement posts its insert
    and its remove stream). (The choice is made here, above both: the sink's parts build on
    codegen's steps, so codegen cannot import the sink without an import cycle.)"""
    if shape.window is not None:
        return generate_sink(shape, classes, names, reclaim, *streams, checked=checked)
    return codegen.generate(shape, classes, names, reclaim, listeners_only, checked, exact)
