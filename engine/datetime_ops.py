"""Moved to engine.contracts.datetime_ops (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.datetime_ops as _moved

sys.modules[__name__] = _moved
