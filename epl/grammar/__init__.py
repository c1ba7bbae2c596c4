"""The PLY grammar of EPL, split by clause. `GRAMMAR_MODULES` lists the modules whose `p_`
functions together form the grammar; `precedence` and `start` are the table and the start
symbol.

May import: engine.contracts, epl.ast and the lexer."""
import epl.grammar.contexts as contexts
import epl.grammar.creates as creates
import epl.grammar.expressions as expressions
import epl.grammar.match_recognize as match_recognize
import epl.grammar.output as output
import epl.grammar.params as params
import epl.grammar.patterns as patterns
import epl.grammar.select as select
import epl.grammar.statements as statements

GRAMMAR_MODULES = (expressions, select, output, patterns, creates, contexts, statements,
                   match_recognize, params)
precedence = expressions.precedence
start = statements.start

__all__ = ["GRAMMAR_MODULES", "precedence", "start"]
