"""GitHub-flavoured Markdown: the official `tier-check --output markdown` layout, with evidence.

Fit for `$GITHUB_STEP_SUMMARY` and a pull-request comment: the official headings and bold header
fields, a requirements table per revision and leg, failing scenarios with their check messages
and spec links, not-scored results folded in `<details>`, the governance table, blockers,
remediation and the note. Pure: the scorecard document in, text out.
"""

from __future__ import annotations

from collections.abc import Sequence

from tiercheck.config.disputes import CONFORMANCE_REPO
from tiercheck.render import markdown as md
from tiercheck.render.element import ISSUE_PAGES
from tiercheck.render.markdown import BLANK, Inline, Md, bullet, code, fmt, own
from tiercheck.scorecard.model import ScenarioEntry, Scorecard
from tiercheck.scorecard.readings import (
    FLAKY_NOTE,
    NOT_APPLICABLE_NOTE,
    WARNINGS_NOTE,
    LegView,
    WarningRow,
    confirmation_line,
    confirmation_note,
    dispute_state,
    failure_message,
    flaky_summary,
    leg_tiers_line,
    legs,
    merged_legs,
    not_applicable_rows,
    not_scored_why,
    pct,
    scenario_result,
    sep1730_note,
    short_sha,
    signal_detail,
    signal_disagreement,
    signal_rows,
    version_text,
    warning_rows,
)
from tiercheck.scorecard.remediation import NOT_ASSESSED, not_assessed
from tiercheck.scorecard.render.probes import probe_blocks, probes_markdown_lines

__all__ = ["render_markdown"]

#: Failing lists longer than this fold into `<details>`; remediation shows this many items.
FOLD_AFTER = 15
ITEMS_SHOWN = 10
#: Spec links are kept only to the specification's own site.
SPEC_HOSTS = ("modelcontextprotocol.io", "spec.modelcontextprotocol.io")

_ICONS = {
    "pass": own("✅"),
    "partial": own("⚠️"),
    "fail": own("❌"),
    "skipped": own("➖"),
    "inconclusive": own("❔"),
}


def _header(doc: Scorecard) -> list[Md]:
    sdk, harness = doc.sdk, doc.harness
    tier = doc.implied_tier.tier
    fields: list[tuple[str, Inline]] = [
        ("Repo", doc.repo),
        ("Branch", doc.branch or sdk.ref or "default"),
        ("Commit", code(short_sha(sdk.commit))),
        ("Version", version_text(doc)),
        (
            "Harness",
            fmt(
                "{} {} (Node {})",
                harness.package,
                harness.version or "?",
                harness.node_version or "?",
            ),
        ),
        ("Requirements", ", ".join(doc.requirements_revisions) or "none"),
        ("Timestamp", doc.timestamp),
    ]
    alone = leg_tiers_line(doc)
    if alone and not_assessed(doc) is None:
        fields.append(("Each side alone", alone))
    unassessed = not_assessed(doc)
    shown = f"Tier {tier}" if unassessed is None else NOT_ASSESSED
    lines = [md.heading(1, f"Tier Assessment: {shown}"), BLANK]
    # Two trailing spaces: a hard line break, so the fields stack as in the official report.
    lines += [fmt("**{}:** {}  ", name, value) for name, value in fields]
    if unassessed is not None:
        said = fmt("**Not assessed:** {}.", unassessed.reason)
        if unassessed.hint:
            said = fmt("{} First: {}.", said, unassessed.hint)
        lines += [BLANK, md.quote(said)]
    if doc.interrupted:
        lines += [
            BLANK,
            own("> **Interrupted:** this scorecard holds only what was measured before."),
        ]
    return lines


def _result(status: str, rate: str) -> Md:
    icon = _ICONS.get(status)
    shown = fmt("{} ({})", status, rate)
    return fmt("{} {}", icon, shown) if icon else shown


def _leg_row(view: LegView, label: Inline) -> list[Inline]:
    data = view.data
    leg = view.leg.capitalize()
    dash = "—"
    if view.state == "skipped":
        return [label, leg, dash, dash, own("➖ skipped"), view.reason]
    if view.state == "unmeasured":
        return [label, leg, dash, dash, own("❔ not measured"), view.reason]
    result = _result(data.status, pct(data.pass_rate))
    note: Inline = view.reason if view.state == "partially-measured" else ""
    if data.not_scored.total:
        extra = f"{data.not_scored.total} not scored"
        note = fmt("{}; {}", note, extra) if note else extra
    if data.flaky:
        extra = f"{data.flaky} flaky (counted as passed)"
        note = fmt("{}; {}", note, extra) if note else extra
    sep = sep1730_note(data)
    if sep:
        note = fmt("{}; {}", note, sep) if note else sep
    return [label, leg, str(data.total), str(data.passed), result, note]


