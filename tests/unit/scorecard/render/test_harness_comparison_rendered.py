"""`--compare-harness`'s block in the terminal, Markdown and JSON reports: after everything
that bears on the tier, each leg compared or why not, every disagreement with its why; the
tier and the verdicts read exactly as without it."""

from __future__ import annotations

import dataclasses
import json

from support.scorecards import mixed_scorecard
from tiercheck.scorecard.model import ComparedLeg, HarnessComparison, HarnessDisagreement
from tiercheck.scorecard.render.json_format import parse_scorecard, render_json
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal

REV = "2025-11-25"

BLOCK = HarnessComparison(
    version="0.1.16",
    referee="0.2.0-alpha.12",
    legs=(
        ComparedLeg(
            revision=REV,
            leg="server",
            state="compared",
            way="spec-version",
            reason=None,
            scenarios=30,
            agreed=28,
            results_dir="out/compare/2025-11-25/server",
        ),
        ComparedLeg(
            revision="2026-07-28",
            leg="server",
            state="not-compared",
            way=None,
            reason="harness 0.1.16 cannot run 2026-07-28: it lists no scenario for 2026-07-28",
            scenarios=0,
            agreed=0,
            results_dir=None,
        ),
    ),
    disagreements=(
        HarnessDisagreement(
            revision=REV,
            leg="server",
            scenario="dns-rebinding-protection",
            kind="scenario-absent",
            check=None,
            referee="fail",
            ci=None,
            message=None,
        ),
        HarnessDisagreement(
            revision=REV,
            leg="server",
            scenario="tools-list",
            kind="verdict-flipped",
            check="schema",
            referee="fail",
            ci="pass",
            message="inputSchema is not 2020-12",
        ),
    ),
)


def _docs() -> tuple[object, object]:
    plain = mixed_scorecard()
    return plain, dataclasses.replace(plain, harness_comparison=BLOCK)


def test_terminal_says_it_after_the_tier() -> None:
    plain, compared = _docs()
    before = render_terminal(plain, color=False, width=200)  # type: ignore[arg-type]
    text = render_terminal(compared, color=False, width=200)  # type: ignore[arg-type]
    assert text.startswith(before.rstrip("\n"))
    added = text[len(before.rstrip("\n")) :]
    assert "Harness comparison: another harness's results, never part of the verdict" in added
    assert (
        "harness 0.1.16 against the referee 0.2.0-alpha.12: 1 of 2 legs compared, 28 of 30 "
        "scenarios alike; disagreements: 1 scenario-absent, 1 verdict-flipped"
    ) in added
    assert "server 2025-11-25: compared (with --spec-version), 28 of 30 scenarios alike" in added
    assert "server 2026-07-28: not compared: harness 0.1.16 cannot run 2026-07-28" in added
    assert "the referee runs it (fail); harness 0.1.16 left no result for it" in added
    assert "referee fail, harness 0.1.16 pass: check schema: inputSchema is not 2020-12" in added


def test_markdown_lists_every_disagreement() -> None:
    plain, compared = _docs()
    before = render_markdown(plain)  # type: ignore[arg-type]
    text = render_markdown(compared)  # type: ignore[arg-type]
    assert text.startswith(before.rstrip("\n"))
    added = text[len(before.rstrip("\n")) :]
    assert "## Harness comparison" in added
    assert "<summary>2 disagreements</summary>" in added
    assert (
        "| 2025-11-25 | server | `tools-list` | verdict-flipped | `schema` | fail | pass | "
        "inputSchema is not 2020-12 |"
    ) in added
    assert (
        "| 2025-11-25 | server | `dns-rebinding-protection` | scenario-absent | — | fail | — |"
    ) in added
    assert (
        "| Revision | Leg | Scenario | Disagreement | Check | Referee | 0.1.16 | Message |" in added
    )


def test_json_keeps_the_block_and_reads_it_back() -> None:
    plain, compared = _docs()
    data = json.loads(render_json(compared))  # type: ignore[arg-type]
    assert data["harness_comparison"]["disagreements"][1]["kind"] == "verdict-flipped"
    assert "harness_comparison" not in json.loads(render_json(plain))  # type: ignore[arg-type]
    again = parse_scorecard(render_json(compared))  # type: ignore[arg-type]
    assert again.harness_comparison == BLOCK
    # Nothing the tier reads moved.
    assert again.implied_tier == plain.implied_tier  # type: ignore[attr-defined]
    assert again.checks == plain.checks  # type: ignore[attr-defined]
