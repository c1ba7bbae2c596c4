"""Moved to engine.contracts.crontab (the contracts layer: the compiler parses crontabs, the
runtime computes their next occurrence); this name keeps existing imports working."""
import sys

import engine.contracts.crontab as _moved

sys.modules[__name__] = _moved
