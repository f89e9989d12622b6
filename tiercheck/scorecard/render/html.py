"""The scorecard as one self-contained HTML page (`scorecard.html`, `--output html`).

Self-contained means it renders the same with no network: the styles are inline, the badge is
inline SVG, there is no script and no external asset of any kind. The page is composed with the
HTML kit (`tiercheck.render.html`), so every string from the SDK or the harness is escaped (they
are untrusted), and control characters are dropped first.
"""

from __future__ import annotations

from tiercheck.config.disputes import CONFORMANCE_REPO
from tiercheck.plaintext import one_line
from tiercheck.render.badge import tier_badge
from tiercheck.render.element import ISSUE_PAGES
from tiercheck.render.html import (
    Html,
    chip,
    el,
    github_link,
    join,
    page,
    scroll_region,
    table,
    void,
)
from tiercheck.render.trend import trend_svg
from tiercheck.scorecard.history_text import history_lines
from tiercheck.scorecard.model import ScenarioEntry, Scorecard
from tiercheck.scorecard.readings import (
    FLAKY_NOTE,
    NOT_APPLICABLE_NOTE,
    WARNINGS_NOTE,
    confirmation_line,
    confirmation_note,
    dispute_lead,
    dispute_title,
    failure_message,
    flaky_summary,
    leg_tiers_line,
    legs,
    merged_legs,
    not_applicable_rows,
    not_scored_why,
    pct,
    sep1730_note,
    short_sha,
    signal_detail,
    signal_rows,
    trend_columns,
    version_text,
    warning_rows,
)
from tiercheck.scorecard.remediation import NOT_ASSESSED, not_assessed
from tiercheck.scorecard.render.probes import ADVISORY_NOTE, probe_blocks, probe_counts

__all__ = ["render_html"]


def _scenario_row(entry: ScenarioEntry) -> list[Html | str]:
    why = ""
    if not entry.measured:
        verdict, why = chip("skipped", "unmeasured"), one_line(entry.unmeasured)
    elif entry.result == "flaky":
        verdict, why = chip("needs review", "flaky"), flaky_summary(entry)
    elif entry.passed:
        verdict = chip("pass")
    elif entry.expected_failure:
        verdict, why = chip("partial", "expected failure"), failure_message(entry)
    else:
        verdict, why = chip("fail"), failure_message(entry)
    confirmed = confirmation_note(entry)
    if confirmed:
        why = f"{why} ({confirmed})"
    message = el("div", why, class_="msg") if why else ""
    scored = (
        ""
        if entry.scored
        else " " + el("span", f"(not scored: {not_scored_why(entry)})", class_="msg")
    )
    dispute = (
        el(
            "div",
            dispute_lead(entry),
            github_link(None, entry.dispute.issue, repo=CONFORMANCE_REPO, kinds=ISSUE_PAGES),
            dispute_title(entry),
            class_="msg",
        )
        if entry.dispute
        else ""
    )
    checks = f"{entry.checks_passed}/{entry.checks_passed + entry.checks_failed}"
    return [join((el("code", entry.scenario), scored, message, dispute)), verdict, checks]


def _conformance(doc: Scorecard) -> Html:
    parts = [el("h2", "Conformance, per revision and leg")]
    for view in legs(doc):
        data = view.data
        title = f"{view.revision} · {view.leg}"
        if view.state != "measured":
            parts.append(el("h3", title, " ", chip(view.state)))
            parts.append(el("p", view.reason, class_="msg"))
            continue
        summary = f"{data.passed}/{data.total} scored passed ({pct(data.pass_rate)})"
        if data.flaky:
            summary += f", {data.flaky} of them flaky"
        parts.append(
            el("h3", title, " ", chip(data.status), " ", el("span", summary, class_="msg"))
        )
        # Failures first, then flaky, then the rest, each group by name: what needs acting on
        # is on top.
        ordered = sorted(
            view.details, key=lambda d: (d.passed, not d.flaky, not d.scored, d.scenario)
        )
        rows = [_scenario_row(d) for d in ordered]
        parts.append(
            scroll_region(
                table(["Scenario", "Result", "Checks"], rows, numeric=(2,)), f"Scenarios, {title}"
            )
        )
    for view in merged_legs(doc):
        note = sep1730_note(view.data)
        if note:
            parts.append(el("p", f"{view.leg}, all revisions: {note}", class_="note"))
    if any(view.flaky for view in legs(doc)):
        parts.append(el("p", f"Flaky: {FLAKY_NOTE}.", class_="note"))
    if confirmation_line(doc):
        parts.append(el("p", confirmation_line(doc), class_="note", id="confirmation"))
    return join(parts, "\n")


