"""The harness a community CI pins, beside the referee: the real 0.1.16 (the npm `latest` tag)
installed from the npm registry.

`--harness-version 0.1.16` is refused up front, in one line, exit 2, before anything is cloned:
that release takes no `--requirements` and ships no requirement sets, read from the installed
package. Minutes: npm installs the release (and Node 22) once into the session's cache.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.e2e import Origin, Session, tier_check
from tiercheck.conformance.harness import provision
from tiercheck.referee.bundle import read_bundle
from tiercheck.referee.capability import fit
from tiercheck.referee.harvest import ask_fit
from tiercheck.revisions import known_revisions

pytestmark = [pytest.mark.integration, pytest.mark.slow]

OLD = "0.1.16"


def _clones(session: Session) -> dict[str, int]:
    """Every path under the session's clone cache with its modification time: the cache is shared
    with the other tests of the session, so a refusal is proven by leaving it exactly as it was."""
    root = session.cache / "repos"
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): p.lstat().st_mtime_ns for p in root.rglob("*")}


@pytest.fixture(scope="module")
def old_release(session: Session) -> Path:
    provision(session.cache, version=OLD)
    return session.cache


def test_the_real_0_1_16_is_read_from_its_package(old_release: Path) -> None:
    harness = provision(old_release, version=OLD)
    first, last = known_revisions()[0], known_revisions()[-1]
    reading = read_bundle(ask_fit(harness, [first, last]))
    assert "--requirements" not in reading.flags["server"]
    assert not reading.sets
    assert fit(reading, first).way == "spec-version"
    assert fit(reading, last).way is None


def test_harness_version_0_1_16_is_refused_up_front(
    session: Session, origin: Origin, old_release: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    before = _clones(session)
    run = tier_check(
        "--sdk",
        "sample-sdk",
        "--git-url",
        origin.url,
        "--skip-governance",
        "--no-history",
        "--harness-version",
        OLD,
        "--out",
        str(out),
        env=session.env(),
    )
    errors = [line for line in run.stderr.splitlines() if "error:" in line]
    assert run.returncode == 2, run.stderr
    assert len(errors) == 1, run.stderr
    assert f"harness {OLD} cannot run " in errors[0]
    assert "take no --requirements" in errors[0]
    assert "Traceback" not in run.stderr
    assert _clones(session) == before, "it cloned or fetched before refusing"
    assert not (out / "scorecard.json").exists()


def test_compare_harness_0_1_16_is_refused_where_it_runs_no_planned_revision(
    session: Session, origin: Origin, old_release: Path, tmp_path: Path
) -> None:
    last = known_revisions()[-1]
    out = tmp_path / "out"
    before = _clones(session)
    run = tier_check(
        "--sdk",
        "sample-sdk",
        "--git-url",
        origin.url,
        "--revision",
        last,
        "--skip-governance",
        "--no-history",
        "--compare-harness",
        OLD,
        "--out",
        str(out),
        env=session.env(),
    )
    errors = [line for line in run.stderr.splitlines() if "error:" in line]
    assert run.returncode == 2, run.stderr
    assert len(errors) == 1, run.stderr
    assert f"--compare-harness: harness {OLD} cannot run {last}: " in errors[0]
    assert "Traceback" not in run.stderr
    assert _clones(session) == before, "it cloned or fetched before refusing"
    assert not (out / "scorecard.json").exists()


def test_compare_harness_0_1_16_is_compared_where_it_can_run(
    session: Session, origin: Origin, old_release: Path, tmp_path: Path
) -> None:
    first, last = known_revisions()[0], known_revisions()[-1]
    out = tmp_path / "out"
    run = tier_check(
        "--sdk",
        "sample-sdk",
        "--git-url",
        origin.url,
        "--skip-governance",
        "--no-history",
        "--compare-harness",
        OLD,
        "--output",
        "json",
        "--out",
        str(out),
        env=session.env(),
    )
    assert run.returncode in {0, 1}, run.explain()
    assert f"harness {OLD} cannot run {last}" in run.stderr
    doc = run.doc
    block = doc["harness_comparison"]
    assert (block["version"], block["referee"]) == (OLD, doc["harness"]["version"])
    by_leg = {(leg["revision"], leg["leg"]): leg for leg in block["legs"]}
    for side in ("server", "client"):
        compared = by_leg[(first, side)]
        assert (compared["state"], compared["way"]) == ("compared", "spec-version"), compared
        assert compared["scenarios"] > 0
        assert 0 <= compared["agreed"] <= compared["scenarios"]
        assert any((out / "compare" / first / side).iterdir())
        left_out = by_leg[(last, side)]
        assert left_out["state"] == "not-compared"
        assert left_out["reason"].startswith(f"harness {OLD} cannot run {last}: ")
    kinds = {"scenario-absent", "check-added", "check-removed", "verdict-flipped"}
    for found in block["disagreements"]:
        assert found["revision"] == first
        assert found["kind"] in kinds
    # The referee's own results are where they always are, and scored as always.
    assert any((out / "raw" / first / "server").iterdir())
    assert doc["revisions"][first]["server"]["state"] == "measured"
