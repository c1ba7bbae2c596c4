"""Moved to views.match_recognize_nfa (match_recognize is a view; the compiler builds its
automaton); this name keeps existing imports working."""
import sys

import views.match_recognize_nfa as _moved

sys.modules[__name__] = _moved
