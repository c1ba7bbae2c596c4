"""Row pattern recognition (`match_recognize`) at runtime: the compiled automaton, the
matcher view per statement instance, and Esper's ranking of competing matches.

Runtime: may import engine.contracts, views, epl.ast and the runtime; never the compiler
(epl/compiler/rowrecog.py). This `__init__` is the package's public face: inside our
packages, import the defining modules."""
from .nfa import RowNFA as RowNFA
from .plan import PrevHolder as PrevHolder, RowRecogPlan as RowRecogPlan
from .view import MatchRecognizeFactory as MatchRecognizeFactory, MatchRecognizeView as MatchRecognizeView

__all__ = ["RowNFA", "RowRecogPlan", "PrevHolder", "MatchRecognizeFactory", "MatchRecognizeView"]
