"""Contexts: keyed, hash and category segmented, non-overlapping and overlapping temporal,
and nested contexts; their partitions are created and ended at runtime, each running its
own instance of every statement declared with `context X`.

Runtime: may import engine.contracts, views, filterindex, epl.ast and the runtime; never the
compiler (epl/compiler/contexts.py compiles `create context`). This `__init__` is the
package's public face: inside our packages, import the defining modules."""
from .partition import ContextRuntime as ContextRuntime, Partition as Partition
from .service import ContextDefinition as ContextDefinition, ContextService as ContextService, install as install
