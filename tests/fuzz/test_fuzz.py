"""The fuzzer's CI slice: hypothesis draws statements from the grammar (tests/fuzz/grammar.py)
and mutations of the conformance statements (tests/fuzz/mutate.py); every text compiles and
runs on a few random events without a non-EPL exception, or is refused with an EPLError.
FUZZ_EXAMPLES sets the number of examples per test (`make fuzz` runs the long one)."""
import logging
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.harness import run_generated, run_mutated

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "400"))
# always derandomized: the suite's slice is the same every run (exploring is `make fuzz`'s job)
_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                     suppress_health_check=list(HealthCheck))


def _check(outcome):
    assert outcome.kind != "crash", (
        f"{type(outcome.error).__name__} at {outcome.where} for {outcome.text!r}\n{outcome.trace}")


@_SETTINGS
@given(st.randoms(use_true_random=False))
def test_generated_statements(r):
    logging.disable(logging.CRITICAL)
    try:
        _check(run_generated(r))
    finally:
        logging.disable(logging.NOTSET)


@_SETTINGS
@given(st.randoms(use_true_random=False))
def test_mutated_conformance_statements(r):
    logging.disable(logging.CRITICAL)
    try:
        _check(run_mutated(r))
    finally:
        logging.disable(logging.NOTSET)
