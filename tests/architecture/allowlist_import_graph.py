"""The import edges tests/architecture/test_import_graph.py still tolerates. The lists may only
shrink: the test fails on an edge that is gone (delete it here) and on any new upward edge or
new long cycle. Generated from the graph, then grouped by reason."""

ALLOWED: set[tuple[str, str]] = {
    # epl -> runtime: The compiler builds runtime objects (plans, services, aggregators, windows): to become
    # plan data the runtime turns into objects, or to move to engine/.
    # fire-and-forget selects run in the compiler (epl/compiler/fireandforget.py): RowsPlan.rows
    # makes their result-set processor there (make_processor)
    ("epl.compiler.rowselect", "engine.resultset.processors"),
    # the statement plan with `instantiate` (tests/engine/test_runtime_contract.py); its parts
    # (result set, output, join, subqueries) are epl/plans data
    ("epl.compiler.select", "engine.plan"),
}

# Modules on an import cycle of more than two modules (counting the edges above): none since
# the Runtime protocol moved to engine/contracts/runtime.py; the test keeps it so.
CYCLIC: set[str] = set()
