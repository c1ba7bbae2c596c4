"""The test tree itself: pytest imports test modules by file name (no packages), so two
test files with the same name in different folders break collection for everyone."""
from __future__ import annotations

from collections import Counter
from pathlib import Path


def test_test_module_names_are_unique():
    names = Counter(p.name for p in Path(__file__).parent.rglob("*.py")
                    if p.name not in ("conftest.py", "__init__.py"))
    clashes = sorted(n for n, c in names.items() if c > 1)
    assert not clashes, f"rename these so each test module name is unique: {clashes}"


def test_public_api_of_each_package_is_explicit():
    import importlib

    names = ["engine", "epl", "filterindex", "views"]
    if importlib.util.find_spec("pyspark") and importlib.util.find_spec("pyarrow"):
        names.append("pipeline")   # needs the spark extra
    for pkg in map(importlib.import_module, names):
        assert pkg.__doc__, f"{pkg.__name__} needs a docstring saying what it is"
        exported = list(pkg.__all__)   # lazily imported names: __all__ lists them
        assert exported, pkg.__name__
