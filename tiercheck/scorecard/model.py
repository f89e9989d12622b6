"""The scorecard document, typed: what one assessment measured, as every output reads it.

Each class is one JSON object of `scorecard.json`, its fields in the order they are written:
the official `tier-check --output json` fields first, with their official names, ours after.
`tiercheck.model` turns these into JSON and back, and `tiercheck/schemas/scorecard.schema.json`
is generated from them (`python -m tiercheck.document_schemas`). Formatters and the diff read
these objects, never a dict, so a saved scorecard re-renders exactly as it was first written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tiercheck.model import doc_field
from tiercheck.revisions import LEGS

__all__ = [
    "Artifacts",
    "BaselineApplied",
    "BaselineBlock",
    "BaselineEntry",
    "BlockerEntry",
    "BuildBlock",
    "CheckEntry",
    "Checks",
    "ComparedLeg",
    "ConfigEntry",
    "ConfirmationBlock",
    "ConfirmationEntry",
    "FirstRunEntry",
    "GovernanceBlock",
    "HarnessBlock",
    "HarnessComparison",
    "HarnessDisagreement",
    "HistoryBlock",
    "HistoryChange",
    "HistoryFlaky",
    "HistoryRelegation",
    "HistoryRun",
    "HistoryStreak",
    "HistoryTrendPoint",
    "HistoryUnaddressed",
    "ImpliedTierBlock",
    "LegCounts",
    "LegEntry",
    "LegSummaryEntry",
    "LegTiersBlock",
    "MergedLegEntry",
    "MissingRevision",
    "NotApplicableEntry",
    "NotScored",
    "ProbeEntry",
    "ProbeRounds",
    "ProbesBlock",
    "RemediationStep",
    "RevisionEntry",
    "ScenarioDispute",
    "ScenarioEntry",
    "Scorecard",
    "SdkBlock",
    "SdkRelease",
    "Sep1730Counts",
    "SepTierBlock",
    "SignalEntry",
    "ToolBlock",
    "ToolEntry",
    "UnmeasuredEntry",
]

LegStatus = Literal["pass", "partial", "fail", "skipped"]
LegStateName = Literal["measured", "skipped", "unmeasured"]
MergedStateName = Literal["measured", "partially-measured", "unmeasured", "skipped"]
SignalStatus = Literal["pass", "partial", "fail", "skipped", "inconclusive"]
BaselineOutcomeName = Literal["expected-failure", "unexpected-failure", "stale", "not-run"]
BlockerKind = Literal["failed", "unmeasured", "inconclusive", "skipped"]
RelegationStatus = Literal["clear", "at-risk", "relegation-due", "no-stable-run", "unmeasured"]
GroundStatus = Literal["none", "unaddressed", "inconclusive", "skipped", "not-recorded"]
ProbeOutcome = Literal["pass", "warn", "fail", "skip"]
ProbeLevel = Literal["MUST", "SHOULD"]
NotApplicableWhy = Literal["removed", "not-yet-introduced"]
DisagreementKind = Literal["scenario-absent", "check-added", "check-removed", "verdict-flipped"]
ComparedState = Literal["compared", "not-compared"]
AloneName = Literal["passed", "failed", "unmeasured"]
ResultName = Literal["passed", "flaky", "failed", "unmeasured"]


@dataclass(frozen=True, kw_only=True)
class CheckEntry:
    """A failing or warning check, collapsed by id: what a maintainer needs to act on it."""

    id: str
    status: str
    message: str
    spec_url: str | None


@dataclass(frozen=True, kw_only=True)
class NotScored:
    """Scenarios run but not counted toward the pass rate (official `not_scored`)."""

    total: int
    failed: int


@dataclass(frozen=True, kw_only=True)
class ScenarioDispute:
    """A scenario's dispute in the conformance repository, on the day judged."""

    state: Literal["open", "resolved"] = doc_field(
        doc="open: left out of the SEP-1730 reading that day; resolved: it counts again"
    )
    verified: bool = doc_field(
        doc="whether the governance snapshot confirmed the state (else the disputes file's dates)"
    )
    issue: str = doc_field(doc="the dispute's issue or pull request URL")
    reason: str = doc_field(doc="the reviewed one-line reason from the disputes file")
    why: str = doc_field(doc="how the state was decided")
    title: str | None = doc_field(
        default=None, omit_none=True, doc="the issue's title from the snapshot (untrusted)"
    )


@dataclass(frozen=True, kw_only=True)
class Sep1730Counts:
    """A leg's counts as SEP-1730 reads them: without the scenarios disputed that day."""

    status: LegStatus
    pass_rate: float
    passed: int
    failed: int
    total: int
    disputed: int = doc_field(doc="measured scenarios left out because their dispute is open")


