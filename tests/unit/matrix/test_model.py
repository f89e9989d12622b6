"""The matrix builder: rows from scorecards, unmeasured rows from reasons, and the change since
a previous matrix. Expected values are worked out by hand from the scorecards in
`tests/support/scorecards.py` (the scenarios listed there, counted)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from support.schema_check import conforms
from support.scorecards import (
    R1,
    R2,
    UNMEASURED,
    edited,
    mixed_scorecard,
    probe_entry,
    tier1_scorecard,
    with_regression,
)
from tiercheck.matrix.build import RowInput, build_matrix
from tiercheck.matrix.model import Matrix, ScenarioChange, TierChange
from tiercheck.model import from_json, to_json
from tiercheck.scorecard.model import ProbeRounds, ProbesBlock, Scorecard

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "tiercheck" / "schemas" / "matrix.schema.json").read_text("utf-8"))


def _row(card: Scorecard | None, row_id: str = "example-sdk@main", **kw: object) -> RowInput:
    fields: dict[str, object] = {
        "id": row_id,
        "sdk": row_id.split("@", maxsplit=1)[0],
        "repo": "example-org/example-sdk",
        "ref": "main",
        "claimed_revisions": (R1, R2),
        "scorecard": card,
        "folder": None if card is None else f"rows/{row_id}",
    }
    fields.update(kw)
    return RowInput(**fields)  # type: ignore[arg-type]


def _matrix(*rows: RowInput, previous: Matrix | None = None) -> Matrix:
    return build_matrix(
        rows,
        run_id="20260820T091500Z",
        started_at="2026-08-20T09:00:00Z",
        finished_at="2026-08-20T09:15:00Z",
        interrupted=False,
        previous=previous,
    )


def test_a_clean_row_has_full_scores_and_its_tier() -> None:
    row = _matrix(_row(tier1_scorecard(), claimed_tier=1)).rows[0]
    assert row.state == "measured"
    assert row.reason is None
    assert row.tier is not None
    assert (row.tier.official, row.tier.sep1730, row.tier.below_claim) == (1, 1, False)
    scores = [(c.revision, c.leg, c.state, c.passed, c.total) for c in row.legs]
    assert scores == [
        (R1, "server", "measured", 3, 3),
        (R1, "client", "measured", 1, 1),
        (R2, "server", "measured", 2, 2),
        (R2, "client", "measured", 2, 2),
    ]
    assert [s.scenario for s in row.legs[0].scenarios] == [
        "server-initialize",
        "tools-list",
        "tools-call-simple-text",
    ]
    assert {s.verdict for c in row.legs for s in c.scenarios} == {"passed"}
    assert row.blockers == ()
    assert row.commit == "3f9a2c41d7e0b5a8c6f1e2d3b4a59687c0d1e2f3"
    assert row.scorecard == "rows/example-sdk@main"
    # the scorecard's conformance half (141.2 s) and governance (3.1 s)
    assert row.duration_s == 144.3


def test_failed_not_scored_expected_and_unmeasured_stay_apart() -> None:
    row = _matrix(_row(mixed_scorecard(), claimed_tier=2)).rows[0]
    cells = {(c.revision, c.leg): c for c in row.legs}
    server = cells[(R1, "server")]
    # five scenarios, one not scored: four scored, three of them pass
    assert (server.passed, server.total) == (3, 4)
    verdicts = {s.scenario: s for s in server.scenarios}
    image = verdicts["tools-call-image"]
    assert image.verdict == "failed"
    assert image.check == "tools-call-image-content"
    assert image.message == "Expected content[0].type == 'image', got 'text' | mimeType missing"
    assert verdicts["json-schema-2020-12"].verdict == "not-scored"
    client = cells[(R1, "client")]
    assert (client.passed, client.total) == (2, 3)
    step_up = next(s for s in client.scenarios if s.scenario == "auth/scope-step-up")
    assert (step_up.verdict, step_up.expected_failure) == ("failed", True)
    unmeasured = cells[(R2, "client")]
    assert (unmeasured.state, unmeasured.reason) == ("unmeasured", UNMEASURED)
    assert (unmeasured.passed, unmeasured.total, unmeasured.scenarios) == (0, 0, ())
    assert row.tier is not None
    assert (row.tier.official, row.tier.claimed, row.tier.below_claim) == (3, 2, True)
    assert [(b.check, b.tier, b.kind) for b in row.blockers][:2] == [
        ("server_conformance", 1, "failed"),
        ("client_conformance", 1, "unmeasured"),
    ]


def test_a_row_without_a_scorecard_is_unmeasured_not_failed() -> None:
    matrix = _matrix(
        _row(tier1_scorecard()),
        _row(
            None,
            "dotnet-sdk@main",
            claimed_revisions=(R1,),
            runnable=False,
            reason="dotnet: not found on PATH (needs dotnet>=10)",
        ),
    )
    row = matrix.rows[1]
    assert (row.state, row.runnable, row.tier, row.exit_code) == ("unmeasured", False, None, None)
    assert row.reason == "dotnet: not found on PATH (needs dotnet>=10)"
    assert [(c.revision, c.leg, c.state) for c in row.legs] == [
        (R1, "server", "unmeasured"),
        (R1, "client", "unmeasured"),
        (R2, "server", "not-claimed"),
        (R2, "client", "not-claimed"),
    ]
    assert all(c.passed == c.total == 0 for c in row.legs)
    assert matrix.revisions == (R1, R2)


def test_changes_name_new_failures_fixes_and_tier_changes() -> None:
    clean = _matrix(_row(tier1_scorecard()))
    broken_card = with_regression(R2, "client", "request-metadata", "no _meta echoed")
    broken_card = edited(broken_card, lambda d: d["implied_tier"].update(tier=3))
    broken = _matrix(_row(broken_card), previous=clean)
    assert broken.changes is not None
    assert broken.changes.previous_run_id == "20260820T091500Z"
    assert broken.changes.new_failures == (
        ScenarioChange(
            row="example-sdk@main",
            revision=R2,
            leg="client",
            scenario="request-metadata",
            before="passed",
            after="failed",
        ),
    )
    assert broken.changes.fixes == ()
    # Both rows measured every leg, governance conclusive, one harness: a drop, a regression.
    assert broken.changes.tier_changes == (
        TierChange(row="example-sdk@main", before=1, after=3, dropped=True),
    )
    assert broken.changes.regressed_rows == ("example-sdk@main",)
    assert broken.changes.regressed

    healed = _matrix(_row(tier1_scorecard()), previous=broken)
    assert healed.changes is not None
    assert [(c.scenario, c.before, c.after) for c in healed.changes.fixes] == [
        ("request-metadata", "failed", "passed")
    ]
    assert healed.changes.new_failures == ()
    assert not healed.changes.regressed


def test_a_row_that_did_not_run_is_no_new_failure_but_its_legs_newly_unmeasured_regress() -> None:
    clean = _matrix(_row(tier1_scorecard()))
    gone = _matrix(_row(None, reason="the job left no scorecard"), previous=clean)
    assert gone.changes is not None
    assert (gone.changes.new_failures, gone.changes.fixes) == ((), ())
    assert gone.changes.tier_changes == (TierChange(row="example-sdk@main", before=1, after=None),)
    # Every leg measured before is unmeasured now: it may hide a failure, so it regressed.
    assert gone.changes.newly_unmeasured == tuple(
        f"example-sdk@main {r} {leg}" for r in (R1, R2) for leg in ("server", "client")
    )
    assert gone.changes.regressed
    # The row after it measured nothing starts no comparison: back again is no change.
    back = _matrix(_row(tier1_scorecard()), previous=gone)
    assert back.changes is not None
    assert not back.changes.regressed
    assert back.changes.tier_changes == (TierChange(row="example-sdk@main", before=None, after=1),)


def test_an_interrupted_scorecard_makes_an_interrupted_row_and_matrix() -> None:
    card = dataclasses.replace(tier1_scorecard(), interrupted=True)
    matrix = _matrix(_row(card))
    assert matrix.interrupted
    assert matrix.rows[0].state == "interrupted"


def test_the_document_validates_and_reads_back() -> None:
    matrix = _matrix(
        _row(mixed_scorecard(), claimed_tier=1),
        _row(None, "other@v1", runnable=False, reason="missing tool"),
        previous=_matrix(_row(tier1_scorecard())),
    )
    data = to_json(matrix)
    conforms(data, SCHEMA)
    assert from_json(Matrix, json.loads(json.dumps(data))) == matrix


def _with_race(rate: int, outcome: str) -> Scorecard:
    """Tier 1's document whose 2025-11-25 probes hold concurrent-ids only, at `rate` of 40."""
    entry = probe_entry(
        "concurrent-ids",
        outcome,
        "SHOULD",
        f"cross-wired in {rate} of 40 rounds",
        evidence=[f"duplicate ids: {rate} cross-wired"],
        rounds=ProbeRounds(bound=40, run=40, observed=rate),
    )
    block = ProbesBlock(url="http://127.0.0.1:1/mcp", revision=R1, duration_s=9.0, results=(entry,))
    card = tier1_scorecard()
    revisions = {**card.revisions, R1: dataclasses.replace(card.revisions[R1], probes=block)}
    return dataclasses.replace(card, revisions=revisions)


