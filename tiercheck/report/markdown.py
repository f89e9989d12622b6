"""GitHub-flavoured Markdown: the official `tier-check --output markdown` layout, with evidence.

Fit for `$GITHUB_STEP_SUMMARY` and a pull-request comment: the official headings and bold header
fields, a requirements table per revision and leg, failing scenarios with their check messages
and spec links, not-scored results folded in `<details>`, the governance table, blockers,
remediation and the note. Pure: the scorecard document in, text out.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from tiercheck.report._view import (
    SIGNALS,
    LegView,
    failing_checks,
    failure_message,
    is_expected_failure,
    legs,
    merged_legs,
    one_line,
    pct,
    short_sha,
    signal_detail,
    signal_disagreement,
)

__all__ = ["render_markdown"]

#: Failing lists longer than this fold into `<details>`; remediation shows this many items.
FOLD_AFTER = 15
ITEMS_SHOWN = 10

_ICONS = {"pass": "✅", "partial": "⚠️", "fail": "❌", "skipped": "➖", "inconclusive": "❔"}


def cell(text: object) -> str:
    """Text safe inside a table cell: one line, pipes escaped, HTML-ish characters neutral."""
    # `<` would open raw HTML in GitHub's renderer; a bare `|` would end the cell.
    return one_line(text).replace("<", "&lt;").replace("|", "\\|")


def inline(text: object) -> str:
    """Text safe in a list item: one line, without characters that start raw HTML."""
    return one_line(text).replace("<", "&lt;")


def _code(text: object) -> str:
    # A backtick inside would end the code span early; GitHub has no escape for it inside one.
    return f"`{one_line(text).replace('`', 'ʼ')}`"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


def _header(doc: Mapping[str, Any]) -> list[str]:
    sdk: Mapping[str, Any] = doc.get("sdk") or {}
    harness: Mapping[str, Any] = doc.get("harness") or {}
    tier = doc["implied_tier"]["tier"]
    fields = [
        ("Repo", inline(doc.get("repo"))),
        ("Branch", inline(doc.get("branch") or sdk.get("ref") or "default")),
        ("Commit", _code(short_sha(sdk.get("commit")))),
        ("Version", inline(doc.get("version") or "none")),
        (
            "Harness",
            f"{inline(harness.get('package'))} {inline(harness.get('version') or '?')}"
            f" (Node {inline(harness.get('node_version') or '?')})",
        ),
        ("Requirements", inline(", ".join(doc.get("requirements_revisions") or []) or "none")),
        ("Timestamp", inline(doc.get("timestamp"))),
    ]
    lines = [f"# Tier Assessment: Tier {tier}", ""]
    # Two trailing spaces: a hard line break, so the fields stack as in the official report.
    lines += [f"**{name}:** {value}  " for name, value in fields]
    if doc.get("interrupted"):
        lines += ["", "> **Interrupted:** this scorecard holds only what was measured before."]
    return lines


def _leg_row(view: LegView, label: str) -> list[str]:
    data = view.data
    leg = view.leg.capitalize()
    if view.state == "skipped":
        return [label, leg, "—", "—", "➖ skipped", cell(view.reason)]
    if view.state == "unmeasured":
        return [label, leg, "—", "—", "❔ not measured", cell(view.reason)]
    status = str(data.get("status"))
    result = f"{_ICONS.get(status, '')} {status} ({pct(data.get('pass_rate'))})".strip()
    note = cell(view.reason) if view.state == "partially-measured" else ""
    not_scored = data.get("not_scored") or {}
    if not_scored.get("total"):
        extra = f"{not_scored['total']} not scored"
        note = f"{note}; {extra}" if note else extra
    return [label, leg, str(data.get("total", 0)), str(data.get("passed", 0)), result, note]


def _failing_items(failing: Sequence[tuple[LegView, Mapping[str, Any]]]) -> list[str]:
    lines = []
    for view, detail in failing:
        expected = " _(expected failure in baseline)_" if is_expected_failure(detail) else ""
        lines.append(f"- {view.leg}: {_code(detail.get('scenario'))} [{view.revision}]{expected}")
        checks = failing_checks(detail)
        if not checks:
            lines.append(f"  - {inline(failure_message(detail))}")
        for check in checks:
            text = f"  - {_code(check.get('id'))}: {inline(check.get('message') or '')}"
            if check.get("spec_url"):
                text += f" ([spec]({one_line(check['spec_url'])}))"
            lines.append(text.rstrip(": "))
    return lines


def _conformance(doc: Mapping[str, Any]) -> list[str]:
    views = list(legs(doc))
    rows = [_leg_row(v, v.revision) for v in views]
    if len({v.revision for v in views}) > 1:
        rows += [_leg_row(v, "**all**") for v in merged_legs(doc)]
    lines = ["### Conformance", ""]
    lines += _table(["Revision", "Leg", "Required", "Passed", "Result", "Notes"], rows)
    failing = [(v, d) for v in views for d in v.failing]
    if failing:
        items = _failing_items(failing)
        if len(failing) > FOLD_AFTER:
            # A leg that left no results fails every scenario; keep a PR comment readable.
            summary = f"<summary>Failing ({len(failing)})</summary>"
            lines += ["", "<details>", summary, "", *items, "", "</details>"]
        else:
            lines += ["", f"_Failing ({len(failing)}):_", "", *items]
    not_scored = [(v, d) for v in views for d in v.not_scored]
    if not_scored:
        rows = [
            [
                _code(d.get("scenario")),
                v.leg,
                v.revision,
                "passed" if d.get("passed") else cell(f"failed: {failure_message(d)}"),
                cell(d.get("notScoredReason")),
            ]
            for v, d in not_scored
        ]
        lines += [
            "",
            "<details>",
            f"<summary>Not scored ({len(not_scored)}): run and shown, never counted</summary>",
            "",
            *_table(["Scenario", "Leg", "Revision", "Result", "Why not scored"], rows),
            "",
            "</details>",
        ]
    return lines


def _governance(doc: Mapping[str, Any]) -> list[str]:
    checks: Mapping[str, Any] = doc.get("checks") or {}
    rows = []
    disagreements = []
    for key, title in SIGNALS:
        signal = checks.get(key)
        if not isinstance(signal, Mapping):
            continue
        status = str(signal.get("status"))
        rows.append([title, f"{_ICONS.get(status, '')} {status}", cell(signal_detail(key, signal))])
        differs = signal_disagreement(signal)
        if differs:
            disagreements.append(f"- **{title}**: official {status}; {inline(differs)}")
    governance: Mapping[str, Any] = doc.get("governance") or {}
    lines = ["### Repository health", ""]
    if governance.get("source") == "snapshot":
        lines += [f"_Replayed from snapshot {_code(governance.get('snapshot') or '?')}._", ""]
    lines += _table(["Check", "Status", "Detail"], rows)
    p0: Mapping[str, Any] = checks.get("p0_resolution") or {}
    open_p0 = p0.get("open_p0_details") or []
    if open_p0:
        lines += ["", "Open P0 issues:", ""]
        lines += [
            f"- #{p.get('number')} {inline(p.get('title'))} ({p.get('age_days')} days)"
            for p in open_p0
        ]
    if disagreements:
        lines += ["", "Where SEP-1730 as written reads the evidence differently:", ""]
        lines += disagreements
    return lines


def _blockers(doc: Mapping[str, Any]) -> list[str]:
    implied = doc["implied_tier"]
    lines = ["## Tier 1 Blockers", ""]
    blockers = implied.get("tier1_blockers") or []
    lines += [f"- {_code(b)}" for b in blockers] or ["None."]
    tier2 = implied.get("tier2_blockers") or []
    if implied.get("tier") == 3 and tier2:
        lines += ["", "## Tier 2 Blockers", ""]
        lines += [f"- {_code(b)}" for b in tier2]
    return lines


def _remediation(doc: Mapping[str, Any]) -> list[str]:
    entries = doc.get("remediation") or []
    if not entries:
        return []
    lines = ["## Remediation", ""]
    for number, entry in enumerate(entries, 1):
        clears = entry.get("unblocks")
        suffix = f", clears {clears} blocker{'s' if clears != 1 else ''}" if clears else ""
        lines.append(
            f"{number}. **{inline(entry['action'])}** (for Tier {entry['for_tier']}{suffix})"
        )
        items = list(entry.get("items") or [])
        lines += [f"   - {inline(item)}" for item in items[:ITEMS_SHOWN]]
        if len(items) > ITEMS_SHOWN:
            lines.append(f"   - … and {len(items) - ITEMS_SHOWN} more")
    return lines


def _evidence(doc: Mapping[str, Any]) -> list[str]:
    artifacts: Mapping[str, Any] = doc.get("artifacts") or {}
    lines = []
    if artifacts.get("raw"):
        lines.append(f"- Raw harness results: {_code(artifacts['raw'])}")
    for name, path in sorted((artifacts.get("logs") or {}).items()):
        lines.append(f"- Log {inline(name)}: {_code(path)}")
    unmeasured = doc.get("unmeasured") or []
    lines += [f"- Not measured: {inline(u['what'])}: {inline(u['reason'])}" for u in unmeasured]
    return ["## Evidence", "", *lines] if lines else []


def render_markdown(doc: Mapping[str, Any]) -> str:
    """The scorecard as GitHub-flavoured Markdown (ends with a newline).

    Sections: `# Tier Assessment: Tier N` with bold Repo/Branch/Commit/Version/Harness/
    Requirements/Timestamp, `## Check Results` (conformance per revision × leg, failing scenarios
    with each failing check's message and spec link, not-scored results in a `<details>` block,
    repository health as `Check | Status | Detail`), `## Tier 1 Blockers` (and Tier 2's when the
    tier is 3), `## Remediation`, `## Evidence` and the note as a blockquote.
    """
    sections = [
        _header(doc),
        ["## Check Results", "", *_conformance(doc), "", *_governance(doc)],
        _blockers(doc),
        _remediation(doc),
        _evidence(doc),
        [f"> {html.escape(one_line(doc['implied_tier'].get('note', '')), quote=False)}"],
    ]
    return "\n\n".join("\n".join(s) for s in sections if s) + "\n"