@dataclass(frozen=True, kw_only=True)
class FirstRunEntry:
    """A scenario's result beside other work (a failure), kept once it was run again by itself."""

    passed: bool
    checks_passed: int
    checks_failed: int
    checks_warned: int = 0
    reason: str | None = doc_field(default=None, doc="a failure no failing check explains")
    failures: tuple[CheckEntry, ...] = ()
    results_path: str | None = None


@dataclass(frozen=True, kw_only=True)
class ConfirmationEntry:
    """A failure measured beside other work, run again by itself with nothing else of tiercheck
    running; the scenario's other fields are that run's, unless it measured nothing."""

    alone: AloneName = doc_field(
        doc="what the run by itself measured: passed (the scenario is flaky, counted as passed), "
        "failed (a failure), unmeasured (the failure stands unconfirmed, `reason` says why)"
    )
    duration_s: float = doc_field(doc="seconds the run by itself took")
    reason: str | None = doc_field(
        default=None, omit_none=True, doc="why the run by itself measured nothing"
    )
    first: FirstRunEntry = doc_field(doc="the result beside other work")


@dataclass(frozen=True, kw_only=True)
class ScenarioEntry:
    """One scenario of one leg at one revision, judged (an official `details` entry plus ours)."""

    scenario: str
    passed: bool
    checks_passed: int
    checks_failed: int
    revision: str
    not_scored_reason: str | None = doc_field(
        default=None, json="notScoredReason", omit_none=True, doc="why it runs but does not count"
    )
    checks_warned: int = doc_field(
        default=0,
        doc="WARNING (SHOULD-level) checks as written: never a change to `passed`, a pass rate "
        "or the tier (the harness's tier-check counts only SUCCESS and FAILURE)",
    )
    reason: str | None = doc_field(default=None, doc="a failure no failing check explains")
    failures: tuple[CheckEntry, ...] = ()
    warnings: tuple[CheckEntry, ...] = doc_field(
        default=(),
        doc="the WARNING checks, collapsed by id, apart from `failures`: they never change "
        "`passed`",
    )
    results_path: str | None = None
    baseline: BaselineOutcomeName | None = doc_field(
        default=None, omit_none=True, doc="the expected-failures baseline's outcome"
    )
    unmeasured: str | None = doc_field(
        default=None,
        omit_none=True,
        doc="why the SDK's answer was not measured (neither passed nor failed)",
    )
    dispute: ScenarioDispute | None = doc_field(
        default=None,
        omit_none=True,
        doc="its dispute, if the disputes file names it (open: not in the SEP-1730 reading)",
    )
    confirmation: ConfirmationEntry | None = doc_field(
        default=None,
        omit_none=True,
        doc="set when it failed beside other work and was run again by itself (absent: it "
        "passed, or ran by itself already)",
    )

    @property
    def flaky(self) -> bool:
        """Whether it failed beside other work and passed by itself (counted as passed)."""
        return self.confirmation is not None and self.confirmation.alone == "passed"

    @property
    def result(self) -> ResultName:
        """What a report shows: passed, flaky, failed or unmeasured (never confused)."""
        if not self.measured:
            return "unmeasured"
        if self.flaky:
            return "flaky"
        return "passed" if self.passed else "failed"

    @property
    def scored(self) -> bool:
        """Whether this scenario counts toward its leg's pass rate."""
        return not self.not_scored_reason

    @property
    def disputed(self) -> bool:
        """Whether an open dispute leaves it out of the SEP-1730 reading (never the official)."""
        return self.dispute is not None and self.dispute.state == "open"

    @property
    def measured(self) -> bool:
        """Whether the SDK's answer was measured (else `unmeasured` says why not)."""
        return self.unmeasured is None

    @property
    def outcome(self) -> Literal["passed", "failed", "unmeasured"]:
        """What the run measured: passed, failed, or unmeasured (neither)."""
        return "unmeasured" if not self.measured else "passed" if self.passed else "failed"

    @property
    def expected_failure(self) -> bool:
        """Whether an expected-failures baseline lists this scenario's failure."""
        return self.baseline == "expected-failure" and self.measured and not self.passed


@dataclass(frozen=True, kw_only=True)
class LegCounts:
    """The official conformance-result counts every leg object starts with."""

    status: LegStatus
    pass_rate: float
    passed: int
    failed: int
    total: int
    not_scored: NotScored
    error: str | None = doc_field(
        default=None, omit_none=True, doc="why it is not measured (official key)"
    )


