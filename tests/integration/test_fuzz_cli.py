"""The fuzz test of issue 12: hostile inputs of every kind fed to the real CLI in a subprocess.

Strategies and the runner are in `tests/support/hostile.py`. The promise: no traceback, an
exit code in {0, 1, 2, 3}, and 2 with a short error for input known to be bad. Bounded in
examples (`TIERCHECK_FUZZ_EXAMPLES`, default 12 per kind) and in time
(`TIERCHECK_FUZZ_BUDGET_S` per kind, default 60 s: past it the remaining examples pass without
running), and derandomised so every CI run feeds the same inputs; set `TIERCHECK_FUZZ_RANDOM=1`
to explore new ones.

`EDGE_CASES` are run one by one on every run: values that decode but that no consumer can hold
(a number of hundreds of digits, a moment outside the calendar once in UTC, a lone surrogate),
each in a scorecard, a snapshot, a baseline, a registry, a matrix file or a flag.
"""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, given, settings

from support.hostile import EDGE_CASES, KINDS, Case, problems, run_case

EXAMPLES = int(os.environ.get("TIERCHECK_FUZZ_EXAMPLES", "12"))
BUDGET_S = float(os.environ.get("TIERCHECK_FUZZ_BUDGET_S", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,  # each example is a whole process: its time says nothing
    database=None,
    derandomize=not os.environ.get("TIERCHECK_FUZZ_RANDOM"),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _check(case: Case, started: float) -> None:
    if time.monotonic() - started > BUDGET_S:
        return  # the time bound: CI's two cores are shared, so stop feeding, never fail
    outcome = run_case(case)
    found = problems(case, outcome)
    assert not found, f"{found}: {list(case.argv)} {case.note}\n{outcome.stderr[-2000:]}"


# Minutes of processes: out of the README's test command, run by `.ci/run` (`pytest -m slow`).
@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_hostile_inputs_never_crash_the_cli(kind: str) -> None:
    started = time.monotonic()

    @FUZZ
    @given(KINDS[kind])
    def fuzz(case: Case) -> None:
        _check(case, started)

    fuzz()


@pytest.mark.parametrize("case", EDGE_CASES, ids=[c.note for c in EDGE_CASES])
def test_values_no_consumer_can_hold_are_one_line_and_exit_2(case: Case) -> None:
    outcome = run_case(case)
    assert not problems(case, outcome), f"{problems(case, outcome)}\n{outcome.stderr[-2000:]}"
    assert outcome.stderr.startswith("tier-check"), outcome.stderr
