"""GitHub-flavoured Markdown: the official `tier-check --output markdown` layout, with evidence.

Fit for `$GITHUB_STEP_SUMMARY` and a pull-request comment: the official headings and bold header
fields, a requirements table per revision and leg, failing scenarios with their check messages
and spec links, not-scored results folded in `<details>`, the governance table, blockers,
remediation and the note. Pure: the scorecard document in, text out.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from tiercheck.report.probes import probe_blocks, probes_markdown
from tiercheck.scorecard.model import ScenarioEntry, Scorecard
from tiercheck.scorecard.view import (
    SIGNALS,
    LegView,
    failure_message,
    legs,
    merged_legs,
    one_line,
    pct,
    scenario_result,
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


def _header(doc: Scorecard) -> list[str]:
    sdk, harness = doc.sdk, doc.harness
    tier = doc.implied_tier.tier
    fields = [
        ("Repo", inline(doc.repo)),
        ("Branch", inline(doc.branch or sdk.ref or "default")),
        ("Commit", _code(short_sha(sdk.commit))),
        ("Version", inline(doc.version or "none")),
        (
            "Harness",
            f"{inline(harness.package)} {inline(harness.version or '?')}"
            f" (Node {inline(harness.node_version or '?')})",
        ),
        ("Requirements", inline(", ".join(doc.requirements_revisions) or "none")),
        ("Timestamp", inline(doc.timestamp)),
    ]
    lines = [f"# Tier Assessment: Tier {tier}", ""]
    # Two trailing spaces: a hard line break, so the fields stack as in the official report.
    lines += [f"**{name}:** {value}  " for name, value in fields]
    if doc.interrupted:
        lines += ["", "> **Interrupted:** this scorecard holds only what was measured before."]
    return lines


def _leg_row(view: LegView, label: str) -> list[str]:
    data = view.data
    leg = view.leg.capitalize()
    if view.state == "skipped":
        return [label, leg, "—", "—", "➖ skipped", cell(view.reason)]
    if view.state == "unmeasured":
        return [label, leg, "—", "—", "❔ not measured", cell(view.reason)]
    status = data.status
    result = f"{_ICONS.get(status, '')} {status} ({pct(data.pass_rate)})".strip()
    note = cell(view.reason) if view.state == "partially-measured" else ""
    if data.not_scored.total:
        extra = f"{data.not_scored.total} not scored"
        note = f"{note}; {extra}" if note else extra
    return [label, leg, str(data.total), str(data.passed), result, note]


def _failing_items(failing: Sequence[tuple[LegView, ScenarioEntry]]) -> list[str]:
    lines = []
    for view, detail in failing:
        expected = " _(expected failure in baseline)_" if detail.expected_failure else ""
        lines.append(f"- {view.leg}: {_code(detail.scenario)} [{view.revision}]{expected}")
        if not detail.failures:
            lines.append(f"  - {inline(failure_message(detail))}")
        for check in detail.failures:
            text = f"  - {_code(check.id)}: {inline(check.message or '')}"
            if check.spec_url:
                text += f" ([spec]({one_line(check.spec_url)}))"
            lines.append(text.rstrip(": "))
    return lines


def _conformance(doc: Scorecard) -> list[str]:
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
    unmeasured = [(v, d) for v in views for d in v.unmeasured]
    if unmeasured:
        items = [
            f"- {_code(d.scenario)} ({v.leg} {v.revision}): {cell(d.unmeasured)}"
            for v, d in unmeasured
        ]
        lines += ["", f"_Not measured ({len(unmeasured)}), neither passed nor failed:_", "", *items]
    not_scored = [(v, d) for v in views for d in v.not_scored]
    if not_scored:
        rows = [
            [
                _code(d.scenario),
                v.leg,
                v.revision,
                cell(scenario_result(d)),
                cell(d.not_scored_reason),
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


def _governance(doc: Scorecard) -> list[str]:
    rows = []
    disagreements = []
    for key, title in SIGNALS:
        signal = doc.checks.signal(key)
        status = signal.status
        rows.append([title, f"{_ICONS.get(status, '')} {status}", cell(signal_detail(key, signal))])
        differs = signal_disagreement(signal)
        if differs:
            disagreements.append(f"- **{title}**: official {status}; {inline(differs)}")
    governance = doc.governance
    lines = ["### Repository health", ""]
    if governance.source == "snapshot":
        lines += [f"_Replayed from snapshot {_code(governance.snapshot or '?')}._", ""]
    lines += _table(["Check", "Status", "Detail"], rows)
    open_p0 = doc.checks.p0_resolution.get("open_p0_details") or []
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


def _blockers(doc: Scorecard) -> list[str]:
    implied = doc.implied_tier
    lines = ["## Tier 1 Blockers", ""]
    lines += [f"- {_code(b)}" for b in implied.tier1_blockers] or ["None."]
    tier2 = implied.tier2_blockers
    if implied.tier == 3 and tier2:
        lines += ["", "## Tier 2 Blockers", ""]
        lines += [f"- {_code(b)}" for b in tier2]
    return lines


def _remediation(doc: Scorecard) -> list[str]:
    if not doc.remediation:
        return []
    lines = ["## Remediation", ""]
    for number, entry in enumerate(doc.remediation, 1):
        clears = entry.unblocks
        suffix = f", clears {clears} blocker{'s' if clears != 1 else ''}" if clears else ""
        lines.append(f"{number}. **{inline(entry.action)}** (for Tier {entry.for_tier}{suffix})")
        items = list(entry.items)
        lines += [f"   - {inline(item)}" for item in items[:ITEMS_SHOWN]]
        if len(items) > ITEMS_SHOWN:
            lines.append(f"   - … and {len(items) - ITEMS_SHOWN} more")
    return lines


def _evidence(doc: Scorecard) -> list[str]:
    artifacts = doc.artifacts
    lines = []
    if artifacts.raw:
        lines.append(f"- Raw harness results: {_code(artifacts.raw)}")
    for name, path in sorted(artifacts.logs.items()):
        lines.append(f"- Log {inline(name)}: {_code(path)}")
    lines += [f"- Not measured: {inline(u.what)}: {inline(u.reason)}" for u in doc.unmeasured]
    return ["## Evidence", "", *lines] if lines else []


def _history(doc: Scorecard) -> list[str]:
    from tiercheck.report.history import history_lines

    if doc.history is None:
        return []
    return ["## History", "", *(f"- {inline(line)}" for line in history_lines(doc.history))]


def render_markdown(doc: Scorecard) -> str:
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
        _history(doc),
        _evidence(doc),
        [f"> {html.escape(one_line(doc.implied_tier.note), quote=False)}"],
    ]
    blocks = probe_blocks(doc)
    if blocks:
        sections.append(probes_markdown(blocks).rstrip("\n").split("\n"))
    return "\n\n".join("\n".join(s) for s in sections if s) + "\n"
