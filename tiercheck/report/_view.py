"""Read-only views over a scorecard document, shared by every formatter.

The document is the JSON form described by `schemas/scorecard.schema.json`; these helpers turn
its optional corners into plain values so each formatter reads the same facts the same way.
Nothing here formats for a particular output.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "LEG_CHECK_KEYS",
    "SIGNALS",
    "LegView",
    "clean",
    "failing_checks",
    "failure_message",
    "is_expected_failure",
    "is_scored",
    "leg_reason",
    "legs",
    "merged_legs",
    "one_line",
    "pct",
    "short_sha",
    "signal_detail",
    "signal_disagreement",
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

# Harness messages come from the SDK under test, which is untrusted: an ESC in a check message
# must not reach a terminal as an escape sequence, nor a NUL reach an XML or Markdown reader;
# a lone surrogate (legal in JSON escapes) cannot even be written out as UTF-8.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_SPACE = re.compile(r"\s+")


def clean(text: object) -> str:
    """`text` as a string without control characters (newlines and tabs kept)."""
    return _CONTROL.sub("", "" if text is None else str(text))


def one_line(text: object, limit: int = 0) -> str:
    """`text` cleaned and collapsed to one line; cut to `limit` characters with … when > 0."""
    flat = _SPACE.sub(" ", clean(text)).strip()
    if limit and len(flat) > limit:
        return flat[: limit - 1].rstrip() + "…"
    return flat


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
    """One leg of one revision as the document records it."""

    revision: str
    leg: str
    data: Mapping[str, Any]

    @property
    def state(self) -> str:
        """measured, skipped, unmeasured or partially-measured."""
        return str(self.data.get("state", "measured"))

    @property
    def details(self) -> Sequence[Mapping[str, Any]]:
        """Every scenario of the leg, scored or not."""
        details: Sequence[Mapping[str, Any]] = self.data.get("details") or ()
        return details

    @property
    def failing(self) -> list[Mapping[str, Any]]:
        """Scored scenarios that failed."""
        return [d for d in self.details if is_scored(d) and not d.get("passed")]

    @property
    def not_scored(self) -> list[Mapping[str, Any]]:
        """Scenarios run but not counted toward the pass rate."""
        return [d for d in self.details if not is_scored(d)]

    @property
    def reason(self) -> str:
        """Why the leg was skipped or unmeasured ("" when measured)."""
        return leg_reason(self.data)


def legs(doc: Mapping[str, Any]) -> Iterator[LegView]:
    """Every (revision, leg) of the document in revision order, server before client.

    A document without per-revision data (a re-scored official JSON, say) falls back to the
    merged legs under the revision label "all".
    """
    revisions: Mapping[str, Any] = doc.get("revisions") or {}
    if revisions:
        for revision in sorted(revisions):
            entry = revisions[revision]
            for leg in LEG_CHECK_KEYS:
                if leg in entry:
                    yield LegView(revision, leg, entry[leg])
        return
    yield from merged_legs(doc)


def merged_legs(doc: Mapping[str, Any]) -> Iterator[LegView]:
    """The two merged legs (`checks.conformance`, `checks.client_conformance`), label "all"."""
    checks: Mapping[str, Any] = doc.get("checks") or {}
    for leg, key in LEG_CHECK_KEYS.items():
        if key in checks:
            yield LegView("all", leg, checks[key])


def leg_reason(leg: Mapping[str, Any]) -> str:
    """The recorded reason a leg was not (fully) measured, one line."""
    return one_line(leg.get("reason") or leg.get("error") or "")


def is_scored(detail: Mapping[str, Any]) -> bool:
    """Whether a scenario counts toward its leg's pass rate (no `notScoredReason`)."""
    return not detail.get("notScoredReason")


def is_expected_failure(detail: Mapping[str, Any]) -> bool:
    """Whether an expected-failures baseline lists this scenario's failure."""
    return detail.get("baseline") == "expected-failure" and not detail.get("passed")


