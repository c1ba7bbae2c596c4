"""The public names of the filterindex package."""
import filterindex


def test_public_names():
    names = set(filterindex.__all__)   # the names are imported lazily: __all__ lists them
    modules = {"codegen", "indexes", "planner", "semantics", "spec", "tree"}
    assert names - modules == {
        "Bound", "Constant", "FilterIndex", "FilterOp", "FilterParam", "FilterSpec",
        "FilterTemplate", "NO_MATCH", "STALE", "ValueSource",
    }