def _failing_items(failing: Sequence[tuple[LegView, ScenarioEntry]]) -> list[Md]:
    lines = []
    for view, detail in failing:
        expected = own(" _(expected failure in baseline)_") if detail.expected_failure else ""
        confirmed = confirmation_note(detail)
        said = fmt(" ({})", confirmed) if confirmed else ""
        where = fmt(
            "{}: {} [{}]{}{}", view.leg, code(detail.scenario), view.revision, expected, said
        )
        lines.append(bullet(where))
        if not detail.failures:
            lines.append(bullet(failure_message(detail), 2))
        for check in detail.failures:
            line = fmt("{}: {}{}", code(check.id), check.message or "", _spec(check.spec_url))
            lines.append(md.strip_end(bullet(line, 2), ": "))
    return lines


def _conformance(doc: Scorecard) -> list[Md]:
    views = list(legs(doc))
    rows = [_leg_row(v, v.revision) for v in views]
    if len({v.revision for v in views}) > 1:
        rows += [_leg_row(v, own("**all**")) for v in merged_legs(doc)]
    lines = [md.heading(3, "Conformance"), BLANK]
    lines += md.table(["Revision", "Leg", "Required", "Passed", "Result", "Notes"], rows)
    failing = [(v, d) for v in views for d in v.failing]
    if failing:
        items = _failing_items(failing)
        if len(failing) > FOLD_AFTER:
            # A leg that left no results fails every scenario; keep a PR comment readable.
            lines += [BLANK, *md.details(f"Failing ({len(failing)})", items)]
        else:
            lines += [BLANK, md.italic(f"Failing ({len(failing)}):"), BLANK, *items]
    flaky = [(v, d) for v in views for d in v.flaky]
    if flaky:
        items = [
            bullet(fmt("{}: {} [{}]: {}", v.leg, code(d.scenario), v.revision, flaky_summary(d)))
            for v, d in flaky
        ]
        lines += [BLANK, md.italic(f"Flaky ({len(flaky)}): {FLAKY_NOTE}."), BLANK, *items]
    if confirmation_line(doc):
        lines += [BLANK, md.italic(confirmation_line(doc))]
    unmeasured = [(v, d) for v in views for d in v.unmeasured]
    if unmeasured:
        items = [
            bullet(fmt("{} ({} {}): {}", code(d.scenario), v.leg, v.revision, d.unmeasured or ""))
            for v, d in unmeasured
        ]
        title = md.italic(f"Not measured ({len(unmeasured)}), neither passed nor failed:")
        lines += [BLANK, title, BLANK, *items]
    not_scored = [(v, d) for v in views for d in v.not_scored]
    if not_scored:
        table = md.table(
            ["Scenario", "Leg", "Revision", "Result", "Why not scored"],
            [
                [code(d.scenario), v.leg, v.revision, scenario_result(d), not_scored_why(d)]
                for v, d in not_scored
            ],
        )
        summary = f"Not scored ({len(not_scored)}): run and shown, never counted"
        lines += [BLANK, *md.details(summary, table)]
    disputed = [(v, d) for v in views for d in v.disputes]
    if disputed:
        lines += [BLANK, *_disputed_table(disputed)]
    return lines + _warnings(doc) + _not_applicable(doc)


def _not_applicable(doc: Scorecard) -> list[Md]:
    """The scenarios the harness lists for other revisions only, folded apart from everything
    scored: a row per revision, leg and reason, with where it was read."""
    found = not_applicable_rows(doc)
    if not found:
        return []
    table = md.table(
        ["Revision", "Leg", "Not applicable", "Scenarios", "Source"],
        [
            [r.revision, r.leg, r.reason, md.join((code(n) for n in r.scenarios), ", "), r.source]
            for r in found
        ],
    )
    total = sum(len(r.scenarios) for r in found)
    summary = f"Not applicable at this revision ({total}): {NOT_APPLICABLE_NOTE}"
    return [BLANK, *md.details(summary, table)]


def _spec(url: str | None) -> Md:
    """` (spec)` linked when `url` is on the specification's site, else the URL as code."""
    if not url:
        return own("")
    spec = md.https_url(url, SPEC_HOSTS)
    return fmt(" ({})", md.link("spec", spec)) if spec else fmt(" (spec: {})", code(url))


