"""The matrix document, typed: many SDK lines' assessments side by side, and what changed.

Each class is one JSON object of `matrix.json`, its fields in the order they are written.
`tiercheck.model` turns these into JSON and back, and `tiercheck/schemas/matrix.schema.json`
is generated from them (`python -m tiercheck.document_schemas`). A row holds what its scorecard
says, reduced to the grid a reader scans: tier, score per revision and leg, each scenario's
verdict and the first failing check. The row's whole scorecard sits in its own folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tiercheck.model import doc_field
from tiercheck.scorecard.model import BlockerEntry, HistoryTrendPoint

__all__ = [
    "CellState",
    "ChangesBlock",
    "LegCell",
    "Matrix",
    "MatrixRow",
    "ProbeCounts",
    "ScenarioCell",
    "ScenarioChange",
    "ScenarioVerdictName",
    "TierCell",
    "TierChange",
]

#: The schema version `matrix.json` declares (`tiercheck.schema_version`).
SCHEMA_VERSION = 1

#: A revision × leg of one row: measured; unmeasured (tried, could not: the reason says why);
#: skipped (the configuration chose not to run it); not-claimed (the line does not claim the
#: revision, so nothing was tried and nothing is owed).
CellState = Literal["measured", "unmeasured", "skipped", "not-claimed"]

#: One scenario of a measured leg. `unmeasured` is a scenario of a leg that was interrupted
#: or could not finish: it ran, or began to, but its verdict does not count as the SDK's.
#: `flaky` is a scored scenario that failed beside other work and passed when run again by
#: itself (`scoring.confirm_failure`): counted in the leg's `passed`, never shown as a pass.
ScenarioVerdictName = Literal["passed", "flaky", "failed", "not-scored", "unmeasured"]


@dataclass(frozen=True, kw_only=True)
class ScenarioCell:
    """One scenario's verdict in one row at one revision and leg."""

    scenario: str
    verdict: ScenarioVerdictName
    expected_failure: bool = doc_field(
        default=False, doc="the SDK's expected-failures baseline lists this failure"
    )
    check: str | None = doc_field(default=None, doc="the first failing check's id")
    message: str | None = doc_field(
        default=None,
        doc="the first failing check's message, or why the scenario failed; for a flaky one, "
        "how it failed beside other work and that it passed by itself",
    )
    disputed: bool = doc_field(
        default=False,
        optional=True,
        doc="an open dispute left it out of SEP-1730's reading on the run's governance day",
    )


@dataclass(frozen=True, kw_only=True)
class LegCell:
    """One leg at one revision of one row: its state, its score, its scenarios."""

    revision: str
    leg: Literal["server", "client"]
    state: CellState
    reason: str | None = doc_field(doc="why it is unmeasured, skipped or not claimed")
    passed: int = doc_field(doc="scored scenarios that passed")
    total: int = doc_field(doc="scored scenarios")
    flaky: int = doc_field(
        default=0,
        optional=True,
        doc="of the passed, scored scenarios that failed beside other work and passed when run "
        "again by themselves",
    )
    scenarios: tuple[ScenarioCell, ...] = doc_field(doc="every scenario run, by name")


@dataclass(frozen=True, kw_only=True)
class TierCell:
    """The tier the row's evidence implies, in the official reading and SEP-1730's."""

    official: int
    sep1730: int
    claimed: int | None = doc_field(doc="the tier the line claims (known_sdks.yaml), if any")
    below_claim: bool = doc_field(doc="the official tier is below the claimed one")
    governance_inconclusive: bool = doc_field(
        default=False,
        optional=True,
        doc="some governance signal could not be read (the tier is then not judged a drop)",
    )


@dataclass(frozen=True, kw_only=True)
class ProbeCounts:
    """The advisory probes against one revision's server, counted by outcome."""

    revision: str
    passed: int
    warned: int
    failed: int
    skipped: int


