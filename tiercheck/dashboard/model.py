"""The dashboard's API, version 1, typed: the JSON documents under `api/v1/` of a published site.

Each class is one JSON object, its fields in the order they are written; `tiercheck.model`
writes them and reads them back, and their JSON Schemas (`tiercheck/schemas/dashboard-*.schema
.json`, copied into every site under `api/v1/schemas/`) are generated from them by
`python -m tiercheck.document_schemas`.

The documents hold what the history holds and nothing about the build: the same history gives
the same bytes, whenever and wherever it is published. Times are the runs' own (ISO-8601 UTC);
a "night" is a run's UTC date. Paths are relative to the site's root.

* `api/v1/index.json` (`DashboardIndex`): every line's latest state, what changed last night.
* `api/v1/lines/<line>.json` (`LineHistory`): one line's runs, tier changes, the SEP-1730
  clock, failing streaks, flaky scenarios.
* `api/v1/scenarios.json` (`ScenarioIndex`): per scenario, which lines fail it and since when.
* `api/v1/matrix.json`: the latest matrix (`matrix.schema.json`), when the site was given one.
* `api/v1/grid.json` (`tiercheck.dashboard.grid.Grid`) and `api/v1/nights.json`,
  `api/v1/nights/<night>.json` (`tiercheck.dashboard.nightdiff`): the cross-SDK grid and
  night against night, each modelled beside its builder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal

from tiercheck.model import doc_field
from tiercheck.scorecard.model import (
    HistoryFlaky,
    HistoryStreak,
    HistoryUnaddressed,
    RelegationStatus,
)

__all__ = [
    "API_VERSION",
    "ClockEntry",
    "DashboardIndex",
    "FailurePeriod",
    "LastNight",
    "LegSummary",
    "LineHistory",
    "LineLinks",
    "LineSummary",
    "RegressionEntry",
    "RunEntry",
    "ScenarioFailing",
    "ScenarioIndex",
    "ScenarioLine",
    "ScenarioPage",
    "ScenarioRef",
    "ScenarioState",
    "TierChangeEntry",
]

#: The API version: `api/v<N>/`. A change that removes or renames a field is a new version,
#: published beside the old one; a new field is not.
API_VERSION = 1

LineStatus = Literal["regressed", "incomparable", "ok"]
ScenarioState = Literal["failing", "passing", "unmeasured"]


@dataclass(frozen=True, kw_only=True)
class LegSummary:
    """One revision × leg of one run: measured or not, and its scored result."""

    revision: str
    leg: str
    state: str = doc_field(doc="measured, unmeasured or skipped")
    reason: str | None = doc_field(doc="why it is unmeasured or skipped")
    passed: int = doc_field(doc="scored scenarios passed (0 unless measured)")
    total: int = doc_field(doc="scored scenarios (0 unless measured)")
    pass_rate: float | None = doc_field(doc="passed / total; null unless measured")


@dataclass(frozen=True, kw_only=True)
class RegressionEntry:
    """An open regression (or one that began or ended with a run)."""

    kind: Literal["lower-tier", "newly-failing", "unmeasured"]
    key: str = doc_field(doc="what regressed, the same on every night it lasts")
    since: str = doc_field(doc="time of the run it began with")
    since_run: str
    revision: str | None
    leg: str | None
    scenario: str | None
    tier_before: int | None = doc_field(doc="lower-tier: the tier before the drop")
    tier_after: int | None = doc_field(doc="lower-tier: the tier it dropped to")
    detail: str = doc_field(doc="one line: what regressed and since when")


@dataclass(frozen=True, kw_only=True)
class LastNight:
    """What a line's latest run changed against the run before it."""

    previous_run: str | None = doc_field(doc="the run before (null: the line's first run)")
    tier_before: int | None
    tier_after: int | None = doc_field(doc="null: the latest run measured nothing (no tier)")
    started: tuple[RegressionEntry, ...] = doc_field(doc="regressions that began")
    ended: tuple[RegressionEntry, ...] = doc_field(doc="regressions undone")
    newly_failing: tuple[str, ...] = doc_field(
        doc="REVISION/LEG/SCENARIO scored in both runs that failed and passed the run before "
        "(same harness version only)"
    )
    fixed: tuple[str, ...] = doc_field(
        doc="REVISION/LEG/SCENARIO scored in both runs that passed and failed before "
        "(same harness version only)"
    )
    newly_unmeasured: tuple[str, ...] = doc_field(
        doc="REVISION/LEG measured the run before, unmeasured now"
    )
    basis_change: tuple[str, ...] = doc_field(
        doc="what changed in the harness or requirement sets (under another harness no scenario "
        "is compared; across other requirement sets only those scored by both)"
    )


