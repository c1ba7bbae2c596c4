"""Fused per-statement code: the shapes a statement can run as one generated function
(`shape.analyze`) and that function's source (`codegen`); engine/fused.py binds them to a
running statement instance."""
from .codegen import generate
from .shape import Agg, Shape, analyze

__all__ = ["Agg", "Shape", "analyze", "generate"]
