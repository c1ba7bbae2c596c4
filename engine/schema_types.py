"""Moved to engine.contracts.schema_types (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.schema_types as _moved

sys.modules[__name__] = _moved
