"""The requirements table of a claim: every row of the official audit, each with its evidence.

Rows 1a–4b are measured: their verdicts are read from the scorecard's blockers (the official
reading, and SEP-1730's beside it where the two differ), never recomputed, so the table always
equals the scorecard it came from. Rows 5–8 are judgment rows: a deterministic rule decides
what it can (no documentation, no policy file, only placeholders: fail; a configured Dependabot
or Renovate: pass), and everything else is **needs review** with what to check. A judgment row is
never passed on a guess.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Literal

from tiercheck.claim.conformance import conformance_split, split_text
from tiercheck.claim.docs import DocsCoverage
from tiercheck.claim.evidence import Evidence, ReleaseItem
from tiercheck.claim.model import ClaimStatus, ConformanceSplit, SpecByDate, Verdict
from tiercheck.claim.policies import PolicyFinding
from tiercheck.model import format_time
from tiercheck.plaintext import one_line
from tiercheck.scorecard.model import (
    BlockerEntry,
    MergedLegEntry,
    ScenarioEntry,
    Scorecard,
    SignalEntry,
)

__all__ = [
    "BY_DATE_MARK",
    "ROW_IDS",
    "ClaimStatus",
    "EvidenceLine",
    "Row",
    "Verdict",
    "build_rows",
    "claim_status",
]

RowKind = Literal["measured", "judgment"]

#: Every row of the official audit template, in its order.
ROW_IDS = ("1a", "1b", "2", "2b", "3", "4", "4b", "5", "6", "7", "8")

#: Rows the official Tier 2 rule does not judge (the official computeTier ignores them).
_OFFICIAL_TIER2_UNJUDGED = frozenset({"triage", "labels", "spec_tracking"})
#: Rows SEP-1730's Tier 2 does not judge.
_SEP_TIER2_UNJUDGED = frozenset({"labels"})


@dataclass(frozen=True)
class EvidenceLine:
    """One line of evidence: what it says, and a link when there is one."""

    text: str
    url: str | None = None


@dataclass(frozen=True)
class Row:
    """One requirement row: standards, what was found, verdicts per tier, evidence, review."""

    id: str
    requirement: str
    kind: RowKind
    standards: tuple[str, str]
    current: str
    verdicts: tuple[Verdict, Verdict]
    sep1730: tuple[Verdict, Verdict] | None
    gap: str
    evidence: tuple[EvidenceLine, ...] = ()
    review: str | None = None

    @property
    def differs(self) -> bool:
        """Whether SEP-1730 as written reaches another verdict than the official reading."""
        return self.sep1730 is not None and self.sep1730 != self.verdicts


# --- measured rows ---------------------------------------------------------------------------


def _from_blockers(blockers: Sequence[BlockerEntry], check: str, tier: int) -> Verdict:
    for blocker in blockers:
        if blocker.check == check and blocker.tier == tier:
            kind: Verdict = "fail" if blocker.kind == "failed" else blocker.kind
            return kind
    return "pass"


def _tier_verdicts(
    doc: Scorecard, check: str, tiers: tuple[int, int]
) -> tuple[tuple[Verdict, Verdict], tuple[Verdict, Verdict]]:
    implied = doc.implied_tier
    official: list[Verdict] = []
    sep: list[Verdict] = []
    for tier in tiers:
        if tier >= 3:
            official.append("n/a")
            sep.append("n/a")
            continue
        if tier == 2 and check in _OFFICIAL_TIER2_UNJUDGED:
            official.append("n/a")
        else:
            official.append(_from_blockers(implied.blocker_details, check, tier))
        if tier == 2 and check in _SEP_TIER2_UNJUDGED:
            sep.append("n/a")
        else:
            sep.append(_from_blockers(implied.sep1730.blocker_details, check, tier))
    return (official[0], official[1]), (sep[0], sep[1])


def _pct(rate: float) -> str:
    return f"{rate * 100:.1f}".rstrip("0").rstrip(".") + "%"


def _leg_current(leg: MergedLegEntry) -> str:
    if leg.state == "skipped":
        return f"skipped ({leg.reason or 'not configured'})"
    if leg.state == "unmeasured":
        return f"unmeasured ({leg.reason or leg.error or 'no reason recorded'})"
    return f"{_pct(leg.pass_rate)} ({leg.passed}/{leg.total} scored scenarios)"


#: Failing checks named per failing scenario, and how much of each message is kept (the
#: scorecard keeps them all, whole).
_CHECKS_SHOWN = 5
_MESSAGE_LIMIT = 200


def _failure_detail(entry: ScenarioEntry) -> str:
    failures = entry.failures
    if not failures:
        return entry.reason or ""
    shown = "; ".join(
        f"{f.id}: {one_line(f.message, _MESSAGE_LIMIT)}" for f in failures[:_CHECKS_SHOWN]
    )
    more = len(failures) - _CHECKS_SHOWN
    return shown + (f" (+{more} more)" if more > 0 else "")


def _leg_evidence(leg: MergedLegEntry) -> tuple[EvidenceLine, ...]:
    lines: list[EvidenceLine] = []
    scored = [d for d in leg.details if d.scored]
    # Failures first, each with its failing checks; then what was not measured; then passes.
    for entry in sorted(scored, key=lambda d: (d.passed, d.measured, d.revision, d.scenario)):
        if not entry.measured:
            lines.append(
                EvidenceLine(f"UNMEASURED {entry.scenario} [{entry.revision}] ({entry.unmeasured})")
            )
            continue
        mark = "pass" if entry.passed else "FAIL"
        detail = f"{entry.checks_passed} checks passed, {entry.checks_failed} failed"
        if not entry.passed:
            why = _failure_detail(entry)
            if why:
                detail += f": {why}"
            if entry.expected_failure:
                detail += " (expected by the baseline)"
        lines.append(EvidenceLine(f"{mark} {entry.scenario} [{entry.revision}] ({detail})"))
    for missing in leg.missing_revisions:
        lines.append(EvidenceLine(f"{missing.revision}: {missing.state} ({missing.reason})"))
    return tuple(lines)


def _gap(verdicts: tuple[Verdict, Verdict], detail: str) -> str:
    return "None" if all(v in ("pass", "n/a") for v in verdicts) else detail


def _warnings_text(split: ConformanceSplit, leg: str) -> str:
    found = [w for w in split.warnings if w.leg == leg]
    if not found:
        return "no WARNING checks"
    checks = sum(w.checks for w in found)
    scenarios = len(found)
    return (
        f"{checks} WARNING check{'s' if checks != 1 else ''} in {scenarios} scored "
        f"scenario{'s' if scenarios != 1 else ''} (not counted; conformance#245)"
    )


def _split_current(leg: MergedLegEntry, split: ConformanceSplit) -> str:
    if leg.state in ("skipped", "unmeasured"):
        return _leg_current(leg)
    rows = {row.name: row for row in split.rows}
    text = f"{_pct(leg.pass_rate)}: {split_text(rows[leg.leg])}"
    if leg.leg == "client":
        core, auth = rows["client: core"].all, rows["client: auth"].all
        text += f"; core {core.passed}/{core.total}, auth {auth.passed}/{auth.total}"
    text = f"{text}; {_warnings_text(split, leg.leg)}"
    if leg.flaky:
        text += f"; {leg.flaky} flaky (counted as passed: failed beside other work, passed alone)"
    if leg.sep1730 is not None and leg.sep1730.disputed:
        sep = leg.sep1730
        text += (
            f"; SEP-1730 without {sep.disputed} disputed scenario"
            f"{'s' if sep.disputed != 1 else ''}: {_pct(sep.pass_rate)} ({sep.passed}/{sep.total})"
        )
    return text


def _conformance_row(
    doc: Scorecard,
    row_id: str,
    leg: MergedLegEntry,
    tiers: tuple[int, int],
    split: ConformanceSplit,
) -> Row:
    check = "server_conformance" if leg.leg == "server" else "client_conformance"
    official, sep = _tier_verdicts(doc, check, tiers)
    failing = len(leg.failing)
    if leg.state in ("skipped", "unmeasured"):
        detail = _leg_current(leg)
    else:
        detail = f"{failing} scored scenario{'s' if failing != 1 else ''} failing"
    if leg.state == "skipped":
        # SEP-1730 does not count a skipped leg against a tier, but nothing was measured either.
        sep = ("skipped" if sep[0] == "pass" else sep[0], "skipped" if sep[1] == "pass" else sep[1])
    warned = [w for w in split.warnings if w.leg == leg.leg]
    review = None
    if warned:
        # The official pass rate ignores WARNING checks while its CI runner fails a client
        # scenario on one; SEP-1730 does not say (conformance#245): a person decides.
        checks = sum(w.checks for w in warned)
        review = (
            f"the {checks} WARNING check{'s' if checks != 1 else ''} in scored scenarios "
            "(listed under Conformance) are acceptable for the tier: the official pass rate "
            "ignores them, and SEP-1730 does not say whether they count (conformance#245)"
        )
    if leg.flaky:
        # Counted as the run by itself judged it; a person decides whether it holds.
        flaky = (
            f"the {leg.flaky} flaky scenario{'s' if leg.flaky != 1 else ''} (failed beside "
            "other work, passed when run again by itself; listed under Conformance) "
            f"{'pass' if leg.flaky != 1 else 'passes'} reliably enough for the tier"
        )
        review = f"{review}; and {flaky}" if review else flaky
    return Row(
        id=row_id,
        requirement=f"{leg.leg.capitalize()} conformance",
        kind="measured",
        standards=_standard("conformance", tiers),
        current=_split_current(leg, split),
        verdicts=official,
        sep1730=sep,
        gap=_gap(official, detail),
        evidence=_leg_evidence(leg),
        review=review,
    )


_STANDARDS: dict[str, tuple[str, str, str]] = {
    "conformance": ("100% of scored scenarios", "at least 80%", "no minimum"),
    "triage": ("≥ 90% labelled within 2 business days", "≥ 80% within a month", "none"),
    "labels": ("the 12 official labels", "the 12 official labels", "none"),
    "p0": ("every P0 resolved within 7 days", "within 14 days", "none"),
    "release": ("a stable release, clear versioning", "at least one stable release", "none"),
    "spec": ("timeline agreed per spec release", "within 6 months", "none"),
    "docs": ("every feature documented, with examples", "core features documented", "none"),
    "dependency": ("a published update policy", "a published update policy", "not required"),
    "roadmap": ("a published roadmap", "a plan toward Tier 1", "not required"),
    "versioning": ("a documented breaking-change policy", "not required", "not required"),
}


def _standard(key: str, tiers: tuple[int, int]) -> tuple[str, str]:
    texts = _STANDARDS[key]
    return texts[tiers[0] - 1], texts[tiers[1] - 1]


def _unmeasured(verdicts: tuple[Verdict, Verdict], status: Verdict) -> tuple[Verdict, Verdict]:
    first, second = (status if v == "pass" else v for v in verdicts)
    return first, second


def _signal_row(
    doc: Scorecard,
    *,
    row_id: str,
    requirement: str,
    check: str,
    standard: str,
    current: str,
    evidence: tuple[EvidenceLine, ...],
    tiers: tuple[int, int],
) -> Row:
    official, sep = _tier_verdicts(doc, check, tiers)
    signal = doc.checks.signal(check)
    if signal.status in ("skipped", "inconclusive"):
        reason = signal.reason or "no reason recorded"
        current = reason if reason.startswith(signal.status) else f"{signal.status} ({reason})"
        # Some official rules are met by an empty answer (no label missing when none was read):
        # a signal that was not measured never shows as passed.
        official = _unmeasured(official, signal.status)
        sep = _unmeasured(sep, signal.status)
    return Row(
        id=row_id,
        requirement=requirement,
        kind="measured",
        standards=_standard(standard, tiers),
        current=current,
        verdicts=official,
        sep1730=sep,
        gap=_gap(official, current),
        evidence=evidence,
    )


def _triage_current(signal: SignalEntry) -> str:
    rate = signal.get("compliance_rate")
    if rate is None:
        return "not measured"
    text = (
        f"{_pct(float(rate))} of open issues labelled "
        f"({signal.get('triaged_within_sla')}/{signal.get('total_issues')})"
    )
    sep = signal.get("sep1730")
    if isinstance(sep, dict) and sep.get("rate_2_business_days") is not None:
        text += f"; SEP-1730: {_pct(float(sep['rate_2_business_days']))} within 2 business days"
        if sep.get("rate_1_month") is not None:
            text += f", {_pct(float(sep['rate_1_month']))} within a month"
    return text


def _triage_evidence(signal: SignalEntry, evidence: Evidence | None) -> tuple[EvidenceLine, ...]:
    days = signal.get("days_analyzed")
    window = f"the last {days} days" if days else "every open issue"
    lines = [
        EvidenceLine(
            f"official: median {signal.get('median_hours')} h, p95 {signal.get('p95_hours')} h "
            f"age of the unlabelled open issues, over {window}"
        )
    ]
    if evidence is not None:
        lines.append(
            EvidenceLine(
                f"{evidence.triage_issues} issues opened in the last {evidence.window_days} days; "
                "the slowest to get a first label:"
            )
        )
    if evidence is None:
        lines.append(EvidenceLine("per-issue evidence: no governance snapshot recorded"))
        return tuple(lines)
    for item in evidence.slowest:
        if item.hours_to_label is None:
            when = f"no label yet after {item.waiting_hours} h"
        else:
            when = f"first label after {item.hours_to_label} h"
        lines.append(EvidenceLine(f"#{item.number} {item.title}: {when}", item.url))
    return tuple(lines)


def _labels_current(signal: SignalEntry) -> str:
    present, required = signal.get("present"), signal.get("required")
    missing = signal.get("missing") or []
    text = f"{present}/{required} present"
    if missing:
        text += f"; missing: {', '.join(str(m) for m in missing)}"
    return text


def _p0_current(signal: SignalEntry) -> str:
    return (
        f"{signal.get('open_p0s')} open; {signal.get('closed_within_7d')}/"
        f"{signal.get('closed_total')} closed within 7 days, {signal.get('closed_within_14d')} "
        "within 14 (official: created → closed)"
    )


def _p0_evidence(signal: SignalEntry, evidence: Evidence | None) -> tuple[EvidenceLine, ...]:
    if evidence is None:
        opened = signal.get("open_p0_details") or []
        lines = [
            EvidenceLine(f"open P0 #{p.get('number')} {p.get('title')}: {p.get('age_days')} days")
            for p in opened
            if isinstance(p, dict)
        ]
        lines.append(EvidenceLine("per-issue evidence: no governance snapshot recorded"))
        return tuple(lines)
    if not evidence.p0s:
        return (EvidenceLine("no issue has ever carried the P0 label"),)
    lines = []
    for p0 in evidence.p0s:
        if p0.open:
            when = "still open"
        elif p0.days_label_to_close is not None:
            when = f"label → close {p0.days_label_to_close} d"
        else:
            when = "label time unknown"
        if p0.days_created_to_close is not None:
            when += f" (created → close {p0.days_created_to_close} d)"
        lines.append(EvidenceLine(f"#{p0.number} {p0.title}: {when}", p0.url))
    return tuple(lines)


def _release_evidence(signal: SignalEntry, evidence: Evidence | None) -> tuple[EvidenceLine, ...]:
    version = signal.get("version")
    if evidence is None or not evidence.releases:
        return (EvidenceLine(f"release that counts: {version or 'none'}"),)
    counted = evidence.releases[0]
    lines = [
        EvidenceLine(
            f"release that counts (officially the newest non-draft): {counted.tag}"
            + (" (prerelease)" if counted.prerelease else ""),
            counted.url,
        )
    ]
    stable = next((r for r in evidence.releases if not r.prerelease), None)
    if stable is not None and stable.tag != counted.tag:
        lines.append(
            EvidenceLine(f"newest release not marked prerelease: {stable.tag}", stable.url)
        )
    return tuple(lines)


def _spec_current(signal: SignalEntry) -> str:
    gap = signal.get("days_gap")
    spec = signal.get("latest_spec_release")
    sdk = signal.get("latest_sdk_release")
    if gap is None:
        return f"spec {spec or '?'}, SDK {sdk or '?'}: no gap measured"
    return f"{gap} d from spec {spec} to SDK {sdk}"


def _release_named(items: Sequence[ReleaseItem], value: object) -> ReleaseItem | None:
    """The release a spec-tracking field names: by tag, or by its `published_at` timestamp
    (the official reading reports the timestamps, not the tags)."""
    if not value:
        return None
    return next(
        (
            r
            for r in items
            if r.tag == value
            or r.tag.endswith(str(value))
            or (r.published_at is not None and format_time(r.published_at) == value)
        ),
        None,
    )


def _spec_evidence(signal: SignalEntry, evidence: Evidence | None) -> tuple[EvidenceLine, ...]:
    spec = signal.get("latest_spec_release")
    sdk = signal.get("latest_sdk_release")
    if evidence is None:
        return (EvidenceLine(f"spec release {spec}, SDK release {sdk}"),)
    lines = []
    spec_item = _release_named(evidence.spec_releases, spec)
    if spec:
        name = f"{spec_item.tag} ({spec})" if spec_item else str(spec)
        lines.append(EvidenceLine(f"spec release {name}", spec_item.url if spec_item else None))
    else:
        lines.append(EvidenceLine("no spec release found"))
    sdk_item = _release_named(evidence.releases, sdk)
    if sdk:
        name = f"{sdk_item.tag} ({sdk})" if sdk_item else str(sdk)
        lines.append(
            EvidenceLine(f"SDK release that tracked it: {name}", sdk_item.url if sdk_item else None)
        )
    return tuple(lines)


#: Where row 4b's official finding ends and the reviewers' by-date answer begins.
BY_DATE_MARK = "; stable release by the "

_BY_DATE_SHORT = {
    "by the release date": "yes",
    "after the release date": "no",
    "no stable release": "no stable release",
    "not determined": "not determined",
}


def _by_date(row: Row, by_date: SpecByDate | None) -> Row:
    """Row 4b with the reviewers' question beside the official gap: was a stable release out
    by the newest revision's release date? A fixed rule settles it only for the release itself
    measured on time; anything else is left to the reviewer."""
    if by_date is None:
        return row
    answer = _BY_DATE_SHORT[by_date.status]
    line = EvidenceLine(
        f"by the {by_date.revision} release date ({by_date.spec_released}, from "
        f"{by_date.spec_source}): {answer}: {by_date.note}"
    )
    review = None
    if by_date.status != "by the release date":
        review = (
            f"a stable release supported {by_date.revision} by its release date "
            f"({by_date.spec_released}) for Tier 1, and within six months for Tier 2 "
            f"({by_date.note})"
        )
    return dataclasses.replace(
        row,
        current=f"{row.current}{BY_DATE_MARK}{by_date.revision} release date: {answer}",
        evidence=(*row.evidence, line),
        review=review,
    )


# --- judgment rows ---------------------------------------------------------------------------


def _blob(doc: Scorecard, path: str, line: int | None = None) -> str | None:
    commit = doc.sdk.commit
    if not commit or not doc.repo:
        return None
    anchor = f"#L{line}" if line else ""
    return f"https://github.com/{doc.repo}/blob/{commit}/{path}{anchor}"


#: Links out of the checkout named in row 5's evidence; the rest are counted.
MAX_LINKS_NAMED = 10


def _links_out_line(links_out: Sequence[str]) -> EvidenceLine:
    """Row 5's evidence line for the symbolic links that lead out of the checkout, named by
    their own path in it (never by where they point); its finding gives their number."""
    named = ", ".join(links_out[:MAX_LINKS_NAMED])
    more = len(links_out) - MAX_LINKS_NAMED
    rest = f" and {more} more" if more > 0 else ""
    plural = "s" if len(links_out) != 1 else ""
    return EvidenceLine(
        f"not read: {len(links_out)} symbolic link{plural} leading out of the checkout "
        f"({named}{rest})"
    )


def _not_read(
    row_id: str, requirement: str, key: str, tiers: tuple[int, int], *, gap: str, review: str
) -> Row:
    """A judgment row whose files could not be read (no checkout): needs review, whatever the
    tier below is, and n/a at Tier 3."""
    return Row(
        id=row_id,
        requirement=requirement,
        kind="judgment",
        standards=_standard(key, tiers),
        current="not read: the assessed checkout is not available",
        verdicts=("needs review", "needs review" if tiers[1] < 3 else "n/a"),
        sep1730=None,
        gap=gap,
        review=review,
    )


def _docs_current(coverage: DocsCoverage, links_out: Sequence[str]) -> str:
    """Row 5's finding: the features named in the documentation or examples, those the
    targeted revision deprecated or removed, and the links out of the checkout not read."""
    current = f"{len(coverage.covered)}/{len(coverage.scored)} features named in docs or examples"
    if coverage.non_blocking:
        current += (
            f"; {len(coverage.non_blocking)} more deprecated or removed by "
            f"{coverage.revision} (not blocking)"
        )
    if links_out:
        plural = "s" if len(links_out) != 1 else ""
        current += f"; {len(links_out)} symbolic link{plural} out of the checkout not read"
    return current


def _docs_verdicts(
    coverage: DocsCoverage, tiers: tuple[int, int]
) -> tuple[tuple[Verdict, Verdict], str]:
    """Row 5's verdicts and gap: a fail when there is no documentation or example at all, else
    needs review (a hit is not proof that it documents the feature)."""
    below = tiers[1] < 3
    if not coverage.has_docs:
        gap = "no documentation or example file found"
        return ("fail", "fail" if below else "n/a"), gap
    missing = coverage.missing
    gap = (
        f"{len(missing)} features with no hit"
        + (f" ({len(coverage.core_missing)} core)" if coverage.core_missing else "")
        if missing
        else "every feature has a hit; check that each hit documents it"
    )
    return ("needs review", "needs review" if below else "n/a"), gap


def _docs_evidence(coverage: DocsCoverage, links_out: Sequence[str]) -> tuple[EvidenceLine, ...]:
    """Row 5's evidence: the files read, the links not followed, the features with no hit,
    and those with none that the targeted revision no longer requires."""
    evidence = [
        EvidenceLine(
            f"{len(coverage.doc_files)} documentation files and {len(coverage.example_files)} "
            "example files read"
        )
    ]
    if links_out:
        evidence.append(_links_out_line(links_out))
    if coverage.missing:
        names = ", ".join(f"{f.feature.number} {f.feature.name}" for f in coverage.missing)
        evidence.append(EvidenceLine(f"no hit: {names}"))
    if coverage.non_blocking:
        names = ", ".join(
            f"{f.feature.number} {f.feature.name} ({f.lifecycle.state})"
            for f in coverage.non_blocking
            if f.lifecycle is not None
        )
        evidence.append(
            EvidenceLine(
                f"no hit, not blocking at {coverage.revision} (the spec deprecated or removed "
                f"them; conformance#441): {names}"
            )
        )
    return tuple(evidence)


def _docs_row(
    doc: Scorecard,
    coverage: DocsCoverage | None,
    tiers: tuple[int, int],
    links_out: Sequence[str] = (),
) -> Row:
    """Row 5, documentation: the features the documentation and examples name, judged by a
    reviewer (a fail only when there is neither)."""
    if coverage is None:
        return _not_read(
            "5",
            "Documentation",
            "docs",
            tiers,
            gap="documentation not read",
            review="read the SDK's documentation against the 48 features",
        )
    verdicts, gap = _docs_verdicts(coverage, tiers)
    return Row(
        id="5",
        requirement="Documentation",
        kind="judgment",
        standards=_standard("docs", tiers),
        current=_docs_current(coverage, links_out),
        verdicts=verdicts,
        sep1730=None,
        gap=gap,
        evidence=_docs_evidence(coverage, links_out),
        review=(
            "for each feature, the best documentation hit explains it in prose and the best "
            "example hit shows it (Tier 1: every feature still active at the targeted revision; "
            "Tier 2: the core ones); a hit only in an example counts as partial"
        ),
    )


def _policy_row(
    doc: Scorecard,
    *,
    row_id: str,
    key: str,
    finding: PolicyFinding | None,
    requirement: str,
    tiers: tuple[int, int],
) -> Row:
    if finding is None:
        return _not_read(
            row_id,
            requirement,
            key,
            tiers,
            gap="policy files not read",
            review=f"find and read the {requirement.lower()}",
        )
    by_tier = {1: finding.tier1, 2: finding.tier2, 3: "n/a"}
    verdicts: tuple[Verdict, Verdict] = (by_tier[tiers[0]], by_tier[tiers[1]])
    evidence = []
    for f in finding.files:
        path, _, line = f.path.partition("#L")
        what = f.note or f"{f.prose_units} sentences"
        flag = " — placeholder" if f.placeholder else ""
        quoted = f" commits to: “{f.quote}”" if f.quote else ""
        anchor = f.quote_line or (int(line) if line else None)
        evidence.append(
            EvidenceLine(
                f"{f.path} ({f.size} bytes, {what}{flag}){quoted}", _blob(doc, path, anchor)
            )
        )
    if finding.missing:
        evidence.append(EvidenceLine(f"not present: {', '.join(finding.missing)}"))
    # The filed claims name the file and summarise what it commits to: the best sentence of the
    # first substantive file (a fixed rule picks it; the reviewer reads the file).
    quoted_file = next((f for f in finding.files if f.quote and not f.placeholder), None)
    current = finding.summary
    if quoted_file is not None and finding.tier1 != "pass":
        current = f"{quoted_file.path.partition('#L')[0]}: “{quoted_file.quote}”"
    return Row(
        id=row_id,
        requirement=requirement,
        kind="judgment",
        standards=_standard(key, tiers),
        current=current,
        verdicts=verdicts,
        sep1730=None,
        gap=_gap(verdicts, finding.summary),
        evidence=tuple(evidence),
        review=finding.review,
    )


def _measured_rows(
    doc: Scorecard,
    tiers: tuple[int, int],
    evidence: Evidence | None,
    by_date: SpecByDate | None,
) -> tuple[Row, ...]:
    """Rows 1a–4b, read from the scorecard's verdicts (row 4b with the by-date question)."""
    checks = doc.checks
    split = conformance_split(doc)
    signal = partial(_signal_row, doc, tiers=tiers)
    return (
        _conformance_row(doc, "1a", checks.conformance, tiers, split),
        _conformance_row(doc, "1b", checks.client_conformance, tiers, split),
        signal(
            row_id="2",
            requirement="Issue triage",
            check="triage",
            standard="triage",
            current=_triage_current(checks.triage),
            evidence=_triage_evidence(checks.triage, evidence),
        ),
        signal(
            row_id="2b",
            requirement="Labels",
            check="labels",
            standard="labels",
            current=_labels_current(checks.labels),
            evidence=(),
        ),
        signal(
            row_id="3",
            requirement="Critical bug resolution",
            check="p0_resolution",
            standard="p0",
            current=_p0_current(checks.p0_resolution),
            evidence=_p0_evidence(checks.p0_resolution, evidence),
        ),
        signal(
            row_id="4",
            requirement="Stable release",
            check="stable_release",
            standard="release",
            current=str(checks.stable_release.get("version") or "no stable release"),
            evidence=_release_evidence(checks.stable_release, evidence),
        ),
        _by_date(
            signal(
                row_id="4b",
                requirement="Spec tracking",
                check="spec_tracking",
                standard="spec",
                current=_spec_current(checks.spec_tracking),
                evidence=_spec_evidence(checks.spec_tracking, evidence),
            ),
            by_date,
        ),
    )


