"""Every ```python block of README.md and docs/*.md runs: a page's blocks in order, in one
namespace (later blocks build on earlier ones), from the repository root; a `test_*`
function a block defines is run with the plugin's fixtures, as pytest would. A block whose
first line is `# needs: spark` runs only where pyspark and a Java runtime are installed,
`# needs: pandas` only where pandas is.
Internal working notes stay out of docs/; every page is in the site's navigation."""
from __future__ import annotations

import contextlib
import io
import re
import shutil
from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
HAVE_SPARK = find_spec("pyspark") is not None and find_spec("pyarrow") is not None and \
    shutil.which("java") is not None


def blocks(page: Path) -> list[str]:
    return BLOCK.findall(page.read_text())


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_code_blocks_run(page, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("EPL_DOCS_TMP", str(tmp_path))
    namespace: dict = {"__name__": "__docs__"}
    ran = 0
    for i, code in enumerate(blocks(page), 1):
        if code.startswith("# needs: spark") and not HAVE_SPARK:
            continue
        if code.startswith("# needs: pandas") and find_spec("pandas") is None:
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(code, f"{page.name} block {i}", "exec"), namespace)
            except Exception as e:
                raise AssertionError(f"{page.name}, python block {i} failed: {type(e).__name__}: {e}\n{code}") from e
        ran += 1
        for name in [n for n in namespace if n.startswith("test_") and callable(namespace[n])]:
            _run_test_function(namespace.pop(name))
    if page.name in ("README.md", "api.md", "testing.md"):
        assert ran >= 2, f"{page.name} should show working code"


def _run_test_function(fn) -> None:
    """A test written for the plugin, called with fresh fixtures."""
    import inspect

    from engine import Engine
    from engine.testing import Recorder, assert_deliveries, assert_streams
    engine = Engine(time="simulated", start_time=0)
    fixtures = {"epl_engine": engine,
                "epl_recorder": lambda *stmts: Recorder(*stmts, engine=engine),
                "epl_assert_streams": assert_streams, "epl_assert_deliveries": assert_deliveries}
    try:
        fn(**{p: fixtures[p] for p in inspect.signature(fn).parameters})
    finally:
        engine.close()


def test_readme_has_the_set_up_and_the_tour():
    text = (ROOT / "README.md").read_text()
    assert "make demo" in text and "make test" in text
    first = blocks(ROOT / "README.md")[0]
    assert len(first.strip().splitlines()) <= 12
    for topic in ("advance_time", "stop()", "destroy()", "deploy(", "undeploy()", "statement(",
                  "subscriber", "for row in", "engine.input(", "pipeline", "epl_engine"):
        assert topic in text, f"README should show {topic}"
    assert "../shared" not in text and "/work/" not in text


def test_no_internal_notes_in_docs_and_every_page_in_the_site():
    assert not (ROOT / "docs" / "helpers-common.md").exists()
    config = (ROOT / "mkdocs.yml").read_text()
    if "\nnav:" in config:       # an explicit nav must list every page
        for page in (ROOT / "docs").rglob("*.md"):
            assert page.relative_to(ROOT / "docs").as_posix() in config, f"{page.name} is not in the nav"
    assert (ROOT / "docs" / "index.md").exists()
