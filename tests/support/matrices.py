"""Matrix documents for the report tests, built through the real builder from the scorecards of
`scorecards.py`: a clean Tier 1 row, the same SDK with one server scenario broken (a message
with markup in it), the mixed row (an unmeasured leg), a row that claims 2025-11-25 only, and a
row whose toolchain is missing; the previous matrix holds the clean row alone."""

from __future__ import annotations

from support.scorecards import (
    R1,
    R2,
    mixed_scorecard,
    probed_scorecard,
    tier1_scorecard,
    with_regression,
)
from tiercheck.matrix.build import RowInput, build_matrix
from tiercheck.matrix.model import Matrix
from tiercheck.scorecard.model import Scorecard

BROKEN = "tools-list"
BROKEN_MESSAGE = "expected 3 tools, got <b>2</b> & none named echo"
MISSING = "dotnet 10 or newer is required, none found on PATH (install the .NET SDK)"


def row(
    row_id: str,
    card: Scorecard | None,
    *,
    claimed: tuple[str, ...] = (R1, R2),
    claimed_tier: int | None = None,
    reason: str | None = None,
) -> RowInput:
    sdk, _, ref = row_id.partition("@")
    return RowInput(
        id=row_id,
        sdk=sdk,
        repo=f"example-org/{sdk}",
        ref=ref or None,
        claimed_revisions=claimed,
        claimed_tier=claimed_tier,
        runnable=reason is None,
        reason=reason,
        scorecard=card,
        folder=None if card is None else f"rows/{row_id}",
    )


def matrix(
    *rows: RowInput, previous: Matrix | None = None, run_id: str = "20261202T030000Z"
) -> Matrix:
    return build_matrix(
        rows,
        run_id=run_id,
        started_at="2026-12-02T03:00:00Z",
        finished_at="2026-12-02T03:20:00Z",
        interrupted=False,
        previous=previous,
    )


def previous_matrix() -> Matrix:
    """Last night: both alpha rows clean."""
    return matrix(
        row("alpha-sdk@v1", tier1_scorecard()),
        row("alpha-sdk@v2", tier1_scorecard()),
        run_id="20261201T030000Z",
    )


def report_matrix() -> Matrix:
    """The five rows above, against the previous matrix."""
    return matrix(
        row("alpha-sdk@v1", probed_scorecard(), claimed_tier=1),
        row("alpha-sdk@v2", with_regression(R1, "server", BROKEN, BROKEN_MESSAGE), claimed_tier=1),
        row("mixed-sdk@main", mixed_scorecard()),
        row("old-sdk@v1.x", tier1_scorecard(), claimed=(R1,)),
        row("dotnet-sdk@main", None, claimed=(R1,), reason=MISSING),
        previous=previous_matrix(),
    )
