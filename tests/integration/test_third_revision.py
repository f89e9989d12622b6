"""A third spec revision added as data alone (no change under tiercheck/): a copy of the
requirements folder (TIERCHECK_REQUIREMENTS) names a future `2026-12-15` on the stateless wire,
whose requirement set is the 2026-07-28 one and which the pinned harness runs as
`--requirements 2026-07-28` (its bundle has no 2026-12-15 set); a copy of known_sdks.yaml
(TIERCHECK_REGISTRY) makes the sample SDK claim it.

One assessment at the three revisions (probes included), then what reads it: every scorecard
format, the history record and `tier-check history`, the published dashboard and the claim.
Slow: a whole extra assessment (`.ci/run` runs it with `pytest -m slow`)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from junitparser import JUnitXml

from support.e2e import REPO, SNAPSHOT, Run, Session, copy_sample, tier_check

pytestmark = [pytest.mark.integration, pytest.mark.slow]

THREE = ("2025-11-25", "2026-07-28", "2026-12-15")
THIRD = """
  - name: "2026-12-15"
    wire: stateless
    released: "2026-12-15"
    released_source: a test's own revision (the next one is expected about 2026-12-15)
    harness: "0.2.0-alpha.12"
    harness_requirements: "2026-07-28"
"""


@dataclass(frozen=True)
class Assessed:
    run: Run
    out: Path
    history: Path
    sdk: Path
    env: dict[str, str]

    @property
    def doc(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.out / "scorecard.json").read_text())
        return data


@pytest.fixture(scope="module")
def assessed(session: Session, tmp_path_factory: pytest.TempPathFactory) -> Assessed:
    root = tmp_path_factory.mktemp("third-revision")
    data = root / "requirements"
    shutil.copytree(REPO / "requirements", data)
    (data / "revisions.yaml").write_text((data / "revisions.yaml").read_text() + THIRD)
    shutil.copy(data / "2026-07-28.yaml", data / "2026-12-15.yaml")
    registry = root / "known_sdks.yaml"
    text = (REPO / "known_sdks.yaml").read_text()
    claimed = 'revisions: ["2025-11-25", "2026-07-28"]\n  requires: [python3>=3.10]'
    assert text.count(claimed) == 1  # the sample SDK's entry
    text = text.replace(
        claimed,
        'revisions: ["2025-11-25", "2026-07-28", "2026-12-15"]\n  requires: [python3>=3.10]',
    )
    text = text.replace(
        "      expected_failures: expected-failures.2026-07-28.yml\n",
        "      expected_failures: expected-failures.2026-07-28.yml\n"
        '    "2026-12-15":\n'
        "      server:\n"
        "        command: .venv/bin/python server.py --port {port} --revision 2026-07-28\n"
        "      expected_failures: expected-failures.2026-07-28.yml\n",
        1,
    )
    registry.write_text(text)
    sdk = copy_sample(root / "sample-sdk")
    out = root / "report"
    history = root / "history.sqlite"
    env = session.env(TIERCHECK_REQUIREMENTS=str(data), TIERCHECK_REGISTRY=str(registry))
    run = tier_check(
        "--sdk-path",
        str(sdk),
        "--sdk",
        "sample-sdk",
        "--governance-snapshot",
        str(SNAPSHOT),
        "--history",
        str(history),
        *("--output", "json", "--output", "markdown", "--output", "junit", "--output", "html"),
        "--out",
        str(out),
        env=env,
    )
    assert run.returncode == 0, run.explain()
    return Assessed(run, out, history, sdk, env)


def test_a_third_revision_is_scored_at_its_own_set(assessed: Assessed) -> None:
    doc = assessed.doc
    assert tuple(doc["revisions"]) == THREE
    assert doc["requirements_revisions"] == list(THREE)
    # The third revision is the 2026-07-28 set run by the harness as 2026-07-28: same results.
    second, third = doc["revisions"]["2026-07-28"], doc["revisions"]["2026-12-15"]
    for leg in ("server", "client"):
        assert third[leg]["state"] == "measured"
        assert (third[leg]["passed"], third[leg]["total"]) == (
            second[leg]["passed"],
            second[leg]["total"],
        )
    log = (assessed.out / "raw" / "2026-12-15" / "server" / "harness.log").read_text()
    assert log  # the harness ran for it
    # Advisory probes ran against the third revision's server too (chosen by its wire).
    assert doc["revisions"]["2026-12-15"]["probes"]["results"]
    # The merged legs count all three revisions.
    merged = doc["checks"]["conformance"]
    assert merged["total"] == sum(doc["revisions"][r]["server"]["total"] for r in THREE)


def test_every_format_names_the_three_revisions(assessed: Assessed) -> None:
    suites = {s.name for s in JUnitXml.fromfile(str(assessed.out / "junit.xml"))}
    assert {f"{leg} {r}" for r in THREE for leg in ("server", "client")} <= suites
    for name in ("scorecard.md", "scorecard.html", "scorecard.txt"):
        text = (assessed.out / name).read_text()
        assert all(r in text for r in THREE), name
    assert "2026-12-15" in assessed.run.stdout  # the Markdown and HTML on stdout


def test_the_history_records_and_shows_three_revisions(assessed: Assessed) -> None:
    shown = tier_check(
        "history",
        "--sdk",
        "sample-sdk",
        "--history",
        str(assessed.history),
        "--output",
        "json",
        env=assessed.env,
    )
    assert shown.returncode == 0, shown.explain()
    data = json.loads(shown.stdout)
    assert tuple(data["revisions"]) == THREE
    (point,) = data["series"]
    assert set(point["pass_rate"]) == set(THREE)


def test_the_dashboard_publishes_three_revisions(assessed: Assessed, tmp_path: Path) -> None:
    site = tmp_path / "site"
    published = tier_check(
        "publish", "--history", str(assessed.history), "--out", str(site), env=assessed.env
    )
    assert published.returncode == 0, published.explain()
    line = json.loads((site / "api" / "v1" / "lines" / "sample-sdk.json").read_text())
    assert tuple(line["revisions"]) == THREE
    page = (site / "lines" / "sample-sdk.html").read_text()
    assert all(r in page for r in THREE)


def test_the_claim_splits_conformance_over_three_revisions(
    assessed: Assessed, tmp_path: Path
) -> None:
    out = tmp_path / "claim"
    claimed = tier_check(
        "claim",
        "--sdk-path",
        str(assessed.sdk),
        "--governance-snapshot",
        str(SNAPSHOT),
        "--from",
        str(assessed.out / "scorecard.json"),
        "--out",
        str(out),
        env=assessed.env,
    )
    assert claimed.returncode in (0, 1), claimed.explain()  # 1: the claimed tier is not met
    claim = json.loads((out / "claim.json").read_text())
    assert tuple(claim["requirements_revisions"]) == THREE
    assert tuple(claim["header"]["revisions"]) == THREE
    assessment = (out / "assessment.md").read_text()
    # The conformance row's split names each revision, as "30/30 @ 2025-11-25 + …".
    server = next(line for line in assessment.splitlines() if "Server conformance" in line)
    assert all(f"@ {r}" in server for r in THREE), server
    assert all(r in (out / "claim.html").read_text() for r in THREE)