def _warning_items(found: Sequence[WarningRow]) -> list[Md]:
    lines: list[Md] = []
    last: tuple[int, int] | None = None
    for row in found:
        detail = row.detail
        # One bullet per scenario, its warnings under it (rows come scenario by scenario).
        at = (id(row.view), id(detail))
        if at != last:
            shown = detail.result
            scored = "" if detail.scored else ", not scored"
            where = fmt(
                "{}: {} [{}], scenario {}{}",
                row.view.leg,
                code(detail.scenario),
                row.view.revision,
                shown,
                scored,
            )
            lines.append(bullet(where))
            last = at
        line = fmt(
            "{}: {}{}", code(row.check.id), row.check.message or "", _spec(row.check.spec_url)
        )
        lines.append(md.strip_end(bullet(line, 2), ": "))
    return lines


def _warnings(doc: Scorecard) -> list[Md]:
    """The WARNING checks, counted and listed apart from the failures (their count, even 0,
    whenever something was measured)."""
    found = warning_rows(doc)
    if not found and not_assessed(doc) is not None:
        return []
    summary = f"Warnings ({len(found)}): {WARNINGS_NOTE}"
    if not found:
        return [BLANK, md.italic(f"{summary}.")]
    items = _warning_items(found)
    if len(found) > FOLD_AFTER:
        return [BLANK, *md.details(summary, items)]
    return [BLANK, md.italic(f"{summary}:"), BLANK, *items]


def _disputed_table(disputed: Sequence[tuple[LegView, ScenarioEntry]]) -> list[Md]:
    rows: list[list[Inline]] = []
    for view, d in disputed:
        dispute = d.dispute
        assert dispute is not None
        issue = md.github_link(None, dispute.issue, repo=CONFORMANCE_REPO, kinds=ISSUE_PAGES)
        title = fmt(" {}", dispute.title) if dispute.title else ""
        rows.append(
            [
                code(d.scenario),
                view.leg,
                view.revision,
                scenario_result(d),
                dispute_state(d),
                fmt("{}{}", issue, title),
                dispute.reason,
            ]
        )
    table = md.table(["Scenario", "Leg", "Revision", "Result", "Dispute", "Issue", "Reason"], rows)
    title = md.italic(
        f"Disputed ({len(disputed)}): run and shown; an open dispute leaves the scenario out of "
        "the SEP-1730 reading only"
    )
    return [title, BLANK, *table]


def _governance(doc: Scorecard) -> list[Md]:
    rows: list[list[Inline]] = []
    disagreements = []
    for key, title, signal in signal_rows(doc):
        status = signal.status
        mark = fmt("{} {}", _ICONS.get(status, ""), status)
        rows.append([title, mark, signal_detail(key, signal)])
        differs = signal_disagreement(signal)
        if differs:
            disagreements.append(
                bullet(fmt("{}: official {}; {}", md.bold(title), status, differs))
            )
    governance = doc.governance
    lines = [md.heading(3, "Repository health"), BLANK]
    if governance.source == "snapshot":
        replayed = fmt("Replayed from snapshot {}.", code(governance.snapshot or "?"))
        lines += [md.italic(replayed), BLANK]
    lines += md.table(["Check", "Status", "Detail"], rows)
    open_p0 = doc.checks.p0_resolution.get("open_p0_details") or []
    if open_p0:
        lines += [BLANK, own("Open P0 issues:"), BLANK]
        lines += [
            bullet(
                fmt(
                    "{} {} ({} days)",
                    _issue(doc.repo, p.get("number")),
                    p.get("title"),
                    p.get("age_days"),
                )
            )
            for p in open_p0
        ]
    if disagreements:
        lines += [BLANK, own("Where SEP-1730 as written reads the evidence differently:"), BLANK]
        lines += disagreements
    return lines


def _issue(repo: str, number: object) -> Md:
    """`#N` linked to the SDK's own issue N (a bare `#N` would name an issue of whichever
    repository shows the report)."""
    if isinstance(number, bool) or not isinstance(number, int):
        return md.text(number)
    url = md.github_url(repo, "issues", str(number))
    return md.link(fmt("#{}", number), url) if url else code(f"#{number}")


def _blockers(doc: Scorecard) -> list[Md]:
    implied = doc.implied_tier
    lines = [md.heading(2, "Tier 1 Blockers"), BLANK]
    lines += [bullet(code(b)) for b in implied.tier1_blockers] or [own("None.")]
    tier2 = implied.tier2_blockers
    if implied.tier == 3 and tier2:
        lines += [BLANK, md.heading(2, "Tier 2 Blockers"), BLANK]
        lines += [bullet(code(b)) for b in tier2]
    return lines


