"""Data windows and derived views: the view contract (views/base.py), the registry of EPL
view names (views/registry.py), and one module per view (the `match_recognize` matcher,
which the compiler puts at the end of a stream's chain, with its plan, automaton and
ranking: views/match_recognize*.py).

May import: engine.contracts only (events, types, the view-context protocol)."""
import typing as _typing

from engine.contracts.lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from views.base import Events as Events
    from views.base import NOT_CONSTANT as NOT_CONSTANT
    from views.base import UpdateSink as UpdateSink
    from views.base import View as View
    from views.base import ViewArg as ViewArg
    from views.base import ViewContext as ViewContext
    from views.base import ViewFactory as ViewFactory
    from views.base import ViewParameterError as ViewParameterError
    from views.correl import CorrelView as CorrelView
    from views.correl import CorrelViewFactory as CorrelViewFactory
    from views.expr import BUILTIN_NAMES as EXPR_BUILTIN_NAMES
    from views.expr import ExprWindow as ExprWindow
    from views.expr import ExprWindowFactory as ExprWindowFactory
    from views.expr_batch import ExprBatchWindow as ExprBatchWindow
    from views.expr_batch import ExprBatchWindowFactory as ExprBatchWindowFactory
    from views.ext_timed import ExtTimedWindow as ExtTimedWindow
    from views.ext_timed import ExtTimedWindowFactory as ExtTimedWindowFactory
    from views.ext_timed_batch import ExtTimedBatchWindow as ExtTimedBatchWindow
    from views.ext_timed_batch import ExtTimedBatchWindowFactory as ExtTimedBatchWindowFactory
    from views.firstevent import FirstEventWindow as FirstEventWindow
    from views.firstevent import FirstEventWindowFactory as FirstEventWindowFactory
    from views.firstlength import FirstLengthWindow as FirstLengthWindow
    from views.firstlength import FirstLengthWindowFactory as FirstLengthWindowFactory
    from views.firsttime import FirstTimeWindow as FirstTimeWindow
    from views.firsttime import FirstTimeWindowFactory as FirstTimeWindowFactory
    from views.firstunique import FirstUniqueWindow as FirstUniqueWindow
    from views.firstunique import FirstUniqueWindowFactory as FirstUniqueWindowFactory
    from views.groupwin import GroupWinFactory as GroupWinFactory
    from views.groupwin import GroupWinView as GroupWinView
    from views.keepall import KeepAllWindow as KeepAllWindow
    from views.keepall import KeepAllWindowFactory as KeepAllWindowFactory
    from views.lastevent import LastEventWindow as LastEventWindow
    from views.lastevent import LastEventWindowFactory as LastEventWindowFactory
    from views.length import LengthWindow as LengthWindow
    from views.length import LengthWindowFactory as LengthWindowFactory
    from views.length_batch import LengthBatchWindow as LengthBatchWindow
    from views.length_batch import LengthBatchWindowFactory as LengthBatchWindowFactory
    from views.linest import LinestView as LinestView
    from views.linest import LinestViewFactory as LinestViewFactory
    from views.rank import RankWindow as RankWindow
    from views.rank import RankWindowFactory as RankWindowFactory
    from views.registry import VIEW_FACTORIES as VIEW_FACTORIES
    from views.registry import create_factories as create_factories
    from views.registry import make_chain as make_chain
    from views.size import SizeView as SizeView
    from views.size import SizeViewFactory as SizeViewFactory
    from views.sort import SortWindow as SortWindow
    from views.sort import SortWindowFactory as SortWindowFactory
    from views.testing import SimulatedViewContext as SimulatedViewContext
    from views.time import TimeWindow as TimeWindow
    from views.time import TimeWindowFactory as TimeWindowFactory
    from views.time_accum import TimeAccumWindow as TimeAccumWindow
    from views.time_accum import TimeAccumWindowFactory as TimeAccumWindowFactory
    from views.time_batch import TimeBatchWindow as TimeBatchWindow
    from views.time_batch import TimeBatchWindowFactory as TimeBatchWindowFactory
    from views.time_length_batch import TimeLengthBatchWindow as TimeLengthBatchWindow
    from views.time_length_batch import TimeLengthBatchWindowFactory as TimeLengthBatchWindowFactory
    from views.time_order import TimeOrderWindow as TimeOrderWindow
    from views.time_order import TimeOrderWindowFactory as TimeOrderWindowFactory
    from views.time_order import TimeToLiveWindowFactory as TimeToLiveWindowFactory
    from views.uni import UniView as UniView
    from views.uni import UniViewFactory as UniViewFactory
    from views.union import UnionFactory as UnionFactory
    from views.union import UnionWindow as UnionWindow
    from views.unique import UniqueWindow as UniqueWindow
    from views.unique import UniqueWindowFactory as UniqueWindowFactory
    from views.weighted_avg import WeightedAvgView as WeightedAvgView
    from views.weighted_avg import WeightedAvgViewFactory as WeightedAvgViewFactory