def _judgment_rows(
    doc: Scorecard,
    tiers: tuple[int, int],
    coverage: DocsCoverage | None,
    policies: tuple[PolicyFinding, PolicyFinding, PolicyFinding] | None,
    links_out: Sequence[str],
) -> tuple[Row, ...]:
    """Rows 5–8, judged from the SDK's files: the documentation and the three policies (each
    needs review when the checkout was not read)."""
    dependency, roadmap, versioning = policies if policies else (None, None, None)
    policy = partial(_policy_row, doc, tiers=tiers)
    return (
        _docs_row(doc, coverage, tiers, links_out),
        policy(row_id="6", key="dependency", finding=dependency, requirement="Dependency policy"),
        policy(row_id="7", key="roadmap", finding=roadmap, requirement="Roadmap"),
        policy(row_id="8", key="versioning", finding=versioning, requirement="Versioning policy"),
    )


def build_rows(
    doc: Scorecard,
    *,
    tiers: tuple[int, int],
    evidence: Evidence | None,
    coverage: DocsCoverage | None,
    policies: tuple[PolicyFinding, PolicyFinding, PolicyFinding] | None,
    by_date: SpecByDate | None = None,
    links_out: Sequence[str] = (),
) -> tuple[Row, ...]:
    """Every official row, judged for the two tiers in `tiers` (the target and the one below).

    `links_out` names the symbolic links of the checkout that lead out of it: not read, and
    said so in row 5's finding (their number) and evidence (their paths in the checkout)."""
    rows = (
        *_measured_rows(doc, tiers, evidence, by_date),
        *_judgment_rows(doc, tiers, coverage, policies, links_out),
    )
    assert tuple(r.id for r in rows) == ROW_IDS
    return rows


def claim_status(rows: Sequence[Row], column: int = 0) -> ClaimStatus:
    """Whether the claim for the tier in `column` can be filed: every row passes (`ready`), some
    still need a reviewer (`needs review`), or something fails or was not measured (`blocked`)."""
    verdicts = [row.verdicts[column] for row in rows]
    if any(v not in ("pass", "needs review", "n/a") for v in verdicts):
        return "blocked"
    if "needs review" in verdicts:
        return "needs review"
    return "ready"
