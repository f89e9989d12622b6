"""A scorecard's readings, shared by every formatter: read-only accessors over the document and
the facts derived from it.

The document is the typed `tiercheck.scorecard.model.Scorecard`; these helpers give each
formatter the same facts read the same way.
Nothing here formats for a particular output.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tiercheck.plaintext import one_line
from tiercheck.revisions import LEGS
from tiercheck.scorecard.model import (
    CheckEntry,
    LegEntry,
    MergedLegEntry,
    ScenarioEntry,
    Scorecard,
    SignalEntry,
)

__all__ = [
    "FLAKY_NOTE",
    "LEG_CHECK_KEYS",
    "NOT_APPLICABLE_NOTE",
    "SIGNALS",
    "WARNINGS_NOTE",
    "LegView",
    "NotApplicableRow",
    "WarningRow",
    "confirmation_line",
    "confirmation_note",
    "dispute_lead",
    "dispute_state",
    "dispute_summary",
    "dispute_title",
    "failure_message",
    "flaky_summary",
    "leg_tiers_line",
    "legs",
    "measured_nothing",
    "merged_legs",
    "not_applicable_rows",
    "not_scored_why",
    "pct",
    "revision_scenarios",
    "sep1730_note",
    "short_sha",
    "signal_detail",
    "signal_disagreement",
    "signal_rows",
    "trend_columns",
    "version_text",
    "warning_rows",
]

#: The official `checks` keys of the merged legs.
LEG_CHECK_KEYS: Mapping[str, str] = {"server": "conformance", "client": "client_conformance"}

#: Governance signals in the official display order, with their display names.
SIGNALS: tuple[tuple[str, str], ...] = (
    ("labels", "Labels"),
    ("triage", "Triage"),
    ("p0_resolution", "P0 Resolution"),
    ("stable_release", "Stable Release"),
    ("policy_signals", "Policy Signals"),
    ("spec_tracking", "Spec Tracking"),
)

#: The relegation signal SEP-1730 adds (no official check): shown after the six when present.
UNADDRESSED = ("unaddressed_issues", "Unaddressed Issues")


def signal_rows(doc: Scorecard) -> list[tuple[str, str, SignalEntry]]:
    """(key, display name, signal): the six in the official order, then the relegation signal
    (issues unaddressed for two months) when the scorecard has it."""
    rows = [(key, title, doc.checks.signal(key)) for key, title in SIGNALS]
    if doc.checks.unaddressed_issues is not None:
        rows.append((*UNADDRESSED, doc.checks.unaddressed_issues))
    return rows


def leg_tiers_line(doc: Scorecard) -> str | None:
    """The tier each side alone would earn, one line, beside the implied tier (never instead of
    it); None for scorecards without it."""
    legs = doc.implied_tier.leg_tiers
    if legs is None:
        return None

    def tier(official: int | None, sep: int | None) -> str:
        if official is None:
            return "not measured"
        return f"Tier {official}" + (f" (SEP-1730: Tier {sep})" if sep != official else "")

    return (
        f"server side alone: {tier(legs.server, legs.sep1730_server)} · client side alone: "
        f"{tier(legs.client, legs.sep1730_client)} (the other leg taken as 100%, governance as "
        f"is; the implied tier is Tier {doc.implied_tier.tier})"
    )


def measured_nothing(doc: Scorecard) -> bool:
    """Whether the run measured no leg at all: every merged leg skipped or unmeasured, the rule
    of exit code 3 (`scorecard.build.exit_code_for`). Such a run has no tier to show (its
    `implied_tier` stands on no evidence); every format reads this, through
    `scorecard.remediation.not_assessed`, and never the exit code."""
    return all(doc.checks.merged(leg).state in ("skipped", "unmeasured") for leg in LEG_CHECK_KEYS)


def version_text(doc: Scorecard) -> str:
    """The header's version: the official reading (GitHub releases' stable-release signal); when
    that is none and the checkout's tags name a release the commit carries, that one beside it,
    saying where each came from: ``none from GitHub releases · tags: 0.21.0 (tower-mcp-v0.21.0)``.
    Unescaped text: each format neutralises it."""
    if doc.version:
        return doc.version
    release = doc.sdk.release
    if release is None:
        return "none"
    named = f" ({release.tag})" if release.tag != release.version else ""
    return f"none from GitHub releases · tags: {release.version}{named}"


def trend_columns(revisions: Sequence[str]) -> list[tuple[str, str]]:
    """(revision, leg) for every line of a trend chart, in report order."""
    return [(rev, leg) for rev in revisions for leg in LEGS]


def pct(rate: object) -> str:
    """A 0–1 rate as a whole percentage ("87%"); "—" when not a number."""
    if isinstance(rate, bool) or not isinstance(rate, int | float):
        return "—"
    return f"{rate * 100:.0f}%"


def short_sha(commit: object) -> str:
    """The first 12 characters of a commit SHA, or "unknown"."""
    return str(commit)[:12] if commit else "unknown"


@dataclass(frozen=True)
class LegView:
    """One leg of one revision (or a merged leg, revision "all") as the document records it."""

    revision: str
    leg: str
    data: LegEntry | MergedLegEntry

    @property
    def state(self) -> str:
        """measured, skipped, unmeasured or partially-measured."""
        return self.data.state

    @property
    def details(self) -> Sequence[ScenarioEntry]:
        """Every scenario of the leg, scored or not."""
        return self.data.details

    @property
    def failing(self) -> list[ScenarioEntry]:
        """Scored scenarios that failed."""
        return list(self.data.failing)

    @property
    def flaky(self) -> list[ScenarioEntry]:
        """Scored scenarios that failed beside other work and passed by themselves."""
        return [d for d in self.details if d.scored and d.result == "flaky"]

    @property
    def not_scored(self) -> list[ScenarioEntry]:
        """Scenarios run but not counted toward the pass rate."""
        return [d for d in self.details if not d.scored]

    @property
    def disputes(self) -> list[ScenarioEntry]:
        """Scenarios with a dispute (open: not in the SEP-1730 reading; resolved: counted)."""
        return [d for d in self.details if d.dispute is not None]

    @property
    def unmeasured(self) -> list[ScenarioEntry]:
        """Scored scenarios whose answer was not measured (each says why)."""
        return [d for d in self.details if d.scored and not d.measured]

    @property
    def reason(self) -> str:
        """Why the leg was skipped or unmeasured ("" when measured)."""
        return one_line(self.data.reason or self.data.error or "")

    @property
    def diagnosis(self) -> str | None:
        """Why a leg the harness ran is unmeasured all the same (per-revision legs only):
        not-a-conformance-server or not-a-conformance-client."""
        return self.data.diagnosis if isinstance(self.data, LegEntry) else None

    @property
    def results_dir(self) -> str | None:
        """Where the harness wrote this leg's results (per-revision legs only)."""
        return self.data.results_dir if isinstance(self.data, LegEntry) else None

    @property
    def duration_s(self) -> float | None:
        """Seconds the leg took, when recorded (per-revision legs only)."""
        return self.data.duration_s if isinstance(self.data, LegEntry) else None