__all__ = [
    "NOT_CONSTANT", "Events", "UpdateSink", "View", "ViewArg", "ViewContext", "ViewFactory",
    "ViewParameterError", "VIEW_FACTORIES", "create_factories", "make_chain",
    "SimulatedViewContext", "EXPR_BUILTIN_NAMES", "LengthWindow", "LengthWindowFactory",
    "LengthBatchWindow", "LengthBatchWindowFactory", "TimeWindow", "TimeWindowFactory",
    "TimeBatchWindow", "TimeBatchWindowFactory", "TimeLengthBatchWindow",
    "TimeLengthBatchWindowFactory", "TimeAccumWindow", "TimeAccumWindowFactory",
    "ExtTimedWindow", "ExtTimedWindowFactory", "ExtTimedBatchWindow",
    "ExtTimedBatchWindowFactory", "KeepAllWindow", "KeepAllWindowFactory", "UniqueWindow",
    "UniqueWindowFactory", "FirstUniqueWindow", "FirstUniqueWindowFactory", "FirstEventWindow",
    "FirstEventWindowFactory", "LastEventWindow", "LastEventWindowFactory",
    "FirstLengthWindow", "FirstLengthWindowFactory", "FirstTimeWindow",
    "FirstTimeWindowFactory", "SortWindow", "SortWindowFactory", "RankWindow",
    "RankWindowFactory", "GroupWinView", "GroupWinFactory", "ExprWindow", "ExprWindowFactory",
    "ExprBatchWindow", "ExprBatchWindowFactory", "TimeOrderWindow", "TimeOrderWindowFactory",
    "TimeToLiveWindowFactory", "SizeView", "SizeViewFactory", "UniView", "UniViewFactory",
    "LinestView", "LinestViewFactory", "CorrelView", "CorrelViewFactory", "WeightedAvgView",
    "WeightedAvgViewFactory", "UnionWindow", "UnionFactory",
]

