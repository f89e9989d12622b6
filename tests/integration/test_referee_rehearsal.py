"""Release day rehearsed on the real releases from the npm registry (a `slow` test, minutes).

A tree pinned to 0.2.0-alpha.11 (this repository's runners/ and requirements/ with the pin
moved by hand, `support.referee_releases.tree_pinned_to`) is moved to 0.2.0-alpha.12 by the real
`tier-check referee update`: npm installs both releases into a fresh cache (`npm ci` from the
alpha.11 lock, which checks its integrity against the registry, then `npm install` from it),
tiercheck reads them, and the tree it writes must be today's, byte for byte. The report must
name what alpha.12 changed (its release notes, PR #503: the skills scenarios, RFC 8707
`resource` checks, the `tools/list` ordering check, per-scenario timeouts).

Then the official reading of governance, the pinned bundle's own, is asked again from the
harness the updated tree pins (installed with `npm ci` from the lock the update wrote) on
every dataset, and must still agree with tiercheck's (`support.official_governance`).

    .venv/bin/pytest -m slow tests/integration/test_referee_rehearsal.py -s   # prints the times
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from support.governance_datasets import all_cases
from support.official_governance import agreement_table, compare, run_all
from support.referee_releases import (
    RESOURCE_CHECKS,
    SKILLS_CLIENT,
    SKILLS_SERVER,
    TODAY,
    tree_pinned_to,
)
from tiercheck.cli import main
from tiercheck.conformance.harness import provision

# Two npm installs, two readings, one more `npm ci` and every governance dataset: minutes.
pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.timeout(2400)]

REPO = Path(__file__).resolve().parents[2]
ALPHA_11 = "0.2.0-alpha.11"
FILES = (
    "runners/package.json",
    "runners/package-lock.json",
    "requirements/revisions.yaml",
    "requirements/2025-11-25.yaml",
    "requirements/2026-07-28.yaml",
)


def test_alpha_11_to_alpha_12_on_the_real_releases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("TIERCHECK_CACHE", str(cache))
    tree = tree_pinned_to(tmp_path / "tree", ALPHA_11)

    began = time.monotonic()
    code = main(["referee", "update", "--harness", TODAY, "--root", str(tree)])
    took = time.monotonic() - began
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    for rel in FILES:
        assert (tree / rel).read_bytes() == (REPO / rel).read_bytes(), rel

    report = captured.out
    for name in SKILLS_SERVER:
        assert f"  server: added {name} [extension]\n" in report
    for name in SKILLS_CLIENT:
        assert f"  client: added {name} [extension]\n" in report
    assert "  server tools-list: + tools-list-deterministic-order\n" in report
    resource = ", ".join(f"+ {c}" for c in RESOURCE_CHECKS)
    assert f"  client auth/metadata-default: {resource}\n" in report
    assert "  `server`: new --timeout\n" in report
    assert "gone" not in report
    assert "BLOCKED" not in report
    assert "    wire: stateless, and the new release speaks stateless (2026-07-28)\n" in report
    assert "    wire: stateful, and the new release speaks stateful (2025-11-25)\n" in report

    # The official reading against the bundle the updated tree pins, on every dataset.
    began = time.monotonic()
    harness = provision(tmp_path / "pinned", runners=tree / "runners")
    assert harness.version == TODAY
    cases = all_cases()
    outcomes = run_all(harness, cases, tmp_path / "governance", workers=min(2, os.cpu_count() or 1))
    problems = [line for outcome in outcomes for line in compare(outcome)]
    assert not problems, agreement_table(outcomes) + "\n" + "\n".join(problems)
    with capsys.disabled():
        print(
            f"\n[referee rehearsal] update {took:.0f} s ({captured.err.strip().splitlines()[-1]});"
            f" official reading on {len(cases)} datasets {time.monotonic() - began:.0f} s"
        )