def _remediation(doc: Scorecard) -> list[Md]:
    if not doc.remediation:
        return []
    lines = [md.heading(2, "Remediation"), BLANK]
    for number, entry in enumerate(doc.remediation, 1):
        clears = entry.unblocks
        suffix = f", clears {clears} blocker{'s' if clears != 1 else ''}" if clears else ""
        step = fmt("{} (for Tier {}{})", md.bold(entry.action), entry.for_tier, suffix)
        lines.append(md.numbered(number, step))
        items = list(entry.items)
        lines += [bullet(item, 3) for item in items[:ITEMS_SHOWN]]
        if len(items) > ITEMS_SHOWN:
            lines.append(bullet(f"… and {len(items) - ITEMS_SHOWN} more", 3))
    return lines


def _evidence(doc: Scorecard) -> list[Md]:
    artifacts = doc.artifacts
    lines = []
    if artifacts.raw:
        lines.append(bullet(fmt("Raw harness results: {}", code(artifacts.raw))))
    for name, path in sorted(artifacts.logs.items()):
        lines.append(bullet(fmt("Log {}: {}", name, code(path))))
    lines += [bullet(fmt("Not measured: {}: {}", u.what, u.reason)) for u in doc.unmeasured]
    return [md.heading(2, "Evidence"), BLANK, *lines] if lines else []


def _history(doc: Scorecard) -> list[Md]:
    from tiercheck.scorecard.history_text import history_lines

    if doc.history is None:
        return []
    return [
        md.heading(2, "History"),
        BLANK,
        *(bullet(line) for line in history_lines(doc.history, sdk=doc.sdk.name)),
    ]


def _harness_comparison(doc: Scorecard) -> list[Md]:
    """`--compare-harness`: what was compared, each leg, and a row per disagreement (scenario
    names, check ids and messages are the harnesses' text, escaped as every cell is)."""
    from tiercheck.scorecard.harnesses import (
        COMPARISON_NOTE,
        comparison_summary,
        leg_text,
    )

    block = doc.harness_comparison
    if block is None:
        return []
    lines = [
        md.heading(2, "Harness comparison"),
        BLANK,
        md.quote(f"Harness {block.version} beside the referee {block.referee}: {COMPARISON_NOTE}."),
        BLANK,
        bullet(comparison_summary(block)),
        *(bullet(leg_text(leg)) for leg in block.legs),
    ]
    if not block.disagreements:
        return lines
    rows = [
        [
            d.revision,
            d.leg,
            code(d.scenario),
            d.kind,
            code(d.check) if d.check else "—",
            d.referee or "—",
            d.ci or "—",
            d.message or "",
        ]
        for d in block.disagreements
    ]
    header = ["Revision", "Leg", "Scenario", "Disagreement", "Check", "Referee", block.version]
    table = md.table([*header, "Message"], rows)
    return [*lines, BLANK, *md.details(f"{len(rows)} disagreements", table)]


def render_markdown(doc: Scorecard) -> str:
    """The scorecard as GitHub-flavoured Markdown (ends with a newline).

    Sections: `# Tier Assessment: Tier N` with bold Repo/Branch/Commit/Version/Harness/
    Requirements/Timestamp, `## Check Results` (conformance per revision × leg, failing scenarios
    with each failing check's message and spec link, not-scored results in a `<details>` block,
    repository health as `Check | Status | Detail`), `## Tier 1 Blockers` (and Tier 2's when the
    tier is 3), `## Remediation`, `## Evidence` and the note as a blockquote. A run that
    measured nothing has no tier: `# Tier Assessment: not assessed`, then why and what to do
    first as a blockquote, and no note (`scorecard.remediation.not_assessed`).
    """
    sections = [
        _header(doc),
        [md.heading(2, "Check Results"), BLANK, *_conformance(doc), BLANK, *_governance(doc)],
        _blockers(doc),
        _remediation(doc),
        _history(doc),
        _evidence(doc),
        # The tier's note speaks of a tier: a run that measured nothing has none to speak of.
        [md.quote(doc.implied_tier.note)] if not_assessed(doc) is None else [],
    ]
    blocks = probe_blocks(doc)
    if blocks:
        sections.append(probes_markdown_lines(blocks))
    sections.append(_harness_comparison(doc))
    lines: list[Md] = []
    for section in (s for s in sections if s):
        lines += [BLANK, *section] if lines else section
    return md.document(lines)
