"""The PLY grammar of EPL, split by clause. `GRAMMAR_MODULES` lists the modules whose `p_`
functions together form the grammar; `precedence` and `start` are the table and the start
symbol."""
from . import contexts, creates, expressions, match_recognize, output, patterns, select, statements

GRAMMAR_MODULES = (expressions, select, output, patterns, creates, contexts, statements,
                   match_recognize)
precedence = expressions.precedence
start = statements.start

__all__ = ["GRAMMAR_MODULES", "precedence", "start"]
