"""Moved to engine.contracts.datetime_format (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.datetime_format as _moved

sys.modules[__name__] = _moved
