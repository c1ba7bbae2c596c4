"""Moved to engine.contracts.epl_types (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.epl_types as _moved

sys.modules[__name__] = _moved
