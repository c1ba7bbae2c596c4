"""Moved to engine.contracts.timed (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.timed as _moved

sys.modules[__name__] = _moved
