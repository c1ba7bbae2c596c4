"""`python -m bench.soak` runs its mixed statements and reports memory at each step."""
import io

from bench import soak


def test_soak_runs_and_reports_memory_per_step():
    out = io.StringIO()
    figures = soak.run(3000, 1000, out=out)
    assert [n for n, _ in figures] == [1000, 2000, 3000]
    assert all(mb > 0 for _, mb in figures)
    assert out.getvalue().count("rss") == 3
