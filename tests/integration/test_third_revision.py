"""A third spec revision added as data alone (no change under tiercheck/): a copy of the
requirements folder (TIERCHECK_REQUIREMENTS) names a future `2026-12-15` on the stateless wire,
whose requirement set is the 2026-07-28 one and which the pinned harness runs as
`--requirements 2026-07-28` (its bundle has no 2026-12-15 set); a copy of known_sdks.yaml
(TIERCHECK_REGISTRY) makes the sample SDK claim it.

One assessment at the three revisions, with every scorecard format (terminal too), the probes and
a history record; then what reads that assessment: `tier-check history`, `tier-check publish` and
`tier-check claim --from`. Expected scores are the sample's README (30/30 and 18/18 at 2025-11-25,
37/37 and 32/32 at 2026-07-28); the third revision is the 2026-07-28 set run as 2026-07-28, so it
scores what 2026-07-28 scores.

The probes at 2026-12-15 are chosen by its wire (stateless: every probe of 2026-07-28) and speak
the protocol version the harness speaks for it, 2026-07-28: the sample's `mcp` answers any version
it does not know with -32022 before any rule a probe checks.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from junitparser import JUnitXml

from support.e2e import REPO, SNAPSHOT, Run, Session, copy_sample, single_json, tier_check

# A whole extra assessment at three revisions: `.ci/run` runs it with the other `slow` tests.
pytestmark = [pytest.mark.integration, pytest.mark.slow]

THREE = ("2025-11-25", "2026-07-28", "2026-12-15")
THIRD_REVISION = THREE[2]
#: (passed, total) per revision and leg: the sample's README, the third as the second.
EXPECTED = {
    "2025-11-25": {"server": (30, 30), "client": (18, 18)},
    "2026-07-28": {"server": (37, 37), "client": (32, 32)},
    "2026-12-15": {"server": (37, 37), "client": (32, 32)},
}
THIRD = """
  - name: "2026-12-15"
    wire: stateless
    released: "2026-12-15"
    released_source: a test's own revision (the next one is expected about 2026-12-15)
    harness: "0.2.0-alpha.12"
    harness_requirements: "2026-07-28"
