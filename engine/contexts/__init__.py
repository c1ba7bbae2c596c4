"""Contexts: keyed, hash and category segmented, non-overlapping and overlapping temporal,
and nested contexts; their partitions are created and ended at runtime, each running its
own instance of every statement declared with `context X`.

Runtime: may import engine.contracts, views, filterindex, epl.ast, epl.plans and the
runtime; never the compiler (epl/compiler/contexts.py compiles `create context` into plan
data, epl/plans/contexts.py, from which this package builds its controllers). This
`__init__` is the package's public face: inside our packages, import the defining modules."""
from epl.plans.contexts import ContextDefinition as ContextDefinition

from .partition import ContextRuntime as ContextRuntime, Partition as Partition
from .service import ContextService as ContextService, install as install