@dataclass(frozen=True, kw_only=True)
class LineLinks:
    """Where a line's pages, data and badges are (relative to the site's root)."""

    page: str
    runs: str = doc_field(doc="the line's `LineHistory` document")
    badge_svg: str
    badge_json: str = doc_field(doc="the shields.io endpoint document")
    scorecard_html: str | None = doc_field(doc="the latest scorecard page, when published")
    claim_html: str | None = doc_field(doc="the latest claim page, when published")


@dataclass(frozen=True, kw_only=True)
class LineSummary:
    """One SDK line's latest state."""

    line: str
    slug: str = doc_field(doc="the line's name in paths")
    repo: str
    ref: str | None
    commit: str | None
    run_id: str = doc_field(doc="its latest run")
    timestamp: str
    night: str = doc_field(doc="the latest run's UTC date")
    tier: int | None = doc_field(
        doc="the implied tier of the latest run (official reading); null: it measured nothing"
    )
    status: LineStatus = doc_field(
        doc="regressed: a regression is open; incomparable: none, but the latest run's harness "
        "or requirement sets differ from the run before; ok: none"
    )
    harness_version: str | None
    requirements_digest: str | None
    runs: int = doc_field(doc="stored runs of the line")
    legs: tuple[LegSummary, ...] = doc_field(doc="every revision × leg of the latest run")
    regressions: tuple[RegressionEntry, ...] = doc_field(doc="open regressions, oldest first")
    last_night: LastNight
    links: LineLinks


@dataclass(frozen=True, kw_only=True)
class ScenarioFailing:
    """A scenario failing now at one revision: how many lines fail it there."""

    revision: str
    failing_lines: int = doc_field(
        doc="lines whose latest measured verdict at this revision is a failure"
    )
    scored_failing_lines: int = doc_field(
        doc="of those, the lines whose requirement set of this revision scores the scenario"
    )
    regression_lines: int = doc_field(
        doc="of those, the lines where it is an open regression at this revision"
    )


@dataclass(frozen=True, kw_only=True)
class ScenarioRef:
    """A scenario with a page: where it is, and how many lines fail it now."""

    leg: str
    scenario: str
    slug: str
    page: str
    failing_lines: int = doc_field(
        doc="lines whose latest measured verdict is a failure (at any revision)"
    )
    scored_failing_lines: int = doc_field(
        doc="of those, the lines whose requirement set scores the scenario"
    )
    regression_lines: int = doc_field(doc="of those, the lines where it is an open regression")
    failing: tuple[ScenarioFailing, ...] = doc_field(
        default=(),
        optional=True,
        doc="each revision at which a line fails it now, with the same counts there (a "
        "scenario failing at one revision in one line and at another in another is two "
        "entries)",
    )


@dataclass(frozen=True, kw_only=True)
class DashboardIndex:
    """The dashboard's front page as data (`api/v1/index.json`)."""

    json_tag: ClassVar[tuple[str, str]] = ("format", "tiercheck-dashboard-index")

    api_version: int
    latest_night: str | None = doc_field(doc="the newest night of any line (UTC date)")
    revisions: tuple[str, ...] = doc_field(doc="every revision a line's latest run scored")
    lines: tuple[LineSummary, ...] = doc_field(doc="every line, by name")
    scenarios: tuple[ScenarioRef, ...] = doc_field(doc="every scenario with a page")
    matrix: str | None = doc_field(doc="the latest matrix document, when the site has one")
    aliases: Mapping[str, str] = doc_field(
        doc="old badge name → the line whose badge it serves (a renamed line keeps its badge)"
    )


@dataclass(frozen=True, kw_only=True)
class RunEntry:
    """One run of a line, with the line's state after it."""

    run_id: str
    timestamp: str
    commit: str | None
    ref: str | None
    harness_version: str | None
    requirements_digest: str | None
    tier: int | None = doc_field(doc="null: the run measured nothing (an unmeasured night)")
    tier_changed: bool = doc_field(doc="the tier differs from the line's run before")
    status: LineStatus
    basis_change: tuple[str, ...]
    legs: tuple[LegSummary, ...]
    failing: tuple[str, ...] = doc_field(doc="REVISION/LEG/SCENARIO of every scored failure")
    regressions: tuple[str, ...] = doc_field(doc="keys of the regressions open after the run")
    started: tuple[str, ...] = doc_field(doc="keys of the regressions that began with it")
    ended: tuple[str, ...] = doc_field(doc="keys of the regressions it undid")


@dataclass(frozen=True, kw_only=True)
class TierChangeEntry:
    """A run whose tier differs from the line's run before."""

    timestamp: str
    run_id: str
    commit: str | None
    before: int
    after: int