def test_rows_compare_probes_by_verdict_never_by_the_rate_of_a_race() -> None:
    # The same warn, seen in 3 rounds of 40 one night and in 37 the next, is the same row.
    low, high = _matrix(_row(_with_race(3, "warn"))), _matrix(_row(_with_race(37, "warn")))
    assert low.rows == high.rows
    (counts,) = low.rows[0].probes
    assert (counts.revision, counts.passed, counts.warned, counts.failed) == (R1, 0, 1, 0)
    assert "rounds" not in json.dumps(to_json(low))  # no raw count reaches the matrix
    # A verdict that does change changes the row.
    assert _matrix(_row(_with_race(0, "pass"))).rows != low.rows


def test_an_added_failing_scenario_is_not_a_new_failure() -> None:
    def add(data: dict[str, Any]) -> None:
        details = data["revisions"][R1]["server"]["details"]
        details.append({**details[0], "scenario": "server-session-lifecycle", "passed": False})

    changes = _matrix(
        _row(edited(tier1_scorecard(), add)), previous=_matrix(_row(tier1_scorecard()))
    ).changes
    assert changes is not None
    assert (changes.new_failures, changes.fixes, changes.incomparable) == ((), (), ())


def test_a_row_under_another_harness_is_incomparable_not_a_new_failure() -> None:
    broken = with_regression(R2, "client", "request-metadata", "no _meta echoed")
    other = edited(broken, lambda d: d["harness"].update(version="0.2.0-alpha.12"))
    matrix = _matrix(_row(other), previous=_matrix(_row(tier1_scorecard())))
    assert matrix.rows[0].harness_version == "0.2.0-alpha.12"
    assert matrix.changes is not None
    assert matrix.changes.incomparable == ("example-sdk@main",)
    assert matrix.changes.new_failures == ()
    assert not matrix.changes.regressed


def test_a_previous_matrix_without_harness_versions_still_reads() -> None:
    data = to_json(_matrix(_row(tier1_scorecard()), previous=_matrix(_row(tier1_scorecard()))))
    for row in data["rows"]:
        del row["harness_version"]
    del data["changes"]["incomparable"]
    old = from_json(Matrix, data)
    assert old.rows[0].harness_version is None
    assert old.changes is not None
    assert old.changes.incomparable == ()


def test_a_scenario_left_unmeasured_in_a_measured_leg_is_unmeasured_not_failed() -> None:
    def unmeasure(data: dict[str, Any]) -> None:
        entry = data["revisions"][R1]["server"]["details"][1]
        entry.update(passed=False, unmeasured="no checks.json")

    matrix = _matrix(
        _row(edited(tier1_scorecard(), unmeasure)), previous=_matrix(_row(tier1_scorecard()))
    )
    cell = matrix.rows[0].legs[0]
    assert (cell.state, [s.verdict for s in cell.scenarios]) == (
        "measured",
        ["passed", "unmeasured", "passed"],
    )
    assert matrix.changes is not None
    assert matrix.changes.new_failures == ()