# Where each public name is defined; a name is imported on first use, then cached in the
# module dict, so later lookups never reach __getattr__.
_ORIGIN = {
    "NOT_CONSTANT": ("views.base", "NOT_CONSTANT"),
    "Events": ("views.base", "Events"),
    "UpdateSink": ("views.base", "UpdateSink"),
    "View": ("views.base", "View"),
    "ViewArg": ("views.base", "ViewArg"),
    "ViewContext": ("views.base", "ViewContext"),
    "ViewFactory": ("views.base", "ViewFactory"),
    "ViewParameterError": ("views.base", "ViewParameterError"),
    "VIEW_FACTORIES": ("views.registry", "VIEW_FACTORIES"),
    "create_factories": ("views.registry", "create_factories"),
    "make_chain": ("views.registry", "make_chain"),
    "SimulatedViewContext": ("views.testing", "SimulatedViewContext"),
    "EXPR_BUILTIN_NAMES": ("views.expr", "BUILTIN_NAMES"),
    "LengthWindow": ("views.length", "LengthWindow"),
    "LengthWindowFactory": ("views.length", "LengthWindowFactory"),
    "LengthBatchWindow": ("views.length_batch", "LengthBatchWindow"),
    "LengthBatchWindowFactory": ("views.length_batch", "LengthBatchWindowFactory"),
    "TimeWindow": ("views.time", "TimeWindow"),
    "TimeWindowFactory": ("views.time", "TimeWindowFactory"),
    "TimeBatchWindow": ("views.time_batch", "TimeBatchWindow"),
    "TimeBatchWindowFactory": ("views.time_batch", "TimeBatchWindowFactory"),
    "TimeLengthBatchWindow": ("views.time_length_batch", "TimeLengthBatchWindow"),
    "TimeLengthBatchWindowFactory": ("views.time_length_batch", "TimeLengthBatchWindowFactory"),
    "TimeAccumWindow": ("views.time_accum", "TimeAccumWindow"),
    "TimeAccumWindowFactory": ("views.time_accum", "TimeAccumWindowFactory"),
    "ExtTimedWindow": ("views.ext_timed", "ExtTimedWindow"),
    "ExtTimedWindowFactory": ("views.ext_timed", "ExtTimedWindowFactory"),
    "ExtTimedBatchWindow": ("views.ext_timed_batch", "ExtTimedBatchWindow"),
    "ExtTimedBatchWindowFactory": ("views.ext_timed_batch", "ExtTimedBatchWindowFactory"),
    "KeepAllWindow": ("views.keepall", "KeepAllWindow"),
    "KeepAllWindowFactory": ("views.keepall", "KeepAllWindowFactory"),
    "UniqueWindow": ("views.unique", "UniqueWindow"),
    "UniqueWindowFactory": ("views.unique", "UniqueWindowFactory"),
    "FirstUniqueWindow": ("views.firstunique", "FirstUniqueWindow"),
    "FirstUniqueWindowFactory": ("views.firstunique", "FirstUniqueWindowFactory"),
    "FirstEventWindow": ("views.firstevent", "FirstEventWindow"),
    "FirstEventWindowFactory": ("views.firstevent", "FirstEventWindowFactory"),
    "LastEventWindow": ("views.lastevent", "LastEventWindow"),
    "LastEventWindowFactory": ("views.lastevent", "LastEventWindowFactory"),
    "FirstLengthWindow": ("views.firstlength", "FirstLengthWindow"),
    "FirstLengthWindowFactory": ("views.firstlength", "FirstLengthWindowFactory"),
    "FirstTimeWindow": ("views.firsttime", "FirstTimeWindow"),
    "FirstTimeWindowFactory": ("views.firsttime", "FirstTimeWindowFactory"),
    "SortWindow": ("views.sort", "SortWindow"),
    "SortWindowFactory": ("views.sort", "SortWindowFactory"),
    "RankWindow": ("views.rank", "RankWindow"),
    "RankWindowFactory": ("views.rank", "RankWindowFactory"),
    "GroupWinView": ("views.groupwin", "GroupWinView"),
    "GroupWinFactory": ("views.groupwin", "GroupWinFactory"),
    "ExprWindow": ("views.expr", "ExprWindow"),
    "ExprWindowFactory": ("views.expr", "ExprWindowFactory"),
    "ExprBatchWindow": ("views.expr_batch", "ExprBatchWindow"),
    "ExprBatchWindowFactory": ("views.expr_batch", "ExprBatchWindowFactory"),
    "TimeOrderWindow": ("views.time_order", "TimeOrderWindow"),
    "TimeOrderWindowFactory": ("views.time_order", "TimeOrderWindowFactory"),
    "TimeToLiveWindowFactory": ("views.time_order", "TimeToLiveWindowFactory"),
    "SizeView": ("views.size", "SizeView"),
    "SizeViewFactory": ("views.size", "SizeViewFactory"),
    "UniView": ("views.uni", "UniView"),
    "UniViewFactory": ("views.uni", "UniViewFactory"),
    "LinestView": ("views.linest", "LinestView"),
    "LinestViewFactory": ("views.linest", "LinestViewFactory"),
    "CorrelView": ("views.correl", "CorrelView"),
    "CorrelViewFactory": ("views.correl", "CorrelViewFactory"),
    "WeightedAvgView": ("views.weighted_avg", "WeightedAvgView"),
    "WeightedAvgViewFactory": ("views.weighted_avg", "WeightedAvgViewFactory"),
    "UnionWindow": ("views.union", "UnionWindow"),
    "UnionFactory": ("views.union", "UnionFactory"),
}


__getattr__, __dir__ = _lazy_exports(__name__, _ORIGIN, __all__)