@dataclass(frozen=True, kw_only=True)
class MatrixRow:
    """One SDK line at one ref: what its assessment found, or why there is none."""

    id: str = doc_field(doc="the row's name, NAME@REF; unique in the matrix")
    sdk: str = doc_field(doc="the SDK line (a known_sdks.yaml name)")
    repo: str | None
    ref: str | None = doc_field(doc="the ref asked for")
    commit: str | None = doc_field(doc="the commit measured")
    runnable: bool = doc_field(doc="this machine had the row's tools (the doctor check)")
    state: Literal["measured", "unmeasured", "interrupted"] = doc_field(
        doc="measured: a scorecard; unmeasured: none, or no leg measured; interrupted: stopped"
    )
    reason: str | None = doc_field(doc="why the row is unmeasured or not runnable")
    tier: TierCell | None = doc_field(
        doc="the implied tier; null when nothing was assessed (no scorecard, or it measured "
        "nothing)"
    )
    blockers: tuple[BlockerEntry, ...] = doc_field(doc="every Tier 1 and Tier 2 blocker")
    legs: tuple[LegCell, ...] = doc_field(doc="every revision × leg, server first")
    probes: tuple[ProbeCounts, ...] = doc_field(doc="advisory probe outcomes per revision")
    scorecard: str | None = doc_field(
        doc="the row's scorecard folder, relative to the matrix's folder"
    )
    exit_code: int | None = doc_field(doc="the row's own exit code, as a single run gives it")
    duration_s: float | None = doc_field(doc="seconds the row's assessment took")
    trend: tuple[HistoryTrendPoint, ...] = doc_field(
        default=(),
        doc="the line's latest runs from its scorecard's history, this one last (the trend chart)",
    )
    harness_version: str | None = doc_field(
        default=None,
        optional=True,
        doc="the conformance harness version its scorecard ran (rows are compared only under one)",
    )
    requirements_digest: str | None = doc_field(
        default=None,
        optional=True,
        doc="a digest of the requirement sets its scorecard was scored against (a tier is "
        "compared only under the same ones)",
    )


@dataclass(frozen=True, kw_only=True)
class ScenarioChange:
    """A scenario newly failing or fixed since the previous matrix (`tiercheck.comparison`)."""

    row: str
    revision: str
    leg: str
    scenario: str
    before: ScenarioVerdictName | None = doc_field(doc="null: the scenario was not there")
    after: ScenarioVerdictName


@dataclass(frozen=True, kw_only=True)
class TierChange:
    """A row whose official implied tier differs from the previous matrix's."""

    row: str
    before: int | None = doc_field(doc="null: the row was not assessed before")
    after: int | None = doc_field(doc="null: the row is not assessed now")
    dropped: bool = doc_field(
        default=False, optional=True, doc="a tier drop by the one comparison rule (a regression)"
    )


@dataclass(frozen=True, kw_only=True)
class ChangesBlock:
    """What changed since `--previous`: new failures, fixes, tier changes."""

    previous_run_id: str
    new_failures: tuple[ScenarioChange, ...]
    fixes: tuple[ScenarioChange, ...]
    tier_changes: tuple[TierChange, ...]
    incomparable: tuple[str, ...] = doc_field(
        default=(),
        optional=True,
        doc="rows whose previous run used another harness version: no scenario was compared",
    )
    newly_unmeasured: tuple[str, ...] = doc_field(
        default=(),
        optional=True,
        doc="ROW REVISION LEG of each leg measured before and unmeasured now",
    )
    regressed_rows: tuple[str, ...] = doc_field(
        default=(),
        optional=True,
        doc="rows that regressed by the one comparison rule: a scenario newly failing, a tier "
        "drop or a leg newly unmeasured",
    )

    @property
    def regressed(self) -> bool:
        """Some row regressed (`regressed_rows`, decided by `tiercheck.comparison`)."""
        return bool(self.regressed_rows)


@dataclass(frozen=True, kw_only=True)
class MatrixTool:
    """This tool's facts: version, document schema version."""

    version: str
    schema_version: int


@dataclass(frozen=True, kw_only=True)
class Matrix:
    """A tiercheck matrix: SDK lines × spec revisions × legs, each row from its scorecard."""

    tiercheck: MatrixTool
    run_id: str
    started_at: str
    finished_at: str
    interrupted: bool = doc_field(doc="stopped before every row finished; rows left say so")
    revisions: tuple[str, ...] = doc_field(doc="the spec revisions, the grid's columns")
    rows: tuple[MatrixRow, ...]
    changes: ChangesBlock | None = doc_field(doc="the change since --previous, when given")

    def row(self, row_id: str) -> MatrixRow | None:
        """The row called `row_id`, or None."""
        return next((r for r in self.rows if r.id == row_id), None)
