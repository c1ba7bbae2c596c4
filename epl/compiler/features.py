"""The compiler's side of the features: the statement compilers of each statement kind
beyond select and create schema, and the expression compilers that register themselves when
their module loads. The Engine facade calls `install` next to each runtime package's own
`install` (which registers the runtime service)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import epl.ast as A
import epl.compiler.contexts as contexts
import epl.compiler.fireandforget as fireandforget
import epl.compiler.indexes as indexes
import epl.compiler.onactions as onactions
import epl.compiler.subqueries as subqueries  # noqa: F401  (`(select ...)`, exists, in, any/all)
import epl.compiler.tables as tables  # noqa: F401  (`T[key].column`, `T.column`)
import epl.compiler.variables as variables
import epl.compiler.windows as windows

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


def install(engine: "Runtime") -> None:
    """Register the statement compilers in the engine's feature registry, by AST class."""
    features = engine.features
    features.add_statement(A.CreateVariable, variables.compile_create_variable)
    features.add_statement(A.CreateWindow, windows.compile_create_window)
    features.add_statement(A.CreateTable, windows.compile_create_table)
    features.add_statement(A.OnStatement, onactions.compile_on)
    features.add_statement(A.CreateIndex, indexes.compile_create_index)
    # fire-and-forget forms given to `epl`: refused with Esper's message
    for form in (A.InsertValues, A.DeleteStatement, A.UpdateStatement):
        features.add_statement(form, fireandforget.refuse_as_statement)
    features.add_statement(A.CreateContext, contexts.compile_create_context)
