"""EPL front end: parse statements into the typed AST (`epl.ast`) and print them back."""
from . import ast as ast
from .errors import (
    EPLError as EPLError,
    EPLSyntaxError as EPLSyntaxError,
    EPLValidationError as EPLValidationError,
)
from .parser import (
    parse as parse,
    parse_expression as parse_expression,
    parse_module as parse_module,
)
from .printer import expr_text as expr_text, to_epl as to_epl
