"""Moved to engine.contracts.signals (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.signals as _moved

sys.modules[__name__] = _moved