def revision_scenarios(doc: Scorecard) -> Iterator[tuple[str, str, ScenarioEntry]]:
    """(revision, leg, scenario) of every per-revision leg, in the order of the revisions
    scored, server before client (a revision without data has none)."""
    for revision in doc.requirements_revisions:
        entry = doc.revisions.get(revision)
        if entry is None:
            continue
        for leg in (entry.server, entry.client):
            for detail in leg.details:
                yield revision, leg.leg, detail


def legs(doc: Scorecard) -> Iterator[LegView]:
    """Every (revision, leg) of the document in revision order, server before client.

    A document without per-revision data (a re-scored official JSON, say) falls back to the
    merged legs under the revision label "all".
    """
    if doc.revisions:
        for revision in sorted(doc.revisions):
            entry = doc.revisions[revision]
            yield LegView(revision, "server", entry.server)
            yield LegView(revision, "client", entry.client)
        return
    yield from merged_legs(doc)


def merged_legs(doc: Scorecard) -> Iterator[LegView]:
    """The two merged legs (`checks.conformance`, `checks.client_conformance`), label "all"."""
    for leg in LEG_CHECK_KEYS:
        yield LegView("all", leg, doc.checks.merged(leg))


#: What every report says beside its WARNING checks. The harness's own tier-check counts only
#: SUCCESS and FAILURE (a scenario passes with a SUCCESS and no FAILURE), so a WARNING changes
#: no verdict there, and none here; whether SEP-1730 should count them is open
#: (modelcontextprotocol/conformance#245).
WARNINGS_NOTE = (
    "SHOULD-level WARNING checks, listed apart from failures: they never change a scenario's "
    "verdict, a pass rate or the tier (the pinned harness's tier-check passes a scenario with "
    "no FAILURE and at least one SUCCESS check)"
)