"""
SCHEMAS = REPO / "tiercheck" / "schemas"


@dataclass(frozen=True)
class Assessed:
    """The one assessment at three revisions, and what the later commands need."""

    run: Run
    out: Path
    history: Path
    env: dict[str, str]
    tmp: Path

    @property
    def doc(self) -> dict[str, Any]:
        return self.run.doc


def _valid(document: object, schema: str) -> None:
    validator = Draft202012Validator(json.loads((SCHEMAS / schema).read_text()))
    errors = [e.message for e in validator.iter_errors(document)]
    assert not errors, f"{schema}: {errors[:3]}"


def _tallies(by_revision: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {rev: (t["passed"], t["total"]) for rev, t in by_revision.items()}


@pytest.fixture(scope="module")
def assessed(session: Session, tmp_path_factory: pytest.TempPathFactory) -> Assessed:
    tmp = tmp_path_factory.mktemp("third-revision")
    data = tmp / "requirements"
    shutil.copytree(REPO / "requirements", data)
    (data / "revisions.yaml").write_text((data / "revisions.yaml").read_text() + THIRD)
    shutil.copy(data / "2026-07-28.yaml", data / "2026-12-15.yaml")
    registry = tmp / "known_sdks.yaml"
    text = (REPO / "known_sdks.yaml").read_text()
    claimed = 'revisions: ["2025-11-25", "2026-07-28"]\n  requires: [python3>=3.10]'
    assert text.count(claimed) == 1, "the sample's registry entry changed"
    three = 'revisions: ["2025-11-25", "2026-07-28", "2026-12-15"]\n  requires: [python3>=3.10]'
    text = text.replace(claimed, three)
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
    sdk = copy_sample(tmp / "sample-sdk")
    out = tmp / "report"
    history = tmp / "history.sqlite"
    env = session.env(TIERCHECK_REQUIREMENTS=str(data), TIERCHECK_REGISTRY=str(registry))
    formats = ("terminal", "json", "markdown", "junit", "html")
    run = tier_check(
        "--sdk-path",
        str(sdk),
        "--sdk",
        "sample-sdk",
        "--governance-snapshot",
        str(SNAPSHOT),
        "--history",
        str(history),
        "--probes",
        "all",
        *(arg for fmt in formats for arg in ("--output", fmt)),
        "--out",
        str(out),
        env=env,
    )
    assert run.returncode == 0, run.explain()
    return Assessed(run, out, history, env, tmp)


def test_a_third_revision_is_scored_in_every_format(assessed: Assessed) -> None:
    doc, out = assessed.doc, assessed.out
    _valid(doc, "scorecard.schema.json")
    assert tuple(doc["revisions"]) == THREE
    assert tuple(doc["requirements_revisions"]) == THREE
    for revision, legs in EXPECTED.items():
        for leg, (passed, total) in legs.items():
            entry = doc["revisions"][revision][leg]
            assert (entry["passed"], entry["total"]) == (passed, total), (revision, leg)
    # The harness ran for the third revision, given the set it stands on.
    log = (out / "raw" / THIRD_REVISION / "server" / "harness.log").read_text()
    assert log
    # JUnit: one suite per revision and leg, and the probes'.
    suites = {s.name for s in JUnitXml.fromfile(str(out / "junit.xml"))}
    assert {f"{leg} {r}" for r in THREE for leg in ("server", "client")} <= suites
    assert f"advisory probes {THIRD_REVISION}" in suites
    # Markdown, HTML and the terminal (stdout and scorecard.txt) show a row per revision and leg.
    terminal = (out / "scorecard.txt").read_text()
    assert assessed.run.stdout.startswith(terminal)  # then the other formats on stdout
    for revision, legs in EXPECTED.items():
        for leg, (passed, total) in legs.items():
            row = f"{revision} │ {leg:<6} │"
            lines = terminal.splitlines()
            assert any(row in line and f"{passed}/{total}" in line for line in lines)
    for name in ("scorecard.md", "scorecard.html"):
        text = (out / name).read_text()
        assert all(revision in text for revision in THREE), name


def test_the_probes_at_the_third_revision_follow_its_wire(assessed: Assessed) -> None:
    revisions = assessed.doc["revisions"]
    second, third = revisions["2026-07-28"]["probes"], revisions[THIRD_REVISION]["probes"]
    assert third["revision"] == THIRD_REVISION
    # The stateless wire's probes, all of them, as at 2026-07-28; none refused for its version.
    assert [r["probe"] for r in third["results"]] == [r["probe"] for r in second["results"]]
    assert {"version-mismatch", "unsupported-version", "request-state"} <= {
        r["probe"] for r in third["results"]
    }
    skipped = [(r["probe"], r["summary"]) for r in third["results"] if r["outcome"] == "skip"]
    assert not skipped
    # They speak the version the harness speaks for 2026-12-15.
    mismatch = next(r for r in third["results"] if r["probe"] == "version-mismatch")
    assert "[MCP-Protocol-Version: 2026-07-28]" in mismatch["evidence"][0]
    assert mismatch["outcome"] == "pass"  # -32020 with HTTP 400, as at 2026-07-28


def test_the_history_shows_three_revisions(assessed: Assessed) -> None:
    common = ("history", "--history", str(assessed.history), "--sdk", "sample-sdk")
    shown = tier_check(*common, env=assessed.env)
    assert shown.returncode == 0, shown.explain()
    header = next(line for line in shown.stdout.splitlines() if line.startswith("time "))
    assert header.split()[3:] == [part for r in THREE for part in (r, "server", r, "client")]
    as_json = tier_check(*common, "--output", "json", env=assessed.env)
    assert as_json.returncode == 0, as_json.explain()
    history = single_json(as_json.stdout)
    assert tuple(history["revisions"]) == THREE
    (run,) = history["series"]
    assert run["run_id"] == assessed.doc["tiercheck"]["run_id"]
    assert tuple(run["pass_rate"]) == THREE
    assert [r["revision"] for r in history["relegation"]] == [r for r in THREE for _ in (1, 2)]


def test_the_dashboard_publishes_three_revisions(assessed: Assessed) -> None:
    site = assessed.tmp / "site"
    published = tier_check(
        "publish", "--history", str(assessed.history), "--out", str(site), env=assessed.env
    )
    assert published.returncode == 0, published.explain()
    index = json.loads((site / "api" / "v1" / "index.json").read_text())
    line = json.loads((site / "api" / "v1" / "lines" / "sample-sdk.json").read_text())
    _valid(index, "dashboard_index.schema.json")
    _valid(line, "dashboard_line.schema.json")
    assert tuple(index["revisions"]) == tuple(line["revisions"]) == THREE
    (latest,) = index["lines"]
    (run,) = line["runs"]
    for legs in (latest["legs"], run["legs"]):
        got = {(leg["revision"], leg["leg"]): (leg["passed"], leg["total"]) for leg in legs}
        assert got == {(r, leg): pt for r, by_leg in EXPECTED.items() for leg, pt in by_leg.items()}
    page = (site / "lines" / "sample-sdk.html").read_text()
    assert all(revision in page for revision in THREE)


def test_the_claim_names_three_revisions_and_splits_conformance_by_each(
    assessed: Assessed,
) -> None:
    claim_dir = assessed.tmp / "claim"
    scorecard = assessed.out / "scorecard.json"
    made = tier_check("claim", "--from", str(scorecard), "--out", str(claim_dir), env=assessed.env)
    # The sample's snapshot blocks Tier 1 (tests/integration/test_claim_e2e.py): exit 1.
    assert made.returncode == 1, made.explain()
    claim = json.loads((claim_dir / "claim.json").read_text())
    _valid(claim, "claim.schema.json")
    assert tuple(claim["requirements_revisions"]) == THREE
    split = claim["conformance"]
    assert tuple(split["revisions"]) == THREE
    rows = {row["name"]: row for row in split["rows"]}
    for name, leg in (("server", "server"), ("client", "client")):
        want = {r: EXPECTED[r][leg] for r in THREE}
        assert _tallies(rows[name]["by_revision"]) == want
        total = tuple(sum(pt[i] for pt in want.values()) for i in (0, 1))
        assert (rows[name]["all"]["passed"], rows[name]["all"]["total"]) == total
    # The client's core and auth parts at the third revision are those at the second.
    for name in ("client: core", "client: auth"):
        by_revision = _tallies(rows[name]["by_revision"])
        assert by_revision[THIRD_REVISION] == by_revision["2026-07-28"]
    official = {row["id"]: row for row in claim["rows"]}
    assert (
        "104/104 (30/30 @ 2025-11-25 + 37/37 @ 2026-07-28 + 37/37 @ 2026-12-15)"
        in (official["1a"]["current"])
    )
    assert (
        "82/82 (18/18 @ 2025-11-25 + 32/32 @ 2026-07-28 + 32/32 @ 2026-12-15)"
        in (official["1b"]["current"])
    )
    assessment = (claim_dir / "assessment.md").read_text()
    assert "**Revisions scored**: 2025-11-25, 2026-07-28, 2026-12-15" in assessment
    assert "| 2025-11-25 | 2026-07-28 | 2026-12-15 | All |" in assessment
    page = (claim_dir / "claim.html").read_text()
    assert "37/37 @ 2026-12-15" in page
