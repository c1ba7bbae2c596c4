"""Row pattern recognition (`match_recognize`), the public face: the matcher is a view at the
end of the stream's chain (views/match_recognize.py, its plan views/match_recognize_plan.py,
its automaton views/match_recognize_nfa.py, the ranking of competing matches
views/match_recognize_rank.py); the compiler is epl/compiler/rowrecog.py.

May import: views (this face only re-exports). Inside our packages, import the defining
modules."""
from views.match_recognize import MatchRecognizeFactory as MatchRecognizeFactory
from views.match_recognize import MatchRecognizeView as MatchRecognizeView
from views.match_recognize_nfa import RowNFA as RowNFA
from views.match_recognize_plan import PrevHolder as PrevHolder
from views.match_recognize_plan import RowRecogPlan as RowRecogPlan

__all__ = ["RowNFA", "RowRecogPlan", "PrevHolder", "MatchRecognizeFactory", "MatchRecognizeView"]
