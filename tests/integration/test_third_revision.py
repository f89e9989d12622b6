"""A third spec revision added as data alone (no change under tiercheck/): a copy of the
requirements folder (TIERCHECK_REQUIREMENTS) names a future `2026-12-15` on the stateless wire,
whose requirement set is the 2026-07-28 one and which the pinned harness runs as
`--requirements 2026-07-28` (its bundle has no 2026-12-15 set); a copy of known_sdks.yaml
(TIERCHECK_REGISTRY) makes the sample SDK claim it. One assessment at the three revisions, with
every scorecard format and a history record."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from junitparser import JUnitXml

from support.e2e import REPO, SNAPSHOT, Session, copy_sample, tier_check

pytestmark = pytest.mark.integration

THREE = ("2025-11-25", "2026-07-28", "2026-12-15")
THIRD = """
  - name: "2026-12-15"
    wire: stateless
    released: "2026-12-15"
    released_source: a test's own revision (the next one is expected about 2026-12-15)
    harness: "0.2.0-alpha.12"
    harness_requirements: "2026-07-28"
"""


def test_a_third_revision_runs_through_every_format(session: Session, tmp_path: Path) -> None:
    data = tmp_path / "requirements"
    shutil.copytree(REPO / "requirements", data)
    (data / "revisions.yaml").write_text((data / "revisions.yaml").read_text() + THIRD)
    shutil.copy(data / "2026-07-28.yaml", data / "2026-12-15.yaml")
    registry = tmp_path / "known_sdks.yaml"
    text = (REPO / "known_sdks.yaml").read_text()
    text = text.replace(
        'revisions: ["2025-11-25", "2026-07-28"]\n  requires: [python3>=3.10]',
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
    sdk = copy_sample(tmp_path / "sample-sdk")
    out = tmp_path / "report"
    env = session.env(TIERCHECK_REQUIREMENTS=str(data), TIERCHECK_REGISTRY=str(registry))
    run = tier_check(
        "--sdk-path",
        str(sdk),
        "--sdk",
        "sample-sdk",
        "--governance-snapshot",
        str(SNAPSHOT),
        "--history",
        str(tmp_path / "history.sqlite"),
        "--probes",
        "none",
        *("--output", "json", "--output", "markdown", "--output", "junit", "--output", "html"),
        "--out",
        str(out),
        env=env,
    )
    assert run.returncode == 0, run.explain()
    doc = json.loads((out / "scorecard.json").read_text())
    assert tuple(doc["revisions"]) == THREE
    # The third revision is the 2026-07-28 set run by the harness as 2026-07-28: same results.
    second, third = doc["revisions"]["2026-07-28"], doc["revisions"]["2026-12-15"]
    for leg in ("server", "client"):
        assert third[leg]["passed"] == second[leg]["passed"]
        assert third[leg]["total"] == second[leg]["total"]
    log = (out / "raw" / "2026-12-15" / "server" / "harness.log").read_text()
    assert log  # the harness ran for it
    suites = {s.name for s in JUnitXml.fromfile(str(out / "junit.xml"))}
    assert {f"server {r}" for r in THREE} <= suites
    assert "2026-12-15" in (out / "scorecard.md").read_text()
    assert "2026-12-15" in (out / "scorecard.html").read_text()
