"""Moved to engine.contracts.sandbox (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.sandbox as _moved

sys.modules[__name__] = _moved
