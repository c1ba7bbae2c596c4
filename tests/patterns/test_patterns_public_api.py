"""The public names of engine.patterns."""
from __future__ import annotations

import engine.patterns as P


def test_public_names():
    assert sorted(P.__all__) == sorted([
        "PatternPlan", "PatternService", "PatternRun", "compile_pattern", "install",
        "PatternLimit", "pattern_limit", "set_pattern_limit",
    ])
    for name in P.__all__:
        assert getattr(P, name) is not None


def test_install_is_idempotent():
    from engine import Engine
    e = Engine(time="simulated")
    P.install(e)
    service = e.services["patterns"]
    P.install(e)
    assert e.services["patterns"] is service
    e.close()
