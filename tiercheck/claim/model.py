"""The claim document, typed: what `claim.json` holds, for other tools and for `--previous`.

Each class is one JSON object of `claim.json`, its fields in the order they are written.
`tiercheck.model` turns these into JSON and back, and `tiercheck/schemas/claim.schema.json` is
generated from them (`python -m tiercheck.document_schemas`). The claim's own builders return
these classes where a part of the claim is plain data (the header, the conformance split, the
baseline, …), so what the reports render is what the file records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from tiercheck.model import doc_field
from tiercheck.scorecard.model import HarnessComparison

__all__ = [
    "CLAIM_SCHEMA_VERSION",
    "BaselineFile",
    "BaselineItem",
    "BaselineSection",
    "Changes",
    "ClaimDocument",
    "ClaimHeader",
    "ClaimRowDoc",
    "CommandStep",
    "ConformanceSplit",
    "DisputedScenario",
    "DocsFeatureDoc",
    "DocsHitDoc",
    "DocumentationDoc",
    "EvidenceDoc",
    "FlakyScenario",
    "NotScoredTally",
    "PreviousAssessment",
    "RefereeChanged",
    "ReleaseRef",
    "Reproduce",
    "RowChange",
    "ScenarioChange",
    "ScenarioState",
    "SpecByDate",
    "SplitRow",
    "Tally",
    "Verdict",
    "WarningTally",
]

#: The schema version `claim.json` declares. 2: the header, typed rows and everything after.
CLAIM_SCHEMA_VERSION = 2

Verdict = Literal["pass", "fail", "needs review", "unmeasured", "inconclusive", "skipped", "n/a"]
ClaimStatus = Literal["ready", "needs review", "blocked"]


@dataclass(frozen=True, kw_only=True)
class ReleaseRef:
    """The release the assessed commit carries: the newest release tag in its history."""

    tag: str = doc_field(doc="the git tag, as written (v2.0.0, rmcp-v1.0.0)")
    version: str = doc_field(doc="the version the tag names (2.0.0)")
    stable: bool = doc_field(doc="a plain X.Y.Z with X ≥ 1 (SEP-1730's stable release)")
    commits_after: int | None = doc_field(
        doc="commits between the tag and the assessed commit (0: the commit is the release)"
    )
    published_at: str | None = doc_field(doc="when it was published, ISO-8601")
    published_source: str | None = doc_field(
        doc="where the date comes from: 'GitHub release' or 'git tag'"
    )
    url: str | None = doc_field(doc="the release page on GitHub")
    registry: str | None = doc_field(doc="the package registry (PyPI, npm, pkg.go.dev, …)")
    registry_url: str | None = doc_field(doc="the version's page on that registry")


@dataclass(frozen=True, kw_only=True)
class PreviousAssessment:
    """The assessment this claim follows: its issue, the tier it gave, its version and date."""

    url: str | None
    tier: int | None
    version: str | None = None
    date: str | None = None
    commit: str | None = None


@dataclass(frozen=True, kw_only=True)
class ClaimHeader:
    """What a reviewer reads first, as the filed claims give it."""

    title: str = doc_field(doc="'<Language> SDK — Tier N Assessment', the issue's title")
    language: str
    repo: str
    sdk: str = doc_field(doc="the SDK line (known_sdks.yaml name)")
    release: ReleaseRef | None = doc_field(doc="the release the commit carries, when one is found")
    newest_stable: str | None = doc_field(
        doc="the stable release the official check found on GitHub (scorecard `version`)"
    )
    branch: str | None
    commit: str | None
    date: str = doc_field(doc="the assessment date (YYYY-MM-DD)")
    timestamp: str
    requested_tier: int
    previous: PreviousAssessment | None
    harness: str = doc_field(doc="the conformance harness package")
    harness_version: str | None
    tiercheck_version: str
    revisions: tuple[str, ...] = doc_field(doc="the spec revisions scored")
    harness_definitions: Mapping[str, str] | None = doc_field(
        default=None,
        omit_none=True,
        doc="scenario → a digest of its definition in the harness (the scorecard's "
        "`harness.definitions`): what a later claim reads to say what a referee change changed",
    )


@dataclass(frozen=True, kw_only=True)
class Tally:
    """Scored scenarios passed of those run, in one revision (or across revisions)."""

    passed: int
    total: int
    state: str = doc_field(doc="measured, unmeasured, skipped or partially-measured")


@dataclass(frozen=True, kw_only=True)
class SplitRow:
    """One line of the conformance split: a leg (or part of the client leg) per revision."""

    name: str = doc_field(doc="server, client: core, client: auth, or client")
    by_revision: Mapping[str, Tally]
    all: Tally = doc_field(doc="every (scenario, revision) pair together")


@dataclass(frozen=True, kw_only=True)
class WarningTally:
    """WARNING checks in one scored scenario (they do not fail it: conformance#245 is open)."""

    leg: str
    revision: str
    scenario: str
    checks: int
    message: str | None


@dataclass(frozen=True, kw_only=True)
class NotScoredTally:
    """Scenarios run but not scored, by leg and reason: how many passed and failed."""

    leg: str
    reason: str
    passed: int
    failed: int


@dataclass(frozen=True, kw_only=True)
class DisputedScenario:
    """A scenario the disputes file names: run and shown; left out of SEP-1730's reading while
    its dispute is open (the official reading always counts it)."""

    leg: str
    revision: str
    scenario: str
    result: Literal["passed", "failed", "unmeasured"] = doc_field(doc="what the run measured")
    scored: bool = doc_field(doc="whether the requirement set scores it")
    state: Literal["open", "resolved"] = doc_field(
        doc="open: left out of the SEP-1730 reading; resolved: it counts again"
    )
    verified: bool = doc_field(doc="whether the governance snapshot confirmed the state")
    issue: str = doc_field(doc="the dispute's issue or pull request URL")
    reason: str = doc_field(doc="the reviewed one-line reason from the disputes file")
    title: str | None = doc_field(default=None, doc="the issue's title (untrusted)")


@dataclass(frozen=True, kw_only=True)
class FlakyScenario:
    """A scored scenario that failed beside other work and passed when run again by itself:
    counted as passed in the official and SEP-1730 readings, never shown as a plain pass."""

    leg: str
    revision: str
    scenario: str
    first: str = doc_field(doc="how it failed beside other work: its first failing check")
    duration_s: float = doc_field(doc="seconds the run by itself took")


@dataclass(frozen=True, kw_only=True)
class ConformanceSplit:
    """Rows 1a and 1b as the filed claims split them: per revision, client core vs auth."""

    revisions: tuple[str, ...]
    rows: tuple[SplitRow, ...]
    warnings: tuple[WarningTally, ...] = doc_field(doc="scored scenarios with WARNING checks")
    not_scored: tuple[NotScoredTally, ...]
    disputed: tuple[DisputedScenario, ...] = doc_field(
        default=(), doc="scenarios the disputes file names, open or resolved on the day judged"
    )
    flaky: tuple[FlakyScenario, ...] = doc_field(
        default=(),
        optional=True,
        doc="scored scenarios that failed beside other work and passed by themselves",
    )


@dataclass(frozen=True, kw_only=True)
class BaselineFile:
    """An expected-failures file applied, and the revisions it was applied at."""

    path: str = doc_field(doc="as configured (relative to the checkout unless absolute)")
    revisions: tuple[str, ...]
    legs: tuple[str, ...] = doc_field(
        default=(), doc="the legs it was applied to (server, client; empty in older claims)"
    )
    url: str | None = doc_field(doc="the file at the assessed commit")
    entries: int = doc_field(doc="entries it lists (server and client)")


@dataclass(frozen=True, kw_only=True)
class BaselineItem:
    """One baseline entry (or one failure no entry covers), over the revisions it applies to."""

    entry: str | None = doc_field(doc="the entry as written (scenario or scenario:check)")
    leg: str
    scenario: str
    revisions: tuple[str, ...]
    outcome: str = doc_field(doc="expected-failure, unexpected-failure, stale or not-run")
    scored: bool = doc_field(doc="whether the scenario counts toward the tier at these revisions")
    reason: str | None = doc_field(doc="the file's comment for the entry: why it is expected")
    detail: str = doc_field(doc="what the run found (the failing check, or why it did not run)")
    url: str | None = doc_field(doc="the entry's line at the assessed commit")


@dataclass(frozen=True, kw_only=True)
class BaselineSection:
    """The expected-failures baseline: every entry with its reason, and what does not fit it."""

    files: tuple[BaselineFile, ...]
    items: tuple[BaselineItem, ...]
    expected_failures: int
    unexpected_failures: int
    stale: int

    @property
    def empty(self) -> bool:
        """Whether no file lists an entry and nothing failed outside one: the baseline is none."""
        return not self.items


@dataclass(frozen=True, kw_only=True)
class CommandStep:
    """One command to run, what it does, and the revision it is for (None: every one)."""

    what: str
    command: str
    revision: str | None = None


@dataclass(frozen=True, kw_only=True)
class Reproduce:
    """How to get the same figures again: tiercheck's command, then the official harness's."""

    tiercheck: tuple[CommandStep, ...]
    harness: tuple[CommandStep, ...] = doc_field(
        doc="per revision: build, start the server, run the server and client legs"
    )
    notes: tuple[str, ...]


ScenarioStateName = Literal["passed", "failed", "unmeasured"]


@dataclass(frozen=True, kw_only=True)
class ScenarioState:
    """One scenario of one leg at one revision, as this claim measured it."""

    revision: str
    leg: str
    scenario: str
    state: ScenarioStateName
    scored: bool
    disputed: bool = doc_field(
        default=False,
        optional=True,
        doc="an open dispute left it out of SEP-1730's reading on the claim's governance day",
    )


@dataclass(frozen=True, kw_only=True)
class RowChange:
    """A row whose finding or verdict differs from the previous assessment's."""

    id: str
    requirement: str
    before: str | None = doc_field(doc="what the previous assessment found (null: no such row)")
    after: str
    verdicts_before: Mapping[str, Verdict]
    verdicts_after: Mapping[str, Verdict]


@dataclass(frozen=True, kw_only=True)
class ScenarioChange:
    """A scored scenario added, removed, or whose verdict changed since the previous one."""

    revision: str
    leg: str
    scenario: str
    before: ScenarioStateName | None
    after: ScenarioStateName | None


@dataclass(frozen=True, kw_only=True)
class RefereeChanged:
    """What the referee changed since the previous assessment (`comparison.referee_change`)."""

    date: str = doc_field(doc="the first assessment under the new harness (YYYY-MM-DD)")
    harness_before: str
    harness_after: str
    added: tuple[str, ...] = doc_field(doc="scenarios listed now, not before")
    changed: tuple[str, ...] = doc_field(doc="scenarios whose recorded definition differs")
    unknown: tuple[str, ...] = doc_field(
        doc="scenarios listed by both whose definition one of them did not record"
    )


@dataclass(frozen=True, kw_only=True)
class Changes:
    """What changed since the previous assessment (`--previous claim.json|scorecard.json`)."""

    source: str = doc_field(doc="the file compared with")
    kind: Literal["claim", "scorecard"]
    commit: str | None
    date: str | None
    rows: tuple[RowChange, ...] = doc_field(
        doc="rows whose finding or verdict changed (a scorecard has no judgment rows to compare)"
    )
    added: tuple[ScenarioChange, ...] = doc_field(doc="scored now, not before")
    removed: tuple[ScenarioChange, ...] = doc_field(doc="scored before, not now")
    now_passing: tuple[ScenarioChange, ...] = doc_field(doc="scored in both: failed, now passed")
    now_failing: tuple[ScenarioChange, ...] = doc_field(doc="scored in both: passed, now failed")
    other: tuple[ScenarioChange, ...] = doc_field(
        doc="to or from unmeasured (a scenario, or every scored one of a leg that changed state)"
    )
    incomparable: bool = doc_field(
        default=False,
        optional=True,
        doc="the previous assessment ran another harness version: no scenario was compared",
    )
    referee: RefereeChanged | None = doc_field(
        default=None,
        omit_none=True,
        doc="what the referee changed since the previous assessment, when it ran another "
        "harness version (both recorded): said instead of any regression",
    )


SpecTrackStatus = Literal[
    "by the release date", "after the release date", "no stable release", "not determined"
]


@dataclass(frozen=True, kw_only=True)
class SpecByDate:
    """Whether a stable release supported the newest revision scored by that revision's
    release date, as reviewers judge spec tracking (conformance#167, #402; the Ruby review)."""

    revision: str
    spec_released: str = doc_field(doc="the spec revision's release date (YYYY-MM-DD)")
    spec_source: str = doc_field(doc="'GitHub release' or 'the revision's data'")
    release: str | None = doc_field(doc="the release tag the assessed commit carries")
    release_published: str | None = doc_field(doc="its publication date (YYYY-MM-DD)")
    commits_after: int | None
    days_after: int | None = doc_field(
        doc="days from the spec release to the SDK release (negative: before)"
    )
    within_six_months: bool | None = doc_field(doc="Tier 2's rule: within 6 months")
    status: SpecTrackStatus
    note: str


@dataclass(frozen=True, kw_only=True)
class EvidenceDoc:
    """One line of a row's evidence, with its link."""

    text: str
    url: str | None


@dataclass(frozen=True, kw_only=True)
class ClaimRowDoc:
    """One row of the official audit: standards and verdicts per tier (`tier1`, `tier2`, …)."""

    id: str
    requirement: str
    kind: Literal["measured", "judgment"]
    standards: Mapping[str, str]
    current: str
    verdicts: Mapping[str, Verdict]
    sep1730: Mapping[str, Verdict] | None = doc_field(
        doc="SEP-1730 as written, for measured rows (null for judgment rows)"
    )
    gap: str
    evidence: tuple[EvidenceDoc, ...]
    review: str | None = doc_field(
        default=None, omit_none=True, doc="what the reviewer checks before the row can pass"
    )


@dataclass(frozen=True, kw_only=True)
class DocsHitDoc:
    """A line of documentation or example that names a feature."""

    path: str
    line: int
    url: str | None
    kind: Literal["heading", "section", "mention", "example"] = doc_field(
        default="mention",
        doc="a heading naming it, a line in a section about it, a passing mention, an example",
    )
    section: str | None = doc_field(default=None, doc="the heading it sits under")


@dataclass(frozen=True, kw_only=True)
class DocsFeatureDoc:
    """One feature of the official list: where it is documented and shown, best first."""

    number: int | None
    name: str
    group: str
    finding: str = doc_field(doc="docs and example, docs only, example only, or no hit")
    doc_hits: int
    example_hits: int
    best_doc: DocsHitDoc | None = doc_field(doc="where the feature is documented (ranked first)")
    best_example: DocsHitDoc | None = doc_field(doc="the example that shows it (ranked first)")
    lifecycle: str | None = doc_field(
        doc="deprecated or removed at the targeted revision, and by what (its gap does not block)"
    )
    blocking: bool = doc_field(doc="whether a gap in this feature counts against the claim")
    where: tuple[DocsHitDoc, ...] = doc_field(doc="the best hits, documentation first")


@dataclass(frozen=True, kw_only=True)
class DocumentationDoc:
    """Row 5's coverage: every feature, and the files read."""

    covered: int
    total: int
    core_missing: tuple[int, ...]
    non_blocking: tuple[int, ...] = doc_field(
        doc="features with no hit that the spec deprecated or removed by the targeted revision"
    )
    revision: str | None = doc_field(doc="the revision the features are judged against")
    docs_ref: str | None = doc_field(doc="the ref the documentation was read at (--docs-ref)")
    docs_commit: str | None = doc_field(doc="the commit the documentation was read at")
    doc_files: int
    example_files: int
    features: tuple[DocsFeatureDoc, ...]


@dataclass(frozen=True, kw_only=True)
class ClaimDocument:
    """A tiercheck claim: every row of the official audit for one tier, with its evidence."""

    schema_version: int
    header: ClaimHeader
    repo: str
    sdk: str
    commit: str | None
    timestamp: str
    requirements_revisions: tuple[str, ...]
    target_tier: int
    tiers: tuple[int, ...] = doc_field(doc="the two tiers judged, in the table's column order")
    status: ClaimStatus
    implied_tier: int
    sep1730_tier: int
    scorecard: str | None = doc_field(doc="the scorecard.json the claim was built from")
    rows: tuple[ClaimRowDoc, ...]
    conformance: ConformanceSplit
    baseline: BaselineSection
    reproduce: Reproduce
    spec_by_date: SpecByDate | None = doc_field(
        doc="spec tracking as reviewers judge it (null: no revision scored)"
    )
    changes: Changes | None = doc_field(doc="against --previous, when one was given")
    documentation: DocumentationDoc | None
    scenarios: tuple[ScenarioState, ...] = doc_field(
        doc="every scenario run, for the next claim's --previous"
    )
    harness_comparison: HarnessComparison | None = doc_field(
        default=None,
        omit_none=True,
        doc="the scorecard's --compare-harness block: where the SDK's CI harness and the referee "
        "disagree, per scenario (never part of a verdict or the tier)",
    )
