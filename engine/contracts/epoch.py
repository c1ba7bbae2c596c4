"""The change counter the fused batch loops snapshot (engine/fused.py,
engine/contexts/keyed_fused.py): bumped whenever a statement's listeners or subscriber change,
an event type leaves its registry or a route of the filter index changes (its roots, or a
root's handles: filterindex/tree.py), so a loop tests one integer per event instead of
re-reading each thing it depends on. Process-wide: a change in another engine only makes a
loop look again, which is always correct. A contract: the filter index bumps it too."""
from __future__ import annotations


class Epoch:
    """The counter (a slot: one attribute read per test)."""

    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def __reduce__(self) -> str:
        # pickled (a checkpoint carrying a generated loop's globals) as the one counter
        return "EPOCH"


EPOCH = Epoch()


def bump(*_: object) -> None:
    """Something a batch loop may have snapshotted changed (any arguments are ignored: it
    also serves as a registry callback)."""
    EPOCH.n += 1