#: Why a leg the harness ran is unmeasured all the same (`scoring.Diagnosis`).
DiagnosisName = Literal["not-a-conformance-server", "not-a-conformance-client"]
_DIAGNOSIS_DOC = (
    "set when the leg is unmeasured because what it ran against is no conformance server (it "
    "lists none of the fixtures the harness's scenarios call) or no conformance client (no "
    "check of any scenario succeeded); the reason names what is missing"
)


@dataclass(frozen=True, kw_only=True)
class LegSummaryEntry(LegCounts):
    """One revision's part of a merged leg: its counts without the scenario list."""

    leg: str
    revision: str
    state: LegStateName = "measured"
    reason: str | None = None
    diagnosis: DiagnosisName | None = doc_field(default=None, omit_none=True, doc=_DIAGNOSIS_DOC)
    checks_passed: int = 0
    checks_failed: int = 0
    warnings: int = doc_field(
        default=0,
        doc="WARNING (SHOULD-level) checks of the scored scenarios, as written: they change no "
        "verdict, pass rate or tier",
    )
    flaky: int = doc_field(
        default=0,
        optional=True,
        doc="scored scenarios that failed beside other work and passed when run again by "
        "themselves: counted in `passed`",
    )
    results_dir: str | None = None


@dataclass(frozen=True, kw_only=True)
class LegEntry(LegCounts):
    """One leg (server or client) at one revision: official conformance-result keys, then ours."""

    details: tuple[ScenarioEntry, ...] = ()
    leg: str
    revision: str
    state: LegStateName = "measured"
    reason: str | None = None
    diagnosis: DiagnosisName | None = doc_field(default=None, omit_none=True, doc=_DIAGNOSIS_DOC)
    checks_passed: int = 0
    checks_failed: int = 0
    warnings: int = doc_field(
        default=0,
        doc="WARNING (SHOULD-level) checks of the scored scenarios, as written: they change no "
        "verdict, pass rate or tier",
    )
    flaky: int = doc_field(
        default=0,
        optional=True,
        doc="scored scenarios that failed beside other work and passed when run again by "
        "themselves: counted in `passed`",
    )
    results_dir: str | None = None
    duration_s: float | None = doc_field(default=None, doc="seconds the leg took")

    @property
    def failing(self) -> tuple[ScenarioEntry, ...]:
        """Scored scenarios that failed (an unmeasured one did not fail)."""
        return tuple(d for d in self.details if d.scored and d.measured and not d.passed)

    @property
    def not_scored_details(self) -> tuple[ScenarioEntry, ...]:
        """Scenarios run but not counted."""
        return tuple(d for d in self.details if not d.scored)


@dataclass(frozen=True, kw_only=True)
class MissingRevision:
    """A revision whose part of a merged leg is not measured."""

    revision: str
    state: LegStateName
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class MergedLegEntry(LegCounts):
    """One leg across every revision assessed (the official `conformance` keys, then ours)."""

    details: tuple[ScenarioEntry, ...] = ()
    leg: str
    state: MergedStateName = "measured"
    reason: str | None = None
    conclusive: bool = True
    revisions: tuple[str, ...] = ()
    measured_revisions: tuple[str, ...] = ()
    missing_revisions: tuple[MissingRevision, ...] = ()
    checks_passed: int = 0
    checks_failed: int = 0
    warnings: int = doc_field(
        default=0,
        doc="WARNING (SHOULD-level) checks of the scored scenarios, as written: they change no "
        "verdict, pass rate or tier",
    )
    flaky: int = doc_field(
        default=0,
        optional=True,
        doc="scored scenarios that failed beside other work and passed when run again by "
        "themselves: counted in `passed`",
    )
    by_revision: Mapping[str, LegSummaryEntry] = doc_field(default_factory=dict)
    sep1730: Sep1730Counts | None = doc_field(
        default=None,
        omit_none=True,
        doc="the counts SEP-1730 reads, present when a scenario of the leg has a dispute",
    )

    @property
    def failing(self) -> tuple[ScenarioEntry, ...]:
        """Scored scenarios that failed, across revisions."""
        return tuple(d for d in self.details if d.scored and not d.passed)