def _warnings(doc: Scorecard) -> Html:
    """The WARNING checks, counted and listed apart from the failures (their count, even 0,
    whenever something was measured)."""
    found = warning_rows(doc)
    if not found and not_assessed(doc) is not None:
        return Html()
    parts = [
        el("h2", f"Warnings ({len(found)})"),
        el("p", f"{WARNINGS_NOTE}.", class_="note"),
    ]
    if found:
        rows = []
        for row in found:
            detail = row.detail
            verdict = {"flaky": chip("needs review", "flaky"), "passed": chip("pass")}.get(
                detail.result, chip("fail")
            )
            scored = "" if detail.scored else " (not scored)"
            check = row.check
            message = el("div", check.message, class_="msg") if check.message else ""
            rows.append(
                [
                    join((el("code", detail.scenario), scored)),
                    f"{row.view.revision} · {row.view.leg}",
                    verdict,
                    join((el("code", check.id), message)),
                ]
            )
        header = ["Scenario", "Leg", "Scenario verdict", "Warning"]
        parts.append(scroll_region(table(header, rows), "Warnings"))
    return join(parts, "\n")


def _governance(doc: Scorecard) -> Html:
    rows = []
    for key, name, signal in signal_rows(doc):
        sep = signal.sep1730_status
        status = chip(signal.status)
        if sep and signal.disagrees_with_official:
            status = join((status, " · SEP-1730: ", chip(sep)))
        rows.append([name, status, signal_detail(key, signal)])
    source = doc.governance
    when = f" as of {source.as_of}" if source.as_of else ""
    return join(
        (
            el("h2", "Governance"),
            el("p", f"source: {source.source}{when}", class_="msg"),
            scroll_region(table(["Check", "Status", "Evidence"], rows), "Governance checks"),
        )
    )


def _blockers(doc: Scorecard) -> Html:
    implied = doc.implied_tier
    items = [el("li", f"Tier 1: {b}") for b in implied.tier1_blockers]
    items += [el("li", f"Tier 2: {b}") for b in implied.tier2_blockers]
    body = el("ul", *items, class_="blockers") if items else el("p", "None.")
    sep = implied.sep1730
    differ = (
        el("p", f"SEP-1730 as written implies Tier {sep.tier}.")
        if implied.disagrees_with_official
        else ""
    )
    # The tier's note speaks of a tier: a run that measured nothing has none to speak of.
    note = el("p", implied.note, class_="note") if not_assessed(doc) is None else ""
    return join((el("h2", "Blockers"), body, differ, note))


def _remediation(doc: Scorecard) -> Html:
    if not doc.remediation:
        return join((el("h2", "Remediation"), el("p", "Nothing to do.")))
    rows = [
        [
            f"Tier {step.for_tier}",
            step.action,
            void("br").join(step.items[:10])
            + (
                " " + el("span", f"(+{len(step.items) - 10} more)", class_="msg")
                if len(step.items) > 10
                else ""
            ),
        ]
        for step in doc.remediation
    ]
    steps = scroll_region(table(["For", "Action", "Evidence"], rows), "Remediation steps")
    return join((el("h2", "Remediation"), steps))


def _history(doc: Scorecard) -> Html:
    block = doc.history
    if block is None:
        return Html()
    items = [el("li", line) for line in history_lines(block, sdk=doc.sdk.name)]
    chart = (
        el(
            "figure",
            trend_svg(doc.sdk.name, block.trend, trend_columns(doc.requirements_revisions)),
            el(
                "figcaption",
                "Scored pass rate per revision and leg over the last "
                f"{len(block.trend)} run(s); a dashed line marks a tier change.",
                class_="msg",
            ),
            class_="trend",
        )
        if block.trend
        else ""
    )
    return join((el("h2", "History"), el("ul", *items), chart))


