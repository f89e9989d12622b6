"""GitHub-flavoured Markdown: the official `tier-check --output markdown` layout, with evidence.

Fit for `$GITHUB_STEP_SUMMARY` and a pull-request comment: the official headings and bold header
fields, a requirements table per revision and leg, failing scenarios with their check messages
and spec links, not-scored results folded in `<details>`, the governance table, blockers,
remediation and the note. Pure: the scorecard document in, text out.
"""

from __future__ import annotations

from collections.abc import Sequence

from tiercheck.report import untrusted_md as md
from tiercheck.report.probes import probe_blocks, probes_markdown
from tiercheck.report.untrusted_md import Md, cell, code, code_cell, text
from tiercheck.scorecard.model import ScenarioEntry, Scorecard
from tiercheck.scorecard.view import (
    SIGNALS,
    LegView,
    failure_message,
    legs,
    merged_legs,
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
#: Spec links are kept only to the specification's own site.
SPEC_HOSTS = ("modelcontextprotocol.io", "spec.modelcontextprotocol.io")

_ICONS = {"pass": "✅", "partial": "⚠️", "fail": "❌", "skipped": "➖", "inconclusive": "❔"}


def _table(header: Sequence[str], rows: Sequence[Sequence[Md]]) -> list[Md]:
    return md.table([md.own(h) for h in header], rows)


def _header(doc: Scorecard) -> list[str]:
    sdk, harness = doc.sdk, doc.harness
    tier = doc.implied_tier.tier
    fields = [
        ("Repo", text(doc.repo)),
        ("Branch", text(doc.branch or sdk.ref or "default")),
        ("Commit", code(short_sha(sdk.commit))),
        ("Version", text(doc.version or "none")),
        (
            "Harness",
            f"{text(harness.package)} {text(harness.version or '?')}"
            f" (Node {text(harness.node_version or '?')})",
        ),
        ("Requirements", text(", ".join(doc.requirements_revisions) or "none")),
        ("Timestamp", text(doc.timestamp)),
    ]
    lines = [f"# Tier Assessment: Tier {tier}", ""]
    # Two trailing spaces: a hard line break, so the fields stack as in the official report.
    lines += [f"**{name}:** {value}  " for name, value in fields]
    if doc.interrupted:
        lines += ["", "> **Interrupted:** this scorecard holds only what was measured before."]
    return lines


def _leg_row(view: LegView, label: Md) -> list[Md]:
    data = view.data
    leg = md.own(view.leg.capitalize())
    dash = md.own("—")
    if view.state == "skipped":
        return [label, leg, dash, dash, md.own("➖ skipped"), cell(view.reason)]
    if view.state == "unmeasured":
        return [label, leg, dash, dash, md.own("❔ not measured"), cell(view.reason)]
    status = data.status
    result = md.own(f"{_ICONS.get(status, '')} {status} ({pct(data.pass_rate)})".strip())
    note = cell(view.reason) if view.state == "partially-measured" else md.own("")
    if data.not_scored.total:
        extra = f"{data.not_scored.total} not scored"
        note = md.own(f"{note}; {extra}" if note else extra)
    return [label, leg, md.own(str(data.total)), md.own(str(data.passed)), result, note]


def _failing_items(failing: Sequence[tuple[LegView, ScenarioEntry]]) -> list[str]:
    lines = []
    for view, detail in failing:
        expected = " _(expected failure in baseline)_" if detail.expected_failure else ""
        lines.append(f"- {view.leg}: {code(detail.scenario)} [{view.revision}]{expected}")
        if not detail.failures:
            lines.append(f"  - {text(failure_message(detail))}")
        for check in detail.failures:
            line = f"  - {code(check.id)}: {text(check.message or '')}"
            if check.spec_url:
                spec = md.https_url(check.spec_url, SPEC_HOSTS)
                line += f" ([spec]({spec}))" if spec else f" (spec: {code(check.spec_url)})"
            lines.append(line.rstrip(": "))
    return lines


def _conformance(doc: Scorecard) -> list[str]:
    views = list(legs(doc))
    rows = [_leg_row(v, cell(v.revision)) for v in views]
    if len({v.revision for v in views}) > 1:
        rows += [_leg_row(v, md.own("**all**")) for v in merged_legs(doc)]
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
            f"- {code(d.scenario)} ({v.leg} {v.revision}): {cell(d.unmeasured)}"
            for v, d in unmeasured
        ]
        lines += ["", f"_Not measured ({len(unmeasured)}), neither passed nor failed:_", "", *items]
    not_scored = [(v, d) for v in views for d in v.not_scored]
    if not_scored:
        rows = [
            [
                code_cell(d.scenario),
                md.own(v.leg),
                cell(v.revision),
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
    rows: list[list[Md]] = []
    disagreements = []
    for key, title in SIGNALS:
        signal = doc.checks.signal(key)
        status = signal.status
        mark = md.own(f"{_ICONS.get(status, '')} {status}")
        rows.append([md.own(title), mark, cell(signal_detail(key, signal))])
        differs = signal_disagreement(signal)
        if differs:
            disagreements.append(f"- **{title}**: official {status}; {text(differs)}")
    governance = doc.governance
    lines = ["### Repository health", ""]
    if governance.source == "snapshot":
        lines += [f"_Replayed from snapshot {code(governance.snapshot or '?')}._", ""]
    lines += _table(["Check", "Status", "Detail"], rows)
    open_p0 = doc.checks.p0_resolution.get("open_p0_details") or []
    if open_p0:
        lines += ["", "Open P0 issues:", ""]
        lines += [
            f"- {_issue(doc.repo, p.get('number'))} {text(p.get('title'))} "
            f"({text(p.get('age_days'))} days)"
            for p in open_p0
        ]
    if disagreements:
        lines += ["", "Where SEP-1730 as written reads the evidence differently:", ""]
        lines += disagreements
    return lines


def _issue(repo: str, number: object) -> Md:
    """`#N` linked to the SDK's own issue N (a bare `#N` would name an issue of whichever
    repository shows the report)."""
    if isinstance(number, bool) or not isinstance(number, int):
        return text(number)
    url = md.github_url(repo, "issues", str(number))
    return md.link(md.own(f"#{number}"), url) if url else code(f"#{number}")


def _blockers(doc: Scorecard) -> list[str]:
    implied = doc.implied_tier
    lines = ["## Tier 1 Blockers", ""]
    lines += [f"- {code(b)}" for b in implied.tier1_blockers] or ["None."]
    tier2 = implied.tier2_blockers
    if implied.tier == 3 and tier2:
        lines += ["", "## Tier 2 Blockers", ""]
        lines += [f"- {code(b)}" for b in tier2]
    return lines


def _remediation(doc: Scorecard) -> list[str]:
    if not doc.remediation:
        return []
    lines = ["## Remediation", ""]
    for number, entry in enumerate(doc.remediation, 1):
        clears = entry.unblocks
        suffix = f", clears {clears} blocker{'s' if clears != 1 else ''}" if clears else ""
        lines.append(f"{number}. **{text(entry.action)}** (for Tier {entry.for_tier}{suffix})")
        items = list(entry.items)
        lines += [f"   - {text(item)}" for item in items[:ITEMS_SHOWN]]
        if len(items) > ITEMS_SHOWN:
            lines.append(f"   - … and {len(items) - ITEMS_SHOWN} more")
    return lines


def _evidence(doc: Scorecard) -> list[str]:
    artifacts = doc.artifacts
    lines = []
    if artifacts.raw:
        lines.append(f"- Raw harness results: {code(artifacts.raw)}")
    for name, path in sorted(artifacts.logs.items()):
        lines.append(f"- Log {text(name)}: {code(path)}")
    lines += [f"- Not measured: {text(u.what)}: {text(u.reason)}" for u in doc.unmeasured]
    return ["## Evidence", "", *lines] if lines else []


def _history(doc: Scorecard) -> list[str]:
    from tiercheck.report.history import history_lines

    if doc.history is None:
        return []
    return ["## History", "", *(f"- {text(line)}" for line in history_lines(doc.history))]


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
        [f"> {text(doc.implied_tier.note)}"],
    ]
    blocks = probe_blocks(doc)
    if blocks:
        sections.append(probes_markdown(blocks).rstrip("\n").split("\n"))
    return "\n\n".join("\n".join(s) for s in sections if s) + "\n"
