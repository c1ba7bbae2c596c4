"""Row pattern recognition (`match_recognize`) at runtime: the compiled automaton, the
matcher view per statement instance, and Esper's ranking of competing matches."""
from .nfa import RowNFA as RowNFA
from .plan import PrevHolder as PrevHolder, RowRecogPlan as RowRecogPlan
from .view import MatchRecognizeFactory as MatchRecognizeFactory, MatchRecognizeView as MatchRecognizeView

__all__ = ["RowNFA", "RowRecogPlan", "PrevHolder", "MatchRecognizeFactory", "MatchRecognizeView"]
