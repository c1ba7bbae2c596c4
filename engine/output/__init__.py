"""Output rate limiting: `output [all|first|last|snapshot] every N events | every <period> |
at (crontab) | when <expr> [then set ...]`, `output after ...`, `output when terminated`.

`output_factory(clause, node, scope, collector, text)` compiles a statement's output clause into
`make_output(ctx, emit, processor, iterate=None)`, which makes the limiter of one statement
instance: `deliver(new, old)` per result-set update, `stop()`, `terminated()` for the end of
a context partition, and `stand_in`, what the statement plumbing calls in the processor's
place (tap.py). A limiter combines a condition (when output is due) with a batch: an output
mode over a result-kind part (kinds.py, every.py, and the per-kind helpers). Crontab schedules
(`parse_crontab`, `next_occurrence`) are reusable.
"""
from .crontab import (
    CrontabError as CrontabError,
    CrontabSpec as CrontabSpec,
    Every as Every,
    Keyword as Keyword,
    Range as Range,
    WILDCARD as WILDCARD,
    next_occurrence as next_occurrence,
    parse_crontab as parse_crontab,
)
from .factory import OutputPlan as OutputPlan, compile_output as compile_output, output_factory as output_factory
from .tap import ViewUpdate as ViewUpdate

__all__ = ["CrontabError", "CrontabSpec", "Every", "Keyword", "OutputPlan", "Range", "ViewUpdate",
           "WILDCARD", "compile_output", "next_occurrence", "output_factory", "parse_crontab"]
