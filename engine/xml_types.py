"""Moved to engine.contracts.xml_types (the contracts layer); this name keeps existing imports working."""
import sys

import engine.contracts.xml_types as _moved

sys.modules[__name__] = _moved