@dataclass(frozen=True, kw_only=True)
class ClockEntry:
    """One SEP-1730 relegation rule at one claimed revision, on the latest run's night."""

    revision: str
    rule: str = doc_field(doc="tier1-to-tier2 (any required test) or tier2-to-tier3 (> 20%)")
    status: RelegationStatus = doc_field(
        doc="no-stable-run: no stable release assessed yet (no run of the ref `stable`: the "
        "clock cannot be read; never clear); unmeasured: runs were tried and not measured "
        "(in a document written before no-stable-run existed: no run of the ref `stable`)"
    )
    since: str | None = doc_field(doc="first failing run of the streak the rule watches")
    due_on: str | None = doc_field(doc="the date the tier is lost if the streak goes on")
    days_left: int | None = doc_field(doc="from the latest night to due_on (0 when due)")
    scenarios: tuple[str, ...] = doc_field(doc="LEG/SCENARIO behind the rule")
    series: str = doc_field(
        default="stable",
        optional=True,
        doc="stable: SEP-1730's clock (runs of the latest stable release); branch: the early "
        "warning (the default branch), never the verdict",
    )


@dataclass(frozen=True, kw_only=True)
class LineHistory:
    """One SDK line's history (`api/v1/lines/<line>.json`)."""

    json_tag: ClassVar[tuple[str, str]] = ("format", "tiercheck-dashboard-line")

    api_version: int
    line: str
    slug: str
    repo: str
    revisions: tuple[str, ...] = doc_field(doc="the revisions the latest run scored")
    runs: tuple[RunEntry, ...] = doc_field(doc="every run, oldest first")
    tier_changes: tuple[TierChangeEntry, ...]
    regressions: tuple[RegressionEntry, ...] = doc_field(doc="open after the latest run")
    clock: tuple[ClockEntry, ...] = doc_field(
        doc="the SEP-1730 relegation clock: the SDK's stable series (the ref `stable`)"
    )
    early_warning: tuple[ClockEntry, ...] = doc_field(
        default=(),
        optional=True,
        doc="the same rules over the SDK's branch series: an early warning, never the verdict",
    )
    unaddressed: HistoryUnaddressed | None = doc_field(
        default=None,
        omit_none=True,
        doc="SEP-1730's other relegation ground, issues unaddressed for two months, as the "
        "SDK's latest run (either series) judged it: one reviewers may weigh, never the clock",
    )
    series: str = doc_field(
        default="branch",
        optional=True,
        doc="the series this line's runs are: branch, or stable (the ref `stable`)",
    )
    streaks: tuple[HistoryStreak, ...] = doc_field(doc="scored scenarios failing now")
    flaky: tuple[HistoryFlaky, ...] = doc_field(doc="verdicts that flipped on one commit")


@dataclass(frozen=True, kw_only=True)
class ScenarioLine:
    """One line × revision on a scenario's page."""

    line: str
    revision: str
    state: ScenarioState = doc_field(
        doc="the latest verdict: failing or passing (measured), or unmeasured (the leg was not "
        "measured in the latest run; the scenario is the one its last measured run reported)"
    )
    since: str | None = doc_field(doc="failing: time of the first run of the current streak")
    since_run: str | None
    runs: int = doc_field(doc="failing: measured failing runs in the streak")
    regression: bool = doc_field(doc="an open newly-failing regression")
    scored: bool = doc_field(doc="counted by the requirement set")
    check: str | None
    message: str | None
    dispute: str | None = doc_field(
        default=None,
        optional=True,
        doc="the issue of its dispute when that was open as the run read it: left out of "
        "SEP-1730's counts (scored_failing_lines, the clock) while it lasts",
    )


@dataclass(frozen=True, kw_only=True)
class FailurePeriod:
    """A stretch of measured failures of a scored scenario in one line at one revision, with
    no measured pass between them (unmeasured nights bridge, as in streaks)."""

    line: str
    revision: str
    first: str = doc_field(doc="time of the first failing run")
    last: str = doc_field(doc="time of the last failing run")
    runs: int = doc_field(doc="measured failing runs")
    open: bool = doc_field(doc="still failing: no measured pass since")


@dataclass(frozen=True, kw_only=True)
class ScenarioPage:
    """One scenario across every line."""

    leg: str
    scenario: str
    slug: str
    lines: tuple[ScenarioLine, ...] = doc_field(doc="each line × revision, its latest verdict")
    periods: tuple[FailurePeriod, ...] = doc_field(
        doc="every stretch of failures in the history, newest first"
    )


@dataclass(frozen=True, kw_only=True)
class ScenarioIndex:
    """Every scenario the lines' latest runs report (`api/v1/scenarios.json`)."""

    json_tag: ClassVar[tuple[str, str]] = ("format", "tiercheck-dashboard-scenarios")

    api_version: int
    scenarios: tuple[ScenarioPage, ...]
