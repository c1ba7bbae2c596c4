"""The filter index: per event type, a tree of indexes routing each event to the statements,
pattern sub-expressions and context partitions whose filters it satisfies; the filter specs
and templates the compiler plans into (the planner itself is epl/compiler/filter_planner.py).

May import: engine.contracts only."""
import typing as _typing

from engine.contracts.lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from filterindex.codegen import STALE as STALE
    from filterindex.planner import Bound as Bound
    from filterindex.planner import Constant as Constant
    from filterindex.planner import FilterTemplate as FilterTemplate
    from filterindex.planner import ValueSource as ValueSource
    from filterindex.spec import FilterOp as FilterOp
    from filterindex.spec import FilterParam as FilterParam
    from filterindex.spec import FilterSpec as FilterSpec
    from filterindex.tree import FilterIndex as FilterIndex
    from filterindex.tree import NO_MATCH as NO_MATCH

__all__ = [
    "Bound", "Constant", "FilterTemplate", "ValueSource", "FilterOp", "FilterParam",
    "FilterSpec", "STALE", "NO_MATCH", "FilterIndex",
]

# Where each public name is defined; a name is imported on first use, then cached in the
# module dict, so later lookups never reach __getattr__.
_ORIGIN = {
    "Bound": ("filterindex.planner", "Bound"),
    "Constant": ("filterindex.planner", "Constant"),
    "FilterTemplate": ("filterindex.planner", "FilterTemplate"),
    "ValueSource": ("filterindex.planner", "ValueSource"),
    "FilterOp": ("filterindex.spec", "FilterOp"),
    "FilterParam": ("filterindex.spec", "FilterParam"),
    "FilterSpec": ("filterindex.spec", "FilterSpec"),
    "STALE": ("filterindex.codegen", "STALE"),
    "NO_MATCH": ("filterindex.tree", "NO_MATCH"),
    "FilterIndex": ("filterindex.tree", "FilterIndex"),
}


__getattr__, __dir__ = _lazy_exports(__name__, _ORIGIN, __all__)
