"""The data windows beyond #length whose statements fuse: through a fused sink
(windows_sink.py) that takes the window's updates, the window itself kept as built."""

# EPL view names (lower case) of a statement's one view
SINK_WINDOWS = frozenset({"time_batch", "length_batch", "time"})
