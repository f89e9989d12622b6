"""A claim made from the scorecard of a `--compare-harness` run says, apart from every row,
where the SDK's CI harness and the referee disagree: in assessment.md, the claim page and
claim.json; a claim without it says nothing of it."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from support.scorecards import sample_scorecard
from tiercheck.claim.model import ClaimDocument
from tiercheck.cli.app import main
from tiercheck.document_files import atomic_write_text
from tiercheck.model import from_json
from tiercheck.scorecard.model import (
    ComparedLeg,
    HarnessComparison,
    HarnessDisagreement,
    Scorecard,
)
from tiercheck.scorecard.render.json_format import render_json

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "examples" / "sample-sdk"
REV = "2025-11-25"

BLOCK = HarnessComparison(
    version="0.1.16",
    referee="0.2.0-alpha.12",
    legs=(
        ComparedLeg(
            revision=REV,
            leg="client",
            state="compared",
            way="spec-version",
            reason=None,
            scenarios=12,
            agreed=11,
            results_dir="out/compare/2025-11-25/client",
        ),
    ),
    disagreements=(
        HarnessDisagreement(
            revision=REV,
            leg="client",
            scenario="sse-retry",
            kind="check-added",
            check="client-sse-retry-timing",
            referee="FAILURE",
            ci=None,
            message="Client reconnected too early <b>x</b>",
        ),
    ),
)


def _claim(tmp: Path, doc: Scorecard) -> Path:
    saved = atomic_write_text(tmp / "scorecard.json", render_json(doc))
    out = tmp / "claim"
    main(["claim", "--from", str(saved), "--sdk-path", str(SAMPLE), "--out", str(out)])
    return out


def test_the_claim_shows_the_comparison(tmp_path: Path) -> None:
    out = _claim(tmp_path, dataclasses.replace(sample_scorecard(), harness_comparison=BLOCK))
    body = (out / "assessment.md").read_text("utf-8")
    assert "## The CI's harness beside the referee" in body
    assert (
        "harness 0.1.16 against the referee 0.2.0-alpha.12: 1 of 1 legs compared, 11 of 12 "
        "scenarios alike; disagreements: 1 check-added."
    ) in body
    assert "client 2025-11-25: compared (with --spec-version), 11 of 12 scenarios alike." in body
    assert "<summary>1 disagreements, one row each</summary>" in body
    row = next(line for line in body.splitlines() if "`sse-retry`" in line)
    assert row.startswith("| 2025-11-25 | client | `sse-retry` | check-added |")
    assert "<b>" not in row  # the harness's message is text, never markup
    claim = from_json(ClaimDocument, json.loads((out / "claim.json").read_text("utf-8")))
    assert claim.harness_comparison == BLOCK
    page = next(out.glob("*.html")).read_text("utf-8")
    assert 'id="harness-comparison"' in page
    assert "<b>x</b>" not in page


def test_a_claim_without_it_says_nothing_of_it(tmp_path: Path) -> None:
    out = _claim(tmp_path, sample_scorecard())
    assert "beside the referee" not in (out / "assessment.md").read_text("utf-8")
    assert "harness_comparison" not in (out / "claim.json").read_text("utf-8")
