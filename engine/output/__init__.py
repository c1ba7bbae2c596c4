"""Output rate limiting: `output [all|first|last|snapshot] every N events | every <period> |
at (crontab) | when <expr> [then set ...]`, `output after ...`, `output when terminated`.

`output_factory(clause, node, scope, collector, text)` (the compiler, epl/compiler/output.py)
compiles a statement's output clause into `make_output(ctx, emit, processor, iterate=None)`
(OutputPlan.make, engine/output/plan.py), which makes the limiter of one statement instance:
`deliver(new, old)` per result-set update, `stop()`, `terminated()` for the end of a context
partition, and `stand_in`, what the statement plumbing calls in the processor's place
(tap.py). A limiter combines a condition (when output is due) with a batch: an output mode
over a result-kind part (kinds.py, every.py, and the per-kind helpers). Crontab schedules
(`parse_crontab`, `next_occurrence`) are reusable.

The modules here are runtime: they import the contracts and epl.ast, never the compiler. This
`__init__` is the package's public face (names load on first use); nothing inside our packages
imports it."""
import typing as _typing

from engine.contracts.lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from engine.contracts.crontab import CrontabError as CrontabError
    from engine.contracts.crontab import CrontabSpec as CrontabSpec
    from engine.contracts.crontab import Every as Every
    from engine.contracts.crontab import Keyword as Keyword
    from engine.contracts.crontab import Range as Range
    from engine.contracts.crontab import WILDCARD as WILDCARD
    from engine.contracts.crontab import next_occurrence as next_occurrence
    from engine.contracts.crontab import parse_crontab as parse_crontab
    from engine.output.plan import OutputPlan as OutputPlan
    from engine.output.tap import ViewUpdate as ViewUpdate
    from epl.compiler.output import compile_output as compile_output
    from epl.compiler.output import output_factory as output_factory

__all__ = [
    "CrontabError", "CrontabSpec", "Every", "Keyword", "OutputPlan", "Range", "ViewUpdate",
    "WILDCARD", "compile_output", "next_occurrence", "output_factory", "parse_crontab",
]

# Where each public name is defined; a name is imported on first use, then cached in the
# module dict, so later lookups never reach __getattr__.
_ORIGIN = {
    "CrontabError": ("engine.contracts.crontab", "CrontabError"),
    "CrontabSpec": ("engine.contracts.crontab", "CrontabSpec"),
    "Every": ("engine.contracts.crontab", "Every"),
    "Keyword": ("engine.contracts.crontab", "Keyword"),
    "OutputPlan": ("engine.output.plan", "OutputPlan"),
    "Range": ("engine.contracts.crontab", "Range"),
    "ViewUpdate": ("engine.output.tap", "ViewUpdate"),
    "WILDCARD": ("engine.contracts.crontab", "WILDCARD"),
    "compile_output": ("epl.compiler.output", "compile_output"),
    "next_occurrence": ("engine.contracts.crontab", "next_occurrence"),
    "output_factory": ("epl.compiler.output", "output_factory"),
    "parse_crontab": ("engine.contracts.crontab", "parse_crontab"),
}


__getattr__, __dir__ = _lazy_exports(__name__, _ORIGIN, __all__)