@dataclass(frozen=True, kw_only=True)
class SignalEntry:
    """One governance signal: status and reason, then the signal's own numbers.

    The numbers (official fields first, then `sep1730` and `disagrees_with_official`) are the
    governance layer's to define; here they are kept as written.
    """

    status: SignalStatus
    reason: str | None
    facts: Mapping[str, Any] = doc_field(rest=True, default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        """One of the signal's numbers (`compliance_rate`, `missing`, …)."""
        return self.facts.get(key, default)

    @property
    def disagrees_with_official(self) -> bool:
        """Whether SEP-1730 as written reaches another verdict."""
        return bool(self.facts.get("disagrees_with_official"))

    @property
    def sep1730_status(self) -> str | None:
        """SEP-1730's verdict, when the signal records one."""
        sep = self.facts.get("sep1730")
        return str(sep.get("status", "?")) if isinstance(sep, Mapping) else None


@dataclass(frozen=True, kw_only=True)
class Checks:
    """The official `checks`: the two merged legs and the six governance signals."""

    conformance: MergedLegEntry
    client_conformance: MergedLegEntry
    labels: SignalEntry
    triage: SignalEntry
    p0_resolution: SignalEntry
    stable_release: SignalEntry
    policy_signals: SignalEntry
    spec_tracking: SignalEntry
    unaddressed_issues: SignalEntry | None = doc_field(
        default=None,
        omit_none=True,
        doc="SEP-1730's relegation rule: issues unaddressed for two months (no official check)",
    )

    def signal(self, name: str) -> SignalEntry:
        """The governance signal named `name` (an official check name)."""
        value = getattr(self, name)
        assert isinstance(value, SignalEntry)
        return value

    def merged(self, leg: str) -> MergedLegEntry:
        """The merged server or client leg."""
        return self.conformance if leg == "server" else self.client_conformance


@dataclass(frozen=True, kw_only=True)
class BlockerEntry:
    """One thing between the SDK and a tier, as data; `text` is its official name."""

    check: str = doc_field(doc="the official check: server_conformance, triage, labels, …")
    tier: int = doc_field(doc="the tier it blocks (1 or 2)")
    kind: BlockerKind = doc_field(doc="failed, unmeasured, inconclusive or skipped")
    qualifier: str | None = doc_field(doc="the rule's variant: '< 80%', '14 days', …")
    reason: str | None = doc_field(doc="why it could not be measured or was skipped")
    text: str = doc_field(doc="the official blocker string (tier1_blockers, tier2_blockers)")


@dataclass(frozen=True, kw_only=True)
class SepTierBlock:
    """The SEP-1730 reading of the same evidence."""

    tier: int
    blockers: tuple[str, ...]
    tier2_met: bool
    tier2_blockers: tuple[str, ...] = ()
    skipped_legs: tuple[str, ...] = ()
    blocker_details: tuple[BlockerEntry, ...] = ()


@dataclass(frozen=True, kw_only=True)
class LegTiersBlock:
    """The tier each side alone would earn, the other leg taken as 100% and governance as is."""

    server: int | None = doc_field(doc="the server side alone (official rules); null if skipped")
    client: int | None = doc_field(doc="the client side alone (official rules); null if skipped")
    sep1730_server: int | None = doc_field(doc="the server side alone, SEP-1730 as written")
    sep1730_client: int | None = doc_field(doc="the client side alone, SEP-1730 as written")


@dataclass(frozen=True, kw_only=True)
class ImpliedTierBlock:
    """The official `implied_tier` (same field names), then ours."""

    tier: int
    tier1_blockers: tuple[str, ...]
    tier2_met: bool
    note: str
    tier2_blockers: tuple[str, ...]
    sep1730: SepTierBlock
    disagrees_with_official: bool
    blocker_details: tuple[BlockerEntry, ...] = doc_field(
        default=(), doc="every Tier 1 and Tier 2 blocker as data"
    )
    leg_tiers: LegTiersBlock | None = doc_field(
        default=None,
        omit_none=True,
        doc="beside the tier, never instead of it: the tier each side alone would earn",
    )


@dataclass(frozen=True, kw_only=True)
class RemediationStep:
    """One action between the SDK and the next tier(s)."""

    blocker: str = doc_field(doc="the first blocker this action clears")
    for_tier: int = doc_field(doc="the lowest tier it is needed for")
    action: str = doc_field(doc="what to do")
    items: tuple[str, ...] = doc_field(doc="the evidence: scenarios, issues, files")
    unblocks: int = doc_field(doc="how many blockers it clears")


@dataclass(frozen=True, kw_only=True)
class ToolBlock:
    """This tool's own facts: version, document schema version and run id."""

    version: str
    schema_version: int
    run_id: str
    requirements_digest: str | None = doc_field(
        default=None,
        omit_none=True,
        doc="a digest of the requirement-set files the run was scored against: runs are "
        "compared only when it is the same (absent from scorecards older than it)",
    )


@dataclass(frozen=True, kw_only=True)
class SdkRelease:
    """The release the assessed commit carries, read from the checkout's own git tags."""

    tag: str = doc_field(
        doc="the release tag: the highest version among the tags in the "
        "commit's history (the highest stable one if there is one), read "
        "with the SDK's tag_prefix"
    )
    version: str = doc_field(doc="its version, the tag without its prefix (0.21.0)")
    stable: bool = doc_field(doc="whether the version is SEP-1730's stable X.Y.Z with X >= 1")


@dataclass(frozen=True, kw_only=True)
class SdkBlock:
    """The SDK assessed: line name, ref asked for, commit measured, where, how obtained."""

    name: str
    ref: str | None
    commit: str | None
    path: str | None
    origin: str | None
    tag: str | None = doc_field(
        default=None,
        omit_none=True,
        optional=True,
        doc="the tag the ref `stable` resolved to: the line's latest stable release",
    )
    registered: bool | None = doc_field(
        default=None,
        omit_none=True,
        optional=True,
        doc=(
            "whether the SDK is an entry of the registry used (false: configured by flags and "
            "TIERCHECK_* variables alone)"
        ),
    )
    release: SdkRelease | None = doc_field(
        default=None,
        omit_none=True,
        optional=True,
        doc=(
            "the release the assessed commit carries, read from the checkout's tags (absent: "
            "no git history, or no tag names a version); the top-level `version` stays the "
            "official reading from GitHub releases"
        ),
    )


@dataclass(frozen=True, kw_only=True)
class ToolEntry:
    """A tool the SDK's build needs: its version, and whether it came from PATH or the cache."""

    version: str | None
    source: str | None
    path: str | None


@dataclass(frozen=True, kw_only=True)
class NotApplicableEntry:
    """A scenario the harness lists for other revisions only: never run, scored or judged here."""

    scenario: str
    leg: str = doc_field(doc="the leg the harness lists it under: server or client")
    why: NotApplicableWhy = doc_field(
        doc="removed: listed for an earlier revision and not this one; not-yet-introduced: "
        "listed for later revisions only"
    )
    version: str = doc_field(doc="the revision it was removed in, or is introduced in")
    applies: tuple[str, ...] = doc_field(doc="the spec revisions the harness lists it for")
    source: str = doc_field(
        doc="where that was read: the harness and its command "
        "(harness 0.2.0-alpha.12: conformance list --server)"
    )


@dataclass(frozen=True, kw_only=True)
class HarnessBlock:
    """The pinned official harness that ran the legs, its Node runtime and the SDK's tools."""

    package: str
    version: str | None
    node_version: str | None
    tools: Mapping[str, ToolEntry] | None = doc_field(
        default=None, omit_none=True, doc="uv, pnpm, go, …: version and source (path or cache)"
    )
    definitions: Mapping[str, str] | None = doc_field(
        default=None,
        omit_none=True,
        doc="scenario → a digest of the checks the harness can emit for it, as read in its "
        "bundle: what says which scenarios a referee change changed (absent: not read)",
    )
    not_applicable: Mapping[str, tuple[NotApplicableEntry, ...]] | None = doc_field(
        default=None,
        omit_none=True,
        doc="revision → the scenarios of its legs the harness lists for other revisions only "
        "(removed before it, or not yet introduced), read from its `conformance list`: listed "
        "apart, never scored, never changing a verdict (absent: not read)",
    )


@dataclass(frozen=True, kw_only=True)
class ConfigEntry:
    """One resolved configuration value and the layer of the cascade it came from."""

    value: Any
    source: str


@dataclass(frozen=True, kw_only=True)
class ProbeRounds:
    """A probe that repeats a race: its rounds, up to a fixed bound, and the rate it saw.

    The verdict rests on any round that proved the race, never on the rate, which is reported
    beside it.
    """

    bound: int = doc_field(doc="the rounds the probe runs at most")
    run: int = doc_field(doc="the rounds it ran (fewer when its time bound ran out first)")
    observed: int = doc_field(doc="the rounds in which the race showed (a cross-wired answer)")


@dataclass(frozen=True, kw_only=True)
class ProbeEntry:
    """One advisory probe's verdict: pass, warn (a SHOULD broken), fail (a MUST broken), skip."""

    probe: str
    outcome: ProbeOutcome
    level: ProbeLevel = doc_field(doc="the strength of the rule the verdict rests on")
    summary: str = doc_field(doc="what was observed, or why it was skipped")
    evidence: tuple[str, ...] = doc_field(doc="the requests sent and what came back, trimmed")
    spec: str = doc_field(doc="the spec sentence the probe rests on")
    fix: str | None = doc_field(doc="what to change, when it warned or failed")
    duration_s: float
    rounds: ProbeRounds | None = doc_field(
        default=None, omit_none=True, doc="a probe that repeats a race: its rounds and the rate"
    )


@dataclass(frozen=True, kw_only=True)
class ProbesBlock:
    """The advisory probes run against one revision's server while it was up.

    Advisory: they change no score, tier or exit code (unless `--fail-on-probe`).
    """

    url: str
    revision: str
    duration_s: float
    results: tuple[ProbeEntry, ...]

    def of(self, outcome: str) -> tuple[ProbeEntry, ...]:
        """The results with `outcome`."""
        return tuple(r for r in self.results if r.outcome == outcome)


@dataclass(frozen=True, kw_only=True)
class RevisionEntry:
    """Both legs at one spec revision, the server's URL and the configuration used."""

    server: LegEntry
    client: LegEntry
    server_url: str | None = None
    config: Mapping[str, ConfigEntry] = doc_field(default_factory=dict)
    probes: ProbesBlock | None = doc_field(
        default=None, omit_none=True, doc="advisory probes against this revision's server"
    )


@dataclass(frozen=True, kw_only=True)
class BaselineEntry:
    """What the expected-failures baseline says of one entry or one uncovered failure."""

    outcome: BaselineOutcomeName
    leg: str
    revision: str
    scenario: str
    check: str | None
    entry: str | None
    where: str | None
    detail: str


@dataclass(frozen=True, kw_only=True)
class BaselineApplied:
    """One baseline file applied to one leg at one revision."""

    revision: str
    leg: str
    file: str = doc_field(doc="as configured: relative to the checkout unless absolute")


@dataclass(frozen=True, kw_only=True)
class BaselineBlock:
    """The expected-failures baseline applied: files, counts and every outcome."""

    exit_ok: bool
    files: Mapping[str, str] = doc_field(
        doc="revision → the files applied at it, comma-separated (`applied` says which leg)"
    )
    applied: tuple[BaselineApplied, ...] = doc_field(
        default=(), doc="each leg's baseline file at each revision"
    )

    def by_leg(self) -> dict[tuple[str, str], str]:
        """(revision, leg) → the file applied there (a scorecard older than `applied` applied
        its one file per revision to both legs)."""
        if self.applied:
            return {(a.revision, a.leg): a.file for a in self.applied}
        return {(rev, leg): path for rev, path in self.files.items() for leg in LEGS}

    expected_failures: int
    unexpected_failures: int
    stale: int
    entries: tuple[BaselineEntry, ...]


@dataclass(frozen=True, kw_only=True)
class BuildBlock:
    """The SDK's build: built, cached, skipped or failed, with its log."""

    state: str
    reason: str | None
    log: str | None
    duration_s: float | None = doc_field(default=None, omit_none=True)


@dataclass(frozen=True, kw_only=True)
class GovernanceBlock:
    """Where the governance facts came from and the moment they were judged at."""

    source: str
    as_of: str | None
    captured_at: str | None
    snapshot: str | None = None


@dataclass(frozen=True, kw_only=True)
class UnmeasuredEntry:
    """Something tiercheck tried to measure and could not, with the reason."""

    what: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class Artifacts:
    """Where the run's files are: the output folder, the raw results, the logs."""

    out_dir: str | None
    raw: str | None
    logs: Mapping[str, str]


@dataclass(frozen=True, kw_only=True)
class HistoryRun:
    """A stored run the history section refers to."""

    run_id: str
    timestamp: str
    commit: str | None
    tier: int


@dataclass(frozen=True, kw_only=True)
class HistoryChange:
    """A scenario whose verdict differs from the previous run's (measured on both sides)."""

    revision: str
    leg: str
    scenario: str
    before: str = doc_field(doc="pass or fail in the previous run")
    after: str = doc_field(doc="pass or fail in this run")


@dataclass(frozen=True, kw_only=True)
class HistoryStreak:
    """A scored scenario failing now: since when (the first failing run of the streak)."""

    revision: str
    leg: str
    scenario: str
    since: str = doc_field(doc="time of the first failing run of the current streak")
    since_run: str
    since_commit: str | None
    runs: int = doc_field(doc="measured failing runs in the streak (gaps not counted)")
    days: float = doc_field(doc="first to last measured failure, in days")
    check: str | None = doc_field(doc="the first failing check of the latest failure")
    flaky: bool = doc_field(default=False, doc="its verdict flipped on one commit and config")


@dataclass(frozen=True, kw_only=True)
class HistoryRelegation:
    """One SEP-1730 relegation rule at one claimed revision, judged over the history."""

    revision: str
    rule: str = doc_field(doc="tier1-to-tier2 (any required test) or tier2-to-tier3 (> 20%)")
    status: RelegationStatus
    since: str | None = doc_field(doc="first failing run of the streak the rule watches")
    since_commit: str | None
    due_on: str | None = doc_field(doc="the date relegation happens if the streak goes on")
    scenarios: tuple[str, ...] = doc_field(default=(), doc="the scenarios behind it")
    series: str = doc_field(
        default="stable",
        optional=True,
        doc="the runs judged: stable (the ref `stable`, SEP-1730's relegation clock) or branch "
        "(every other run: an early warning, never the verdict)",
    )


@dataclass(frozen=True, kw_only=True)
class HistoryUnaddressed:
    """SEP-1730's other relegation ground, as the latest run judged it: "An SDK may also be
    relegated if issues remain unaddressed for two months".

    A ground reviewers may weigh, at their discretion: not the four-week conformance clock,
    nothing about it becomes due. It concerns the SDK's repository, so it is read from the
    line's latest run of either series.
    """

    status: GroundStatus = doc_field(
        doc="none; unaddressed (issues open two months with no label or answer from anyone "
        "but their author: the ground holds); inconclusive or skipped (not judged); "
        "not-recorded (the latest run predates the record, or there is no run)"
    )
    run_id: str | None = doc_field(doc="the run it is read from (null: no run)")
    timestamp: str | None = doc_field(doc="that run's time")
    days: int = doc_field(doc="two months, in days")
    issues: int = doc_field(doc="open issues unaddressed for `days` or more (0 unless unaddressed)")
    oldest_number: int | None = doc_field(doc="the oldest such issue's number")
    oldest_title: str | None = doc_field(doc="its title, from GitHub (untrusted)")
    oldest_age_days: int | None = doc_field(doc="its age in whole days, as that run judged it")
    reason: str | None = doc_field(doc="why it is inconclusive or skipped")


@dataclass(frozen=True, kw_only=True)
class HistoryFlaky:
    """A scenario whose verdict changed between runs of one commit and configuration."""

    revision: str
    leg: str
    scenario: str
    commit: str | None
    flips: int


@dataclass(frozen=True, kw_only=True)
class HistoryTrendPoint:
    """One stored run on the trend: its tier and scored pass rate per revision and leg."""

    run_id: str
    timestamp: str
    commit: str | None
    tier: int | None = doc_field(doc="null: the run measured nothing (it has no tier)")
    tier_changed: bool = doc_field(doc="whether the tier differs from the previous run's")
    pass_rate: Mapping[str, Mapping[str, float | None]] = doc_field(
        doc="revision → leg → scored pass rate (null where the leg was not measured)"
    )


@dataclass(frozen=True, kw_only=True)
class HistoryBlock:
    """This run against the stored history: previous run, changes, streaks, relegation."""

    database: str | None = doc_field(doc="the history database read")
    reused_from: str | None = doc_field(
        default=None, doc="the run whose verdicts this run re-used (--reuse), if any"
    )
    reused_timestamp: str | None = doc_field(
        default=None, doc="when that run finished (a run id is its folder's name)"
    )
    previous: HistoryRun | None = doc_field(default=None, doc="the previous stored run")
    changes: tuple[HistoryChange, ...] = ()
    streaks: tuple[HistoryStreak, ...] = ()
    relegation: tuple[HistoryRelegation, ...] = doc_field(
        default=(),
        doc="SEP-1730's relegation clock: the rules over the runs of the latest stable release "
        "(the ref `stable`); unmeasured while there are none",
    )
    early_warning: tuple[HistoryRelegation, ...] = doc_field(
        default=(),
        optional=True,
        doc="the same rules over the branch series (the default branch): what the next release "
        "would carry, never the relegation verdict",
    )
    unaddressed: HistoryUnaddressed | None = doc_field(
        default=None,
        omit_none=True,
        doc="SEP-1730's other relegation ground, issues unaddressed for two months, as this run "
        "judged it: one reviewers may weigh, never the four-week clock (absent from older "
        "scorecards)",
    )
    flaky: tuple[HistoryFlaky, ...] = ()
    trend: tuple[HistoryTrendPoint, ...] = doc_field(
        default=(),
        optional=True,
        doc="the latest runs of this SDK line, oldest first and this one last (the trend chart)",
    )


@dataclass(frozen=True, kw_only=True)
class ComparedLeg:
    """One leg at one revision, as `--compare-harness` ran it again with the CI's harness."""

    revision: str
    leg: str
    state: ComparedState = doc_field(
        doc="compared, or not-compared (the CI's harness cannot run the revision, or the leg "
        "was not measured by the referee or not run by the CI's harness)"
    )
    way: str | None = doc_field(
        doc="how the CI's harness ran it: requirements (as the referee does) or spec-version "
        "(`--spec-version REVISION`, as an older release does); null: not run"
    )
    reason: str | None = doc_field(doc="why it was not compared")
    scenarios: int = doc_field(doc="scenarios either harness left a result for")
    agreed: int = doc_field(doc="of those, the ones both harnesses judged alike")
    results_dir: str | None = doc_field(doc="the CI's harness's raw results for the leg")


@dataclass(frozen=True, kw_only=True)
class HarnessDisagreement:
    """One place where the CI's harness and the referee disagree on one scenario."""

    revision: str
    leg: str
    scenario: str = doc_field(doc="the scenario, as the harnesses name it (untrusted)")
    kind: DisagreementKind = doc_field(
        doc="scenario-absent (one harness left no result for it), check-added (the referee "
        "checks what the CI's harness does not), check-removed (the reverse), verdict-flipped "
        "(it passes under one harness and fails under the other)"
    )
    check: str | None = doc_field(
        doc="the check it is about (untrusted): the one added or removed, or for a flipped "
        "verdict the first check whose status differs; null: the whole scenario"
    )
    referee: str | None = doc_field(
        doc="under the referee: the scenario's verdict (pass, fail) or the check's status; null: "
        "absent"
    )
    ci: str | None = doc_field(doc="the same under the CI's harness")
    message: str | None = doc_field(
        doc="the failing side's message for the check (untrusted, from the harness)"
    )


@dataclass(frozen=True, kw_only=True)
class HarnessComparison:
    """`--compare-harness V`: each leg run again with harness V (the one the SDK's CI pins), and
    per scenario where it and the referee disagree. Never part of a verdict, a score or the tier."""

    version: str = doc_field(doc="the CI's harness version compared")
    referee: str = doc_field(doc="the referee's version")
    legs: tuple[ComparedLeg, ...] = doc_field(doc="every planned leg, compared or why not")
    disagreements: tuple[HarnessDisagreement, ...] = doc_field(
        doc="every disagreement, by revision, leg and scenario"
    )


@dataclass(frozen=True, kw_only=True)
class ConfirmationBlock:
    """Failures measured beside other work, run again by themselves before they count."""

    rerun: int = doc_field(doc="scenarios run again by themselves")
    duration_s: float = doc_field(doc="wall seconds that took, servers started again included")
    flaky: int = doc_field(doc="of them, passed by themselves: flaky, counted as passed")
    failed: int = doc_field(doc="of them, failed again: failures")
    unconfirmed: int = doc_field(doc="of them, not measured by themselves: failures as first seen")


@dataclass(frozen=True, kw_only=True)
class Scorecard:
    """A tiercheck scorecard: a superset of the official `tier-check --output json`.

    Official fields keep their names and meanings; tiercheck's own sit beside them.
    """

    repo: str
    branch: str | None
    timestamp: str
    version: str | None = doc_field(doc="the stable release the official check found")
    requirements_revisions: tuple[str, ...] = doc_field(doc="spec revisions scored")
    checks: Checks = doc_field(doc="the official checks: merged legs and governance signals")
    implied_tier: ImpliedTierBlock = doc_field(doc="the implied tier and its blockers")
    remediation: tuple[RemediationStep, ...] = doc_field(doc="what to do next, most useful first")
    tiercheck: ToolBlock = doc_field(doc="this tool's facts")
    sdk: SdkBlock = doc_field(doc="the SDK measured")
    harness: HarnessBlock = doc_field(doc="the harness that ran the legs")
    revisions: Mapping[str, RevisionEntry] = doc_field(doc="both legs at each spec revision")
    baseline: BaselineBlock | None = doc_field(doc="the expected-failures baseline, if any")
    build: BuildBlock | None = doc_field(doc="the SDK's build, if there was one")
    governance: GovernanceBlock = doc_field(doc="where governance facts came from")
    unmeasured: tuple[UnmeasuredEntry, ...] = doc_field(doc="everything not measured, and why")
    timings: Mapping[str, float] = doc_field(doc="seconds spent, by step")
    artifacts: Artifacts = doc_field(doc="where the run's files are")
    interrupted: bool = doc_field(doc="whether the run was interrupted")
    exit_code: int = doc_field(doc="the documented exit code of the run")
    confirmation: ConfirmationBlock | None = doc_field(
        default=None,
        omit_none=True,
        doc="the failures run again by themselves and what it cost (absent: no leg was run, as "
        "with `score`, `--reuse` or an interrupted run)",
    )
    history: HistoryBlock | None = doc_field(
        default=None, omit_none=True, doc="this run against the run history, when one is kept"
    )
    harness_comparison: HarnessComparison | None = doc_field(
        default=None,
        omit_none=True,
        doc="with --compare-harness V: where harness V and the referee disagree, per scenario "
        "(never part of a verdict, a score or the tier)",
    )
