"""The governance checks of one repository as a plain-text table (pure).

Reads the document `tier-check governance --output json` prints: `{repo, as_of, captured_at,
source, checks}`, with each check's official reading and its SEP-1730 reading side by side,
then the disputed conformance tests (`disputes`) when there are any to report. An issue's
title is GitHub's text: one plain line here (`tiercheck.plaintext`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tiercheck.plaintext import one_line

__all__ = ["render_governance"]


def _percent(rate: float) -> str:
    return f"{rate * 100:.0f}%"


def _details(checks: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """One (official, SEP-1730) detail line per check, from the JSON form."""
    labels = checks["labels"]
    triage = checks["triage"]
    sep_triage = triage["sep1730"]
    p0 = checks["p0_resolution"]
    sep_p0 = p0["sep1730"]
    release = checks["stable_release"]
    sep_release = release["sep1730"]
    policy = checks["policy_signals"]
    spec = checks["spec_tracking"]
    sep_spec = spec["sep1730"]
    missing = ", ".join(labels["missing"]) or "none"
    sep_missing = ", ".join(labels["sep1730"]["missing"]) or "none"
    present = [path for path, found in policy["files"].items() if found]
    absent = [name for name, paths in policy["sep1730"]["categories"].items() if not paths]
    details = {
        "labels": (
            f"{labels['present']}/{labels['required']} labels, missing: {missing}",
            f"missing with aliases: {sep_missing}",
        ),
        "triage": (
            f"{_percent(triage['compliance_rate'])} of {triage['total_issues']} open issues "
            f"labelled, {triage['exceeding_sla']} unlabelled > 48 h",
            f"{_percent(sep_triage['rate_2_business_days'])} labelled within 2 business days "
            f"({sep_triage['issues_considered']} issues, median "
            f"{sep_triage['median_business_hours']} business h), "
            f"{_percent(sep_triage['rate_1_month'])} within a month",
        ),
        "p0_resolution": (
            f"{p0['open_p0s']} open, {p0['closed_within_7d']}/{p0['closed_total']} closed "
            "within 7 d (from creation)",
            f"{sep_p0['open_p0s']} open, {sep_p0['resolved_within_7d']}/"
            f"{sep_p0['resolved_total']} resolved within 7 d, "
            f"{sep_p0['resolved_within_14d']} within 14 d (from the label)",
        ),
        "stable_release": (
            f"newest {release['version'] or 'none'}"
            + (" (prerelease)" if release["is_prerelease"] else ""),
            f"stable {sep_release['tag'] or 'none'}",
        ),
        "policy_signals": (
            f"{len(present)} of the {len(policy['files'])} official paths",
            f"missing: {', '.join(absent) or 'nothing'}",
        ),
        "spec_tracking": (
            f"spec {spec['latest_spec_release'] or '-'} → {spec['latest_sdk_release'] or '-'}, "
            f"{spec['days_gap'] if spec['days_gap'] is not None else '-'} d",
            f"stable {sep_spec['latest_sdk_release'] or '-'}, "
            f"{sep_spec['days_gap'] if sep_spec['days_gap'] is not None else '-'} d",
        ),
    }
    unaddressed = checks.get("unaddressed_issues")
    if unaddressed is not None:
        sep = unaddressed["sep1730"]
        details["unaddressed_issues"] = (
            "no official check",
            f"{sep['unaddressed_total']} of {sep['open_issues']} open issues unaddressed for "
            f"{sep['days']} days or more"
            + (f" (oldest {sep['oldest_age_days']} d)" if sep["oldest_age_days"] else ""),
        )
    return details


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
    details = _details(checks)
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
        first, second = details[name]
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