@dataclass(frozen=True)
class WarningRow:
    """One WARNING check of one measured scenario (its id collapsed, as in `warnings`)."""

    view: LegView
    detail: ScenarioEntry
    check: CheckEntry


def warning_rows(doc: Scorecard) -> list[WarningRow]:
    """Every WARNING check of every measured scenario, scored or not, of the legs `legs` yields
    (per revision, else the merged ones), in report order: what each format lists and counts
    apart from failures."""
    return [
        WarningRow(view, detail, check)
        for view in legs(doc)
        for detail in view.details
        if detail.measured
        for check in detail.warnings
    ]


#: The reason the scorer gives a scenario found in the results that its set does not list
#: (`scoring.NOT_IN_SET`, spelt here so the readings stay apart from the scorer).
_NOT_IN_SET = "not-in-requirement-set"


def not_scored_why(detail: ScenarioEntry) -> str:
    """Why a scenario is not scored, with the source of that reading: its revision's
    requirement set, which puts it under `not_scored` (`extension — requirement set
    2026-07-28.yaml, not_scored`) or does not list it at all; "" for a scored one."""
    if detail.scored:
        return ""
    reason = one_line(detail.not_scored_reason)
    where = f"requirement set {one_line(detail.revision)}.yaml"
    if detail.not_scored_reason == _NOT_IN_SET:
        return f"{reason} — not in {where}"
    return f"{reason} — {where}, not_scored"


#: What every report says beside the scenarios the harness lists for other revisions only.
NOT_APPLICABLE_NOTE = (
    "the harness lists them for other revisions only: never run or scored at this one, they "
    "change no verdict, pass rate or tier"
)


@dataclass(frozen=True)
class NotApplicableRow:
    """The scenarios of one leg at one revision not applicable there for one reason, as the
    harness's `list` says (`harness.not_applicable`)."""

    revision: str
    leg: str
    why: str
    version: str
    scenarios: tuple[str, ...]
    source: str

    @property
    def reason(self) -> str:
        """`removed in 2026-07-28`, or `not yet introduced (introduced in 2026-07-28)`."""
        version = one_line(self.version)
        if self.why == "removed":
            return f"removed in {version}"
        return f"not yet introduced (introduced in {version})"


def not_applicable_rows(doc: Scorecard) -> list[NotApplicableRow]:
    """The scenarios the harness lists for other revisions only, at each revision of the
    document (the revisions scored first, in order), grouped by leg, reason and source in the
    harness's order: what each format lists apart, never scored (empty when not recorded)."""
    recorded = doc.harness.not_applicable or {}
    order = [r for r in doc.requirements_revisions if r in recorded]
    order += sorted(r for r in recorded if r not in order)
    rows: list[NotApplicableRow] = []
    for revision in order:
        groups: dict[tuple[str, str, str, str], list[str]] = {}
        for entry in recorded[revision]:
            key = (entry.leg, entry.why, entry.version, entry.source)
            groups.setdefault(key, []).append(entry.scenario)
        rows += [
            NotApplicableRow(revision, leg, why, version, tuple(names), source)
            for (leg, why, version, source), names in groups.items()
        ]
    return rows


#: What every report says beside its flaky scenarios (the rule: `scoring.confirm_failure`).
FLAKY_NOTE = (
    "failed beside other work, passed when run again by itself with nothing else running: "
    "counted as passed in the official and SEP-1730 readings (the run by itself is how the "
    "official tier-check runs each leg), shown as flaky, never as a plain pass"
)


def scenario_result(detail: ScenarioEntry) -> str:
    """ "passed", "flaky: <first failure>", "failed: <why>" or "unmeasured: <why>", one line."""
    result = detail.result
    if result == "unmeasured":
        return f"unmeasured: {one_line(detail.unmeasured)}"
    if result == "flaky":
        return f"flaky: {flaky_summary(detail)}"
    return "passed" if result == "passed" else f"failed: {failure_message(detail)}"


