"""Moved to engine.contracts.event_types (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.event_types as _moved

sys.modules[__name__] = _moved
