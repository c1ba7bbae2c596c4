"""The filter index: per event type, a tree of indexes routing each event to the statements,
pattern sub-expressions and context partitions whose filters it satisfies."""
from .planner import (
    Bound as Bound,
    Constant as Constant,
    FilterTemplate as FilterTemplate,
    ValueSource as ValueSource,
    plan_filter as plan_filter,
)
from .spec import (
    FilterOp as FilterOp,
    FilterParam as FilterParam,
    FilterSpec as FilterSpec,
)
from .codegen import STALE as STALE
from .tree import (
    NO_MATCH as NO_MATCH,
    FilterIndex as FilterIndex,
)
