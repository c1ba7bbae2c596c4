"""Moved to engine.contracts.scheduler (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.scheduler as _moved

sys.modules[__name__] = _moved
