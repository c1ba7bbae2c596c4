"""Moved to engine.contracts.bean (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.bean as _moved

sys.modules[__name__] = _moved
