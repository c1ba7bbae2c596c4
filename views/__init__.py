"""Data windows and derived views: the view contract, the registry of EPL view names, and
one module per view."""
from .base import NOT_CONSTANT as NOT_CONSTANT
from .base import Events as Events
from .base import UpdateSink as UpdateSink
from .base import View as View
from .base import ViewArg as ViewArg
from .base import ViewContext as ViewContext
from .base import ViewFactory as ViewFactory
from .base import ViewParameterError as ViewParameterError
from .expr import BUILTIN_NAMES as EXPR_BUILTIN_NAMES
from .expr import ExprWindow as ExprWindow
from .expr import ExprWindowFactory as ExprWindowFactory
from .expr_batch import ExprBatchWindow as ExprBatchWindow
from .expr_batch import ExprBatchWindowFactory as ExprBatchWindowFactory
from .ext_timed import ExtTimedWindow as ExtTimedWindow
from .ext_timed import ExtTimedWindowFactory as ExtTimedWindowFactory
from .ext_timed_batch import ExtTimedBatchWindow as ExtTimedBatchWindow
from .ext_timed_batch import ExtTimedBatchWindowFactory as ExtTimedBatchWindowFactory
from .firstevent import FirstEventWindow as FirstEventWindow
from .firstevent import FirstEventWindowFactory as FirstEventWindowFactory
from .firstlength import FirstLengthWindow as FirstLengthWindow
from .firstlength import FirstLengthWindowFactory as FirstLengthWindowFactory
from .firsttime import FirstTimeWindow as FirstTimeWindow
from .firsttime import FirstTimeWindowFactory as FirstTimeWindowFactory
from .firstunique import FirstUniqueWindow as FirstUniqueWindow
from .firstunique import FirstUniqueWindowFactory as FirstUniqueWindowFactory
from .groupwin import GroupWinFactory as GroupWinFactory
from .groupwin import GroupWinView as GroupWinView
from .keepall import KeepAllWindow as KeepAllWindow
from .keepall import KeepAllWindowFactory as KeepAllWindowFactory
from .lastevent import LastEventWindow as LastEventWindow
from .lastevent import LastEventWindowFactory as LastEventWindowFactory
from .length import LengthWindow as LengthWindow
from .length import LengthWindowFactory as LengthWindowFactory
from .length_batch import LengthBatchWindow as LengthBatchWindow
from .length_batch import LengthBatchWindowFactory as LengthBatchWindowFactory
from .rank import RankWindow as RankWindow
from .rank import RankWindowFactory as RankWindowFactory
from .registry import VIEW_FACTORIES as VIEW_FACTORIES
from .registry import create_factories as create_factories
from .registry import make_chain as make_chain
from .sort import SortWindow as SortWindow
from .sort import SortWindowFactory as SortWindowFactory
from .testing import SimulatedViewContext as SimulatedViewContext
from .time import TimeWindow as TimeWindow
from .time import TimeWindowFactory as TimeWindowFactory
from .time_accum import TimeAccumWindow as TimeAccumWindow
from .time_accum import TimeAccumWindowFactory as TimeAccumWindowFactory
from .time_batch import TimeBatchWindow as TimeBatchWindow
from .time_batch import TimeBatchWindowFactory as TimeBatchWindowFactory
from .time_length_batch import TimeLengthBatchWindow as TimeLengthBatchWindow
from .time_length_batch import TimeLengthBatchWindowFactory as TimeLengthBatchWindowFactory
from .unique import UniqueWindow as UniqueWindow
from .time_order import TimeOrderWindow as TimeOrderWindow
from .time_order import TimeOrderWindowFactory as TimeOrderWindowFactory
from .time_order import TimeToLiveWindowFactory as TimeToLiveWindowFactory
from .size import SizeView as SizeView
from .size import SizeViewFactory as SizeViewFactory
from .uni import UniView as UniView
from .uni import UniViewFactory as UniViewFactory
from .linest import LinestView as LinestView
from .linest import LinestViewFactory as LinestViewFactory
from .correl import CorrelView as CorrelView
from .correl import CorrelViewFactory as CorrelViewFactory
from .weighted_avg import WeightedAvgView as WeightedAvgView
from .weighted_avg import WeightedAvgViewFactory as WeightedAvgViewFactory
from .union import UnionWindow as UnionWindow
from .union import UnionFactory as UnionFactory
from .unique import UniqueWindowFactory as UniqueWindowFactory

__all__ = [
    "NOT_CONSTANT", "Events", "UpdateSink", "View", "ViewArg", "ViewContext", "ViewFactory",
    "ViewParameterError", "VIEW_FACTORIES", "create_factories", "make_chain",
    "SimulatedViewContext", "EXPR_BUILTIN_NAMES",
    "LengthWindow", "LengthWindowFactory", "LengthBatchWindow", "LengthBatchWindowFactory",
    "TimeWindow", "TimeWindowFactory", "TimeBatchWindow", "TimeBatchWindowFactory",
    "TimeLengthBatchWindow", "TimeLengthBatchWindowFactory", "TimeAccumWindow",
    "TimeAccumWindowFactory", "ExtTimedWindow", "ExtTimedWindowFactory", "ExtTimedBatchWindow",
    "ExtTimedBatchWindowFactory", "KeepAllWindow", "KeepAllWindowFactory", "UniqueWindow",
    "UniqueWindowFactory", "FirstUniqueWindow", "FirstUniqueWindowFactory", "FirstEventWindow",
    "FirstEventWindowFactory", "LastEventWindow", "LastEventWindowFactory", "FirstLengthWindow",
    "FirstLengthWindowFactory", "FirstTimeWindow", "FirstTimeWindowFactory", "SortWindow",
    "SortWindowFactory", "RankWindow", "RankWindowFactory", "GroupWinView", "GroupWinFactory",
    "ExprWindow", "ExprWindowFactory", "ExprBatchWindow", "ExprBatchWindowFactory",
    "TimeOrderWindow", "TimeOrderWindowFactory", "TimeToLiveWindowFactory", "SizeView",
    "SizeViewFactory", "UniView", "UniViewFactory", "LinestView", "LinestViewFactory",
    "CorrelView", "CorrelViewFactory", "WeightedAvgView", "WeightedAvgViewFactory",
    "UnionWindow", "UnionFactory",
]
