"""The governance checks of one repository as a plain-text table (pure).

Reads the document `tier-check governance --output json` prints: `{repo, as_of, captured_at,
source, checks}`, with each check's official reading and its SEP-1730 reading side by side,
then the disputed conformance tests (`disputes`) when there are any to report. An issue's
title is GitHub's text: one plain line here (`tiercheck.plaintext`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tiercheck.plaintext import one_line

__all__ = ["render_governance"]


def _percent(rate: float) -> str:
    return f"{rate * 100:.0f}%"


def _labels(check: Mapping[str, Any]) -> tuple[str, str]:
    missing = ", ".join(check["missing"]) or "none"
    sep_missing = ", ".join(check["sep1730"]["missing"]) or "none"
    return (
        f"{check['present']}/{check['required']} labels, missing: {missing}",
        f"missing with aliases: {sep_missing}",
    )


def _triage(check: Mapping[str, Any]) -> tuple[str, str]:
    sep = check["sep1730"]
    return (
        f"{_percent(check['compliance_rate'])} of {check['total_issues']} open issues "
        f"labelled, {check['exceeding_sla']} unlabelled > 48 h",
        f"{_percent(sep['rate_2_business_days'])} labelled within 2 business days "
        f"({sep['issues_considered']} issues, median "
        f"{sep['median_business_hours']} business h), "
        f"{_percent(sep['rate_1_month'])} within a month",
    )


def _p0_resolution(check: Mapping[str, Any]) -> tuple[str, str]:
    sep = check["sep1730"]
    return (
        f"{check['open_p0s']} open, {check['closed_within_7d']}/{check['closed_total']} closed "
        "within 7 d (from creation)",
        f"{sep['open_p0s']} open, {sep['resolved_within_7d']}/"
        f"{sep['resolved_total']} resolved within 7 d, "
        f"{sep['resolved_within_14d']} within 14 d (from the label)",
    )


def _stable_release(check: Mapping[str, Any]) -> tuple[str, str]:
    return (
        f"newest {check['version'] or 'none'}"
        + (" (prerelease)" if check["is_prerelease"] else ""),
        f"stable {check['sep1730']['tag'] or 'none'}",
    )


def _policy_signals(check: Mapping[str, Any]) -> tuple[str, str]:
    present = [path for path, found in check["files"].items() if found]
    absent = [name for name, paths in check["sep1730"]["categories"].items() if not paths]
    return (
        f"{len(present)} of the {len(check['files'])} official paths",
        f"missing: {', '.join(absent) or 'nothing'}",
    )


def _days(gap: int | None) -> str:
    return f"{gap if gap is not None else '-'} d"


def _spec_tracking(check: Mapping[str, Any]) -> tuple[str, str]:
    sep = check["sep1730"]
    return (
        f"spec {check['latest_spec_release'] or '-'} → {check['latest_sdk_release'] or '-'}, "
        + _days(check["days_gap"]),
        f"stable {sep['latest_sdk_release'] or '-'}, " + _days(sep["days_gap"]),
    )


def _unaddressed_issues(check: Mapping[str, Any]) -> tuple[str, str]:
    sep = check["sep1730"]
    return (
        "no official check",
        f"{sep['unaddressed_total']} of {sep['open_issues']} open issues unaddressed for "
        f"{sep['days']} days or more"
        + (f" (oldest {sep['oldest_age_days']} d)" if sep["oldest_age_days"] else ""),
    )


#: Each check's two detail lines, official and SEP-1730, from its JSON form.
_DETAILS: dict[str, Callable[[Mapping[str, Any]], tuple[str, str]]] = {
    "labels": _labels,
    "triage": _triage,
    "p0_resolution": _p0_resolution,
    "stable_release": _stable_release,
    "policy_signals": _policy_signals,
    "spec_tracking": _spec_tracking,
    "unaddressed_issues": _unaddressed_issues,
}


def render_governance(document: Mapping[str, Any]) -> str:
    """A compact plain-text table of the six checks (official and SEP-1730 side by side)."""
    checks: Mapping[str, Any] = document["checks"]
    lines = [
        f"Governance of {document['repo']}",
        f"  as of {document['as_of']}, captured {document['captured_at']} "
        f"(source: {document['source']})",
        "",
        f"  {'check':<16} {'official':<13} {'SEP-1730':<13} detail",
    ]
    # The document lists the checks in their official order.
    for name, check in checks.items():
        # A check with no official reading (`official: null`) shows a dash there.
        official = "-" if "official" in check and check["official"] is None else check["status"]
        sep = check["sep1730"]["status"]
        # An asterisk marks where SEP-1730 as written reaches another verdict.
        mark = "*" if check["disagrees_with_official"] else " "
        if check["reason"]:
            lines.append(f"  {name:<16} {official:<13} {sep:<12}{mark} {check['reason']}")
            continue
        first, second = _DETAILS[name](check)
        lines.append(f"  {name:<16} {official:<13} {sep:<12}{mark} {first}")
        lines.append(f"  {'':<16} {'':<13} {'':<12}  SEP-1730: {second}")
    lines.append("")
    lines.append("  * SEP-1730 as written reaches a different verdict than the official check.")
    lines += _disputes(document.get("disputes"), str(document["as_of"])[:10])
    return "\n".join(lines) + "\n"


#: An issue title is cut here (the JSON keeps it whole).
_TITLE_LIMIT = 120


def _disputes(listing: Mapping[str, Any] | None, day: str) -> list[str]:
    """The disputed conformance tests on the as-of day; nothing when none is to report."""
    if listing is None or (listing["status"] == "recorded" and not listing["items"]):
        return []
    where = f"{one_line(listing['repo'])}, label {one_line(listing['label'])!r}"
    lines = ["", f"  Disputed conformance tests ({where}) on {day}:"]
    if listing["status"] == "unavailable":
        lines.append(f"    not collected: {one_line(listing['reason'])}")
    elif listing["status"] == "not recorded":
        lines.append("    the snapshot recorded none: states below are the disputes file's dates")
    if listing["truncated"]:
        lines.append(
            "    the listing was cut at the page bound: some disputed issues may be missing"
        )
    for item in listing["items"]:
        pull = item["pull_request"]
        # Only the disputes file names it: its URL says which.
        if pull is None:
            pull = "/pull/" in str(item["url"])
        kind = "pull request" if pull else "issue"
        checked = "verified" if item["verified"] else "unverified"
        title = f" \u201c{one_line(item['title'], _TITLE_LIMIT)}\u201d" if item["title"] else ""
        lines.append(f"    {kind} #{item['number']}: {item['state']} ({checked}){title}")
        lines.append(f"      {one_line(item['url'])}")
        linked = (
            one_line(", ".join(item["scenarios"])) or "no scenario (the disputes file links none)"
        )
        lines.append(f"      scenarios: {linked}")
        lines.append(f"      {one_line(item['why'])}")
    return lines
