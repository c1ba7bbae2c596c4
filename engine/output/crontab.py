"""Old path of engine/contracts/crontab.py (crontab schedules, shared by `output at`,
`timer:at` and context conditions): re-exported for the callers that import it from here."""
from engine.contracts.crontab import (  # noqa: F401
    DEFAULT_TIMEZONE, WILDCARD, CrontabError, CrontabSpec, DayOperator, Every, Keyword, Param,
    Range, next_occurrence, parse_crontab)
