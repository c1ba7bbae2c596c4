"""EPL front end: statement text to the typed AST (`epl.ast`, parser in epl/grammar), the
printer back to text, the compiler (epl/compiler) from AST to statement plans, and the plan
data (epl/plans) the runtime starts.

May import: engine.contracts, views (factories), filterindex (specs); never the runtime or
the Engine facade (tests/architecture)."""
import typing as _typing

from engine.contracts.lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    import epl.ast as ast
    from engine.contracts.errors import EPLError as EPLError
    from engine.contracts.errors import EPLSyntaxError as EPLSyntaxError
    from engine.contracts.errors import EPLValidationError as EPLValidationError
    from epl.parser import parse as parse
    from epl.parser import parse_expression as parse_expression
    from epl.parser import parse_module as parse_module
    from epl.printer import expr_text as expr_text
    from epl.printer import to_epl as to_epl

__all__ = [
    "ast", "EPLError", "EPLSyntaxError", "EPLValidationError", "parse", "parse_expression",
    "parse_module", "expr_text", "to_epl",
]

# Where each public name is defined; a name is imported on first use, then cached in the
# module dict, so later lookups never reach __getattr__.
_ORIGIN = {
    "ast": ("epl.ast", None),
    "EPLError": ("engine.contracts.errors", "EPLError"),
    "EPLSyntaxError": ("engine.contracts.errors", "EPLSyntaxError"),
    "EPLValidationError": ("engine.contracts.errors", "EPLValidationError"),
    "parse": ("epl.parser", "parse"),
    "parse_expression": ("epl.parser", "parse_expression"),
    "parse_module": ("epl.parser", "parse_module"),
    "expr_text": ("epl.printer", "expr_text"),
    "to_epl": ("epl.printer", "to_epl"),
}


__getattr__, __dir__ = _lazy_exports(__name__, _ORIGIN, __all__)
