"""Issue 12, items 17–18 in a whole assessment: GitHub answers in the wrong shape and then hangs,
and the scorecard is still written, with the governance signals inconclusive.

Before the fix a malformed answer lost the whole scorecard. The real `tier-check` runs on a copy
of the sample SDK at one revision with the pinned harness, against the fake GitHub (real
PyGithub over a real socket) told to answer the issues listing with an object, label names
with nulls, and never to answer the releases; `--governance-deadline` bounds the wait.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

# `session`: the e2e suite's cache with the pinned harness provisioned once.
from support.e2e import Session, copy_sample, tier_check
from support.governance_fixtures import REPO, TOKEN, running

pytestmark = pytest.mark.integration


def test_a_broken_github_leaves_the_scorecard_written_and_governance_inconclusive(
    tmp_path: Path,
    session: Session,
) -> None:
    sdk = copy_sample(tmp_path / "sample-sdk")
    out = tmp_path / "out"
    with running() as fake:
        fake.reshape(rf"/repos/{REPO}/issues$", lambda _: {"message": "an object, not a list"})
        fake.reshape(r"/labels$", lambda items: [{**item, "name": None} for item in items])
        fake.hang(r"/releases$")
        run = tier_check(
            "--sdk-path", str(sdk), "--sdk", "sample-sdk", "--repo", REPO,
            "--revision", "2025-11-25", "--token", TOKEN, "--github-api-url", fake.url,
            "--governance-deadline", "5", "--out", str(out), "--output", "json",
            env=session.env(),
        )  # fmt: skip
    assert run.returncode in (0, 1), run.explain()
    assert "Traceback" not in run.stderr
    doc = json.loads((out / "scorecard.json").read_text(encoding="utf-8"))
    assert doc["revisions"]["2025-11-25"]  # the legs were measured and recorded
    checks = doc["checks"]
    for name in ("labels", "triage", "p0_resolution", "stable_release", "spec_tracking"):
        assert checks[name]["status"] == "inconclusive", (name, checks[name])
    assert doc["governance"]["source"] == "github"