def flaky_summary(detail: ScenarioEntry) -> str:
    """One line: how a flaky scenario failed beside other work and that it passed by itself
    ("" for any other)."""
    conf = detail.confirmation
    if conf is None or conf.alone != "passed":
        return ""
    first = conf.first
    if first.failures:
        check = first.failures[0]
        why = f"{one_line(check.id)}: {one_line(check.message)}" if check.message else check.id
    else:
        why = one_line(first.reason or "no check succeeded")
    return f"failed beside other work ({why}), passed by itself ({conf.duration_s:.1f} s)"


def confirmation_note(detail: ScenarioEntry) -> str:
    """One line on a failure's run by itself ("" when it had none, or passed: see flaky)."""
    conf = detail.confirmation
    if conf is None or conf.alone == "passed":
        return ""
    if conf.alone == "failed":
        return f"failed again by itself ({conf.duration_s:.1f} s)"
    return f"not confirmed by itself: {one_line(conf.reason or 'no result')}"


def confirmation_line(doc: Scorecard) -> str:
    """One line: how many failures were run again by themselves, what it cost and found
    ("" when the run confirmed nothing: `score`, `--reuse`, interrupted)."""
    block = doc.confirmation
    if block is None:
        return ""
    if block.rerun == 0:
        return "failures confirmed by themselves: none to confirm"
    found = [f"{block.flaky} flaky", f"{block.failed} failed again"]
    if block.unconfirmed:
        found.append(f"{block.unconfirmed} not confirmed")
    return (
        f"failures confirmed by themselves: {block.rerun} run again in "
        f"{block.duration_s:.1f} s: {', '.join(found)}"
    )


def dispute_state(detail: ScenarioEntry) -> str:
    """One line: whether the scenario's dispute keeps it out of the SEP-1730 reading, and
    whether the snapshot confirmed that ("" without a dispute)."""
    dispute = detail.dispute
    if dispute is None:
        return ""
    checked = "" if dispute.verified else ", unverified"
    if dispute.state == "open":
        return f"disputed (open{checked}): not in the SEP-1730 reading, still in the official"
    return f"dispute resolved{checked}: counted again"


def dispute_lead(detail: ScenarioEntry) -> str:
    """The dispute's state and reason, then `; ` before its issue ("" without a dispute)."""
    dispute = detail.dispute
    if dispute is None:
        return ""
    return f"{dispute_state(detail)}; {one_line(dispute.reason, 300)}; "


def dispute_title(detail: ScenarioEntry) -> str:
    """The issue's title (untrusted), quoted, after a space; "" without one."""
    dispute = detail.dispute
    if dispute is None or not dispute.title:
        return ""
    return f" \u201c{one_line(dispute.title, 120)}\u201d"


def dispute_summary(detail: ScenarioEntry) -> str:
    """The dispute's state, reason, URL and issue title (untrusted), on one line: the plain
    text formats' (the pages link the URL when it is an issue or pull request of the
    conformance repository, as the disputes file requires)."""
    dispute = detail.dispute
    if dispute is None:
        return ""
    return f"{dispute_lead(detail)}{one_line(dispute.issue)}{dispute_title(detail)}"


def sep1730_note(data: Any) -> str:
    """A merged leg's SEP-1730 counts when a dispute touches it ("" otherwise)."""
    sep = getattr(data, "sep1730", None)
    if sep is None:
        return ""
    return f"SEP-1730: {sep.passed}/{sep.total} ({pct(sep.pass_rate)}), {sep.disputed} disputed"


def failure_message(detail: ScenarioEntry) -> str:
    """One line saying why a scenario failed: its first failing check, else the recorded reason."""
    if detail.failures:
        first = detail.failures[0]
        message = one_line(first.message or "")
        check_id = one_line(first.id or "")
        return f"{check_id}: {message}" if message else check_id
    if detail.reason:
        return one_line(detail.reason)
    if detail.checks_failed:
        return f"{detail.checks_failed} check(s) failed"
    return "no check succeeded"