def _probe_detail(outcome: str, evidence: tuple[str, ...], rule: Html) -> Html | str:
    sent = el("ul", *(el("li", el("code", e)) for e in evidence))
    if outcome in ("warn", "fail"):
        return el("div", sent, rule, class_="msg")
    # A pass shows what was sent and seen, without the rule it kept.
    return el("div", sent, class_="msg") if evidence else ""


def _probes(doc: Scorecard) -> Html:
    blocks = probe_blocks(doc)
    if not blocks:
        return Html()
    parts = [
        el("h2", "Advisory probes"),
        el(
            "p",
            f"{ADVISORY_NOTE} WARN is a SHOULD broken, FAIL a MUST broken.",
            class_="note",
        ),
    ]
    for revision, block in blocks.items():
        counts = probe_counts(block) or "none run"
        parts.append(el("h3", revision, " ", el("span", counts, class_="msg")))
        rows = []
        for entry in block.results:
            fix = el("div", f"fix: {entry.fix}") if entry.fix else ""
            rule = join((f"rule ({entry.level}): {entry.spec}", fix))
            detail = _probe_detail(entry.outcome, tuple(entry.evidence), rule)
            rows.append(
                [el("code", entry.probe), chip(entry.outcome), join((entry.summary, detail))]
            )
        parts.append(
            scroll_region(table(["Probe", "Result", "Observed"], rows), f"Probes, {revision}")
        )
    return join(parts, "\n")


def _not_assessed(doc: Scorecard) -> Html:
    """Why a run that measured nothing has no tier, and what to do first (nothing otherwise)."""
    unassessed = not_assessed(doc)
    if unassessed is None:
        return Html()
    first = el("p", "First: ", unassessed.hint, ".") if unassessed.hint else ""
    return el(
        "section",
        el("h2", "Not assessed"),
        el("p", unassessed.reason, "."),
        first,
        id="not-assessed",
    )


def _not_applicable(doc: Scorecard) -> Html:
    """The scenarios the harness lists for other revisions only, apart from everything scored:
    a row per revision, leg and reason, with where it was read."""
    found = not_applicable_rows(doc)
    if not found:
        return Html()
    rows: list[list[Html | str]] = [
        [
            f"{row.revision} · {row.leg}",
            row.reason,
            join((el("code", name) for name in row.scenarios), ", "),
            el("span", row.source, class_="msg"),
        ]
        for row in found
    ]
    total = sum(len(row.scenarios) for row in found)
    return join(
        (
            el("h2", f"Not applicable at this revision ({total})"),
            el("p", f"{NOT_APPLICABLE_NOTE}.", class_="note"),
            scroll_region(
                table(["Leg", "Not applicable", "Scenarios", "Source"], rows), "Not applicable"
            ),
        ),
        "\n",
    )


def render_html(doc: Scorecard) -> str:
    """The scorecard page: the tier and its blockers, every leg, governance, remediation; a run
    that measured nothing shows no tier but why (`scorecard.remediation.not_assessed`)."""
    unassessed = not_assessed(doc)
    tier = doc.implied_tier.tier
    title = f"Tier {tier}: {doc.repo}" if unassessed is None else f"{NOT_ASSESSED}: {doc.repo}"
    heading = join((tier_badge(None if unassessed else tier), el("span", title)))
    meta = (
        f"{doc.sdk.name} at {short_sha(doc.sdk.commit)} · version {version_text(doc)} · revisions "
        f"{', '.join(doc.requirements_revisions) or 'none'} · harness {doc.harness.package} "
        f"{doc.harness.version or '?'} · {doc.timestamp}"
    )
    alone = leg_tiers_line(doc)
    if alone and unassessed is None:
        meta += f" · {alone}"
    # What decides the tier first; history and the advisory probes (which change nothing) last.
    sections = [
        _not_assessed(doc),
        _blockers(doc),
        _conformance(doc),
        _warnings(doc),
        _not_applicable(doc),
        _governance(doc),
        _remediation(doc),
        _history(doc),
        _probes(doc),
    ]
    body = join((section for section in sections if section), "\n")
    return str(page(title, heading, meta, body))
