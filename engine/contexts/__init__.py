"""Contexts: keyed, hash and category segmented, non-overlapping and overlapping temporal,
and nested contexts; their partitions are created and ended at runtime, each running its
own instance of every statement declared with `context X`."""
from .partition import ContextRuntime as ContextRuntime, Partition as Partition
from .service import ContextDefinition as ContextDefinition, ContextService as ContextService, install as install
