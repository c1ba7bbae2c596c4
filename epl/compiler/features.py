"""The compiler's side of the features: the statement compilers of each statement kind
beyond select and create schema, and the expression compilers that register themselves when
their module loads. The Engine facade calls `install` next to each runtime package's own
`install` (which registers the runtime service)."""
from __future__ import annotations

from typing import Any

import epl.compiler.contexts as contexts
import epl.compiler.fireandforget as fireandforget
import epl.compiler.indexes as indexes
import epl.compiler.onactions as onactions
import epl.compiler.subqueries as subqueries  # noqa: F401  (`(select ...)`, exists, in, any/all)
import epl.compiler.tables as tables  # noqa: F401  (`T[key].column`, `T.column`)
import epl.compiler.variables as variables
import epl.compiler.windows as windows


def install(engine: Any) -> None:
    """Register the statement compilers in `engine.services['statements']` (by AST class
    name, as the statement compiler looks them up)."""
    statements = engine.services.setdefault("statements", {})
    statements["CreateVariable"] = variables.compile_create_variable
    statements["CreateWindow"] = windows.compile_create_window
    statements["CreateTable"] = windows.compile_create_table
    statements["OnStatement"] = onactions.compile_on
    statements["CreateIndex"] = indexes.compile_create_index
    statements["InsertValues"] = fireandforget.refuse_as_statement
    statements["DeleteStatement"] = fireandforget.refuse_as_statement
    statements.setdefault("UpdateStatement", fireandforget.refuse_as_statement)
    statements["CreateContext"] = contexts.compile_create_context
