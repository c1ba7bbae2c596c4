"""The public names of the filterindex package."""
import filterindex


def test_public_names():
    names = {n for n in vars(filterindex) if not n.startswith(("_", "@"))}   # @: pytest's assertion rewriting
    modules = {"codegen", "indexes", "planner", "semantics", "spec", "tree"}
    assert names - modules == {
        "Bound", "Constant", "FilterIndex", "FilterOp", "FilterParam", "FilterSpec",
        "FilterTemplate", "NO_MATCH", "STALE", "ValueSource", "plan_filter",
    }
