"""The official reading of governance is the pinned bundle's: both tools, same data, same moment.

Runs the unmodified 0.2.0-alpha.12 bundle (`tier-check --skip-conformance --output json`, with
the harness's Node 22 and `tests/support/official/preload.mjs`, the datasets one after the other
in a Node process per core, up to four: `official/each.mjs`) and `tier-check governance` on every
dataset of `governance_datasets.all_cases()` (seeded generated ones, hand-made edge cases per
rule, and the datasets our other tests use), all served by one fake GitHub, and demands that
every status, every official field and the implied tier (legs skipped, and both legs at 100%)
agree. There is no exceptions list.

The harness is provisioned into `TIERCHECK_CACHE` when set (so repeated runs reuse it), else
into a temporary cache for the session.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.governance_datasets import all_cases
from support.official_governance import agreement_table, compare, run_all
from tiercheck.conformance.harness import Harness, provision

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Harness:
    explicit = os.environ.get("TIERCHECK_CACHE")
    cache = Path(explicit) if explicit else tmp_path_factory.mktemp("tiercheck-cache")
    return provision(cache)


def test_every_status_field_and_tier_agrees_with_the_pinned_bundle(
    harness: Harness, tmp_path: Path
) -> None:
    cases = all_cases()
    assert len(cases) >= 60
    assert sum(case.kind == "generated" for case in cases) >= 30
    outcomes = run_all(harness, cases, tmp_path, workers=min(4, os.cpu_count() or 1))
    problems = [line for outcome in outcomes for line in compare(outcome)]
    assert not problems, agreement_table(outcomes) + "\n" + "\n".join(problems)
    # The datasets really do reach the interesting verdicts, so agreement is not vacuous.
    statuses = {
        (check, o.official["checks"][check]["status"])
        for o in outcomes
        for check in ("triage", "p0_resolution", "stable_release", "spec_tracking")
    }
    for wanted in (
        ("triage", "pass"),
        ("triage", "partial"),
        ("triage", "fail"),
        ("p0_resolution", "pass"),
        ("p0_resolution", "partial"),
        ("p0_resolution", "fail"),
        ("stable_release", "pass"),
        ("stable_release", "fail"),
        ("spec_tracking", "pass"),
        ("spec_tracking", "fail"),
        ("spec_tracking", "skipped"),
    ):
        assert wanted in statuses
    assert {o.official["implied_tier"]["tier"] for o in outcomes} >= {2, 3}
    assert {o.official_full["tier"] for o in outcomes} >= {1, 2, 3}
