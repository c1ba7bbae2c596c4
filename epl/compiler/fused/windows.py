"""The data windows whose statements fuse through a fused sink (windows_sink.py) that takes
the window's updates, the window itself kept as built (also #length under a group by other
than a groupwin's, which shape.py decides)."""

# EPL view names (lower case) of a statement's one view
SINK_WINDOWS = frozenset({"time_batch", "length_batch", "time"})
