"""Fused per-statement code: the shapes a statement can run as one generated function
(`shape.analyze`) and that function's source (`source.generate`: `codegen`, or a window's
sink, `windows_sink`); engine/fused.py binds them to a running statement instance."""
from .source import generate
from .shape import Agg, Shape, analyze

__all__ = ["Agg", "Shape", "analyze", "generate"]
