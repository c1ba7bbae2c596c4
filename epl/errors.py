"""EPL errors (syntax errors with line, column, the token near the error and what was
expected; validation errors naming what is wrong); they live in engine.contracts.errors,
re-exported here so existing imports keep working."""
from engine.contracts.errors import EPLError as EPLError
from engine.contracts.errors import EPLSyntaxError as EPLSyntaxError
from engine.contracts.errors import EPLValidationError as EPLValidationError
