"""Rows 1a and 1b split as the filed claims split them, on the sample SDK's two revisions.

Hand-worked expectations. The sample passes 30/30 and 37/37 server scenarios, 18/18 and 32/32
client scenarios (examples/sample-sdk/README.md). Reading the client lists of
`tiercheck/_data/requirements/`: at 2025-11-25 four are not `auth/…` (initialize, tools_call,
elicitation-sep1034-client-defaults, sse-retry) and fourteen are; at 2026-07-28 seven are not
(tools_call, request-metadata, sep-2322-client-request-state, http-standard-headers,
http-custom-headers, http-invalid-tool-headers, json-schema-ref-no-deref) and twenty-five are —
the same 4/4 + 7/7 core and 14/14 + 25/25 auth the filed Go claim (#3220) tabulates.
"""

from __future__ import annotations

from support.scorecards import R1, R2, sample_scorecard
from tiercheck.claim.conformance import conformance_split, split_text
from tiercheck.claim.markdown import render_assessment
from tiercheck.claim.pack import build_claim, claim_to_dict
from tiercheck.claim.table import Row
from tiercheck.scorecard.model import Scorecard


def _rows(doc: Scorecard) -> dict[str, Row]:
    return {row.id: row for row in build_claim(doc, target_tier=1, snapshot=None, tree=None).rows}


def test_each_revision_and_the_client_core_and_auth_parts() -> None:
    split = conformance_split(sample_scorecard())
    got = {
        row.name: (
            [(t.passed, t.total) for t in row.by_revision.values()],
            (row.all.passed, row.all.total),
        )
        for row in split.rows
    }
    assert got == {
        "server": ([(30, 30), (37, 37)], (67, 67)),
        "client: core": ([(4, 4), (7, 7)], (11, 11)),
        "client: auth": ([(14, 14), (25, 25)], (39, 39)),
        "client": ([(18, 18), (32, 32)], (50, 50)),
    }
    assert split.warnings == ()


def test_rows_1a_and_1b_give_the_total_and_each_revision() -> None:
    rows = _rows(sample_scorecard())
    assert rows["1a"].current == (
        "100%: 67/67 (30/30 @ 2025-11-25 + 37/37 @ 2026-07-28); no WARNING checks"
    )
    assert rows["1b"].current == (
        "100%: 50/50 (18/18 @ 2025-11-25 + 32/32 @ 2026-07-28); core 11/11, auth 39/39; "
        "no WARNING checks"
    )


def test_one_failing_auth_scenario_shows_in_its_revision_and_part() -> None:
    doc = sample_scorecard(failing={(R2, "client", "auth/iss-supported"): "no iss check"})
    rows = _rows(doc)
    # 49 of 50: 31 of 32 at 2026-07-28; the auth part 38 of 39; the core untouched.
    assert rows["1b"].current.startswith(
        "98%: 49/50 (18/18 @ 2025-11-25 + 31/32 @ 2026-07-28); core 11/11, auth 38/39;"
    )
    assert rows["1b"].verdicts == ("fail", "pass")  # the scorecard's blockers, hand-made
    split = {row.name: row for row in conformance_split(doc).rows}
    assert split_text(split["client: auth"]) == "38/39 (14/14 @ 2025-11-25 + 24/25 @ 2026-07-28)"


def test_warning_checks_are_counted_and_left_to_the_reviewer() -> None:
    doc = sample_scorecard(
        warned={(R2, "client", "auth/metadata-default"): 2, (R1, "server", "ping"): 1}
    )
    rows = _rows(doc)
    assert rows["1a"].current.endswith(
        "; 1 WARNING check in 1 scored scenario (not counted; conformance#245)"
    )
    assert rows["1b"].current.endswith(
        "; 2 WARNING checks in 1 scored scenario (not counted; conformance#245)"
    )
    # A warning never fails a scenario (the official pass rate ignores it)…
    assert rows["1a"].verdicts == ("pass", "pass")
    # …but whether it should is open, so the reviewer is asked.
    assert rows["1a"].review is not None
    assert "conformance#245" in rows["1a"].review
    claim = build_claim(doc, target_tier=1, snapshot=None, tree=None)
    text = render_assessment(claim)
    assert "- [ ] **1b Client conformance**: check that the 2 WARNING checks" in text
    warned = claim_to_dict(claim)["conformance"]["warnings"]
    assert [(w["leg"], w["revision"], w["scenario"], w["checks"]) for w in warned] == [
        ("server", R1, "ping", 1),
        ("client", R2, "auth/metadata-default", 2),
    ]


def test_the_split_table_in_the_assessment() -> None:
    text = render_assessment(
        build_claim(sample_scorecard(), target_tier=1, snapshot=None, tree=None)
    )
    assert "|  | 2025-11-25 | 2026-07-28 | All | Tier 1 | Tier 2 |" in text
    assert "| Server | 30/30 | 37/37 | 67/67 (100%) | PASS | PASS |" in text
    assert "| Client: core | 4/4 | 7/7 | 11/11 (100%) | — | — |" in text
    assert "| Client: auth | 14/14 | 25/25 | 39/39 (100%) | — | — |" in text
    assert "| Client total | 18/18 | 32/32 | 50/50 (100%) | PASS | PASS |" in text
    assert "WARNING checks: none in any scored scenario." in text