def _hours(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "—"
    return f"{value:.0f}h"


def _labels_detail(signal: SignalEntry) -> str:
    present, required = signal.get("present"), signal.get("required")
    text = f"{present}/{required} required labels"
    missing = signal.get("missing") or []
    if missing:
        text += f"; missing: {', '.join(one_line(m) for m in missing)}"
    if signal.get("uses_issue_types"):
        text += " (issue types in use)"
    return text


def _triage_detail(signal: SignalEntry) -> str:
    total = signal.get("total_issues", 0)
    text = f"{pct(signal.get('compliance_rate'))} of {total} open issues labelled"
    exceeding = signal.get("exceeding_sla")
    if exceeding:
        text += f"; {exceeding} unlabelled > 48h"
    median, p95 = signal.get("median_hours"), signal.get("p95_hours")
    if exceeding or median or p95:
        text += f" (median {_hours(median)}, p95 {_hours(p95)})"
    return text


def _p0_detail(signal: SignalEntry) -> str:
    open_p0s = signal.get("open_p0s", 0)
    closed_total = signal.get("closed_total", 0)
    within = signal.get("closed_within_7d", 0)
    return f"{open_p0s} open; {within}/{closed_total} closed within 7 days"


def _release_detail(signal: SignalEntry) -> str:
    version = signal.get("version")
    if not version:
        return "no release found"
    if signal.get("is_stable"):
        return f"{one_line(version)} (stable)"
    kind = "pre-release" if signal.get("is_prerelease") else "not stable"
    return f"{one_line(version)} ({kind})"


def _policy_detail(signal: SignalEntry) -> str:
    files: Mapping[str, Any] = signal.get("files") or {}
    found = [name for name, present in files.items() if present]
    if not files:
        return "no files checked"
    listed = ", ".join(one_line(f) for f in found) if found else "none"
    return f"{len(found)}/{len(files)} policy files: {listed}"


def _spec_detail(signal: SignalEntry) -> str:
    gap = signal.get("days_gap")
    spec = signal.get("latest_spec_release")
    sdk = signal.get("latest_sdk_release")
    if gap is None:
        return "no spec release to track" if not spec else f"spec {one_line(spec)}"
    text = f"{gap}d gap after spec {one_line(spec)}"
    if sdk:
        text += f" (SDK {one_line(sdk)})"
    return text + _by_release_date(signal)


def _by_release_date(signal: SignalEntry) -> str:
    """The release-date rule per revision scored, after the official gap."""
    rule = signal.get("by_release_date") or []
    parts = []
    for item in rule:
        release = item.get("release")
        days = item.get("days_after")
        said = f"{one_line(release)}, {days:+d} d" if release and days is not None else "none"
        parts.append(f"{one_line(item.get('revision'))}: {one_line(item.get('status'))} ({said})")
    return f"; stable release by the revision's release date: {'; '.join(parts)}" if parts else ""


def _unaddressed_detail(signal: SignalEntry) -> str:
    sep = signal.get("sep1730") or {}
    total = sep.get("unaddressed_total", 0)
    text = (
        f"{total} of {sep.get('open_issues', 0)} open issues unaddressed for "
        f"{sep.get('days', 60)}+ days (relegation rule; no official check)"
    )
    listed = sep.get("unaddressed") or []
    if listed:
        oldest = listed[0]
        text += f"; oldest #{oldest.get('number')}, {oldest.get('age_days')} days"
    return text


_DETAILS = {
    "labels": _labels_detail,
    "triage": _triage_detail,
    "p0_resolution": _p0_detail,
    "stable_release": _release_detail,
    "policy_signals": _policy_detail,
    "spec_tracking": _spec_detail,
    "unaddressed_issues": _unaddressed_detail,
}


def signal_detail(key: str, signal: SignalEntry) -> str:
    """The key numbers of one governance signal, one line; the reason when it has no data."""
    status = signal.status
    reason = one_line(signal.reason or "")
    if status == "inconclusive":
        return f"inconclusive: {reason or 'no data'}"
    if status == "skipped" and reason:
        return f"skipped: {reason}"
    render = _DETAILS.get(key)
    text = render(signal) if render else ""
    return f"{text} — {reason}" if reason and text else text or reason


def signal_disagreement(signal: SignalEntry) -> str | None:
    """SEP-1730's differing verdict on a signal ("SEP-1730: fail"), or None when they agree."""
    sep = signal.sep1730_status
    if not signal.disagrees_with_official or sep is None:
        return None
    return f"SEP-1730: {sep}"