def failing_checks(detail: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The failing checks of a scenario, collapsed by id (`failures`)."""
    checks: list[Mapping[str, Any]] = list(detail.get("failures") or [])
    return checks


def failure_message(detail: Mapping[str, Any]) -> str:
    """One line saying why a scenario failed: its first failing check, else the recorded reason."""
    checks = failing_checks(detail)
    if checks:
        first = checks[0]
        message = one_line(first.get("message") or "")
        check_id = one_line(first.get("id") or "")
        return f"{check_id}: {message}" if message else check_id
    if detail.get("reason"):
        return one_line(detail["reason"])
    if detail.get("checks_failed"):
        return f"{detail['checks_failed']} check(s) failed"
    return "no check succeeded"


def _hours(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "—"
    return f"{value:.0f}h"


def _labels_detail(signal: Mapping[str, Any]) -> str:
    present, required = signal.get("present"), signal.get("required")
    text = f"{present}/{required} required labels"
    missing = signal.get("missing") or []
    if missing:
        text += f"; missing: {', '.join(one_line(m) for m in missing)}"
    if signal.get("uses_issue_types"):
        text += " (issue types in use)"
    return text


def _triage_detail(signal: Mapping[str, Any]) -> str:
    total = signal.get("total_issues", 0)
    text = f"{pct(signal.get('compliance_rate'))} of {total} open issues labelled"
    exceeding = signal.get("exceeding_sla")
    if exceeding:
        text += f"; {exceeding} unlabelled > 48h"
    median, p95 = signal.get("median_hours"), signal.get("p95_hours")
    if exceeding or median or p95:
        text += f" (median {_hours(median)}, p95 {_hours(p95)})"
    return text


def _p0_detail(signal: Mapping[str, Any]) -> str:
    open_p0s = signal.get("open_p0s", 0)
    closed_total = signal.get("closed_total", 0)
    within = signal.get("closed_within_7d", 0)
    return f"{open_p0s} open; {within}/{closed_total} closed within 7 days"


def _release_detail(signal: Mapping[str, Any]) -> str:
    version = signal.get("version")
    if not version:
        return "no release found"
    if signal.get("is_stable"):
        return f"{one_line(version)} (stable)"
    kind = "pre-release" if signal.get("is_prerelease") else "not stable"
    return f"{one_line(version)} ({kind})"


def _policy_detail(signal: Mapping[str, Any]) -> str:
    files: Mapping[str, Any] = signal.get("files") or {}
    found = [name for name, present in files.items() if present]
    if not files:
        return "no files checked"
    listed = ", ".join(one_line(f) for f in found) if found else "none"
    return f"{len(found)}/{len(files)} policy files: {listed}"


def _spec_detail(signal: Mapping[str, Any]) -> str:
    gap = signal.get("days_gap")
    spec = signal.get("latest_spec_release")
    sdk = signal.get("latest_sdk_release")
    if gap is None:
        return "no spec release to track" if not spec else f"spec {one_line(spec)}"
    text = f"{gap}d gap after spec {one_line(spec)}"
    if sdk:
        text += f" (SDK {one_line(sdk)})"
    return text


_DETAILS = {
    "labels": _labels_detail,
    "triage": _triage_detail,
    "p0_resolution": _p0_detail,
    "stable_release": _release_detail,
    "policy_signals": _policy_detail,
    "spec_tracking": _spec_detail,
}


def signal_detail(key: str, signal: Mapping[str, Any]) -> str:
    """The key numbers of one governance signal, one line; the reason when it has no data."""
    status = signal.get("status")
    reason = one_line(signal.get("reason") or "")
    if status == "inconclusive":
        return f"inconclusive: {reason or 'no data'}"
    if status == "skipped" and reason:
        return f"skipped: {reason}"
    render = _DETAILS.get(key)
    text = render(signal) if render else ""
    return f"{text} — {reason}" if reason and text else text or reason


def signal_disagreement(signal: Mapping[str, Any]) -> str | None:
    """SEP-1730's differing verdict on a signal ("SEP-1730: fail"), or None when they agree."""
    sep = signal.get("sep1730")
    if not signal.get("disagrees_with_official") or not isinstance(sep, Mapping):
        return None
    return f"SEP-1730: {sep.get('status', '?')}"
