"""The terminal report: the tier first and large, then why, then what to do (pure).

Rendered with rich into a string (rich is imported inside the function so `--help` and the JSON
path stay cheap). Colour only when asked: with ``color=False`` the text holds no ANSI escapes,
fit for a log file or `scorecard.txt`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tiercheck.plaintext import one_line
from tiercheck.scorecard.readings import (
    FLAKY_NOTE,
    NOT_APPLICABLE_NOTE,
    WARNINGS_NOTE,
    LegView,
    confirmation_line,
    confirmation_note,
    dispute_summary,
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
from tiercheck.scorecard.render.probes import probe_blocks, probes_text

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from tiercheck.scorecard.model import Scorecard

__all__ = ["render_terminal"]

#: Long lists are cut in a terminal (a leg that left no results fails every scenario); the
#: Markdown and JSON reports keep them whole.
FAILING_SHOWN = 15
ITEMS_SHOWN = 8

_ICONS = {"pass": "✓", "partial": "~", "fail": "✗", "skipped": "-", "inconclusive": "?"}
_STYLES = {
    "pass": "green",
    "partial": "yellow",
    "fail": "red",
    "skipped": "dim",
    "inconclusive": "magenta",
    "unmeasured": "magenta",
}
_TIER_STYLES = {1: "bold white on green", 2: "bold black on yellow", 3: "bold white on red"}


def _status_text(status: str, label: str | None = None) -> Any:
    from rich.text import Text

    icon = _ICONS.get(status, "")
    return Text(f"{icon} {label or status}".strip(), style=_STYLES.get(status, ""))


def _list(title: Any, rows: list[tuple[Any, Any]], indent: int = 2) -> RenderableType:
    """A heading and rows of (marker, text); wrapped text stays indented under its row."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.table import Table

    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    # Fold, not ellipsis: a cut-off spec URL or log path is useless.
    grid.add_column(ratio=1, overflow="fold")
    for marker, text in rows:
        grid.add_row(marker, text)
    return Group(title, Padding(grid, (0, 0, 0, indent)))


def _where(doc: Scorecard) -> str:
    """ "owner/repo @ ref (sha)", leaving out what the document does not know."""
    text = one_line(doc.repo)
    ref = doc.branch or doc.sdk.ref
    if ref:
        text += f" @ {one_line(ref)}"
    if doc.sdk.commit:
        text += f" ({short_sha(doc.sdk.commit)})"
    return text


def _capped(rows: list[tuple[Any, Any]], limit: int, where: str) -> list[tuple[Any, Any]]:
    """At most `limit` rows, then one saying how many more and where to find them all."""
    from rich.text import Text

    if len(rows) <= limit:
        return rows
    more = Text(f"… and {len(rows) - limit} more ({where})", style="dim")
    return [*rows[:limit], (Text(""), more)]


def _tier_panel(doc: Scorecard) -> RenderableType:
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    tier = doc.implied_tier.tier
    harness = doc.harness
    unassessed = not_assessed(doc)
    if unassessed is None:
        banner = Text(f"  TIER {tier}  ", style=_TIER_STYLES.get(tier, "bold"), justify="center")
        said = [Text("")]
    else:
        # No tier stands on no evidence: the state, why, and what to do first.
        banner = Text(f"  {NOT_ASSESSED.upper()}  ", style="bold reverse", justify="center")
        said = [Text(unassessed.reason, style="yellow", justify="center")]
        if unassessed.hint:
            said.append(Text(f"first: {unassessed.hint}", style="yellow", justify="center"))
        said.append(Text(""))
    sep = doc.implied_tier.sep1730.tier
    lines = [
        banner,
        *said,
        Text(_where(doc), justify="center"),
        Text(
            f"version {one_line(version_text(doc))} · requirements "
            f"{', '.join(doc.requirements_revisions) or 'none'} · "
            f"harness {one_line(harness.version or '?')} "
            f"(Node {one_line(harness.node_version or '?')})",
            style="dim",
            justify="center",
        ),
    ]
    if sep != tier and unassessed is None:
        lines.append(Text(f"SEP-1730 as written: Tier {sep}", style="yellow", justify="center"))
    alone = leg_tiers_line(doc)
    if alone and unassessed is None:
        lines.append(Text(alone, style="dim", justify="center"))
    if doc.interrupted:
        lines.append(Text("interrupted: partial results", style="bold red", justify="center"))
    return Panel(Group(*lines), title="Implied tier", subtitle=one_line(doc.timestamp))


def _leg_cells(view: LegView, label: str) -> list[Any]:
    from rich.text import Text

    if view.state in ("skipped", "unmeasured"):
        status = "skipped" if view.state == "skipped" else "unmeasured"
        mark = _status_text(status, "skipped" if status == "skipped" else "not measured")
        return [label, view.leg, Text("—"), mark, Text(view.reason, style="dim")]
    data = view.data
    status = data.status
    counts = f"{data.passed}/{data.total} ({pct(data.pass_rate)})"
    notes = []
    if view.state == "partially-measured":
        notes.append(view.reason)
    if data.not_scored.total:
        notes.append(f"{data.not_scored.total} not scored")
    if data.flaky:
        notes.append(f"{data.flaky} flaky (counted as passed)")
    if sep1730_note(data):
        notes.append(sep1730_note(data))
    return [label, view.leg, Text(counts), _status_text(status), Text("; ".join(notes))]


def _conformance(doc: Scorecard) -> list[RenderableType]:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="Conformance (required scenarios)", title_justify="left", expand=True)
    table.add_column("Revision", no_wrap=True)
    table.add_column("Leg", no_wrap=True)
    table.add_column("Passed", no_wrap=True, justify="right")
    table.add_column("Status", no_wrap=True)
    # Fold, not ellipsis: a build error names its cause in one long token (a host, a path).
    table.add_column("Notes", ratio=1, overflow="fold")
    views = list(legs(doc))
    for view in views:
        table.add_row(*_leg_cells(view, view.revision))
    if len({v.revision for v in views}) > 1:
        table.add_section()
        for view in merged_legs(doc):
            table.add_row(*_leg_cells(view, "all"))
    out: list[RenderableType] = [table]
    failing = [(v, d) for v in views for d in v.failing]
    if failing:
        rows = []
        for view, detail in failing:
            text = Text(f"{view.leg} {view.revision} ")
            text.append(one_line(detail.scenario), style="bold")
            if detail.expected_failure:
                text.append("  (expected: baseline)", style="yellow")
            if confirmation_note(detail):
                text.append(f"  ({confirmation_note(detail)})", style="dim")
            text.append(f"\n{failure_message(detail)}", style="dim")
            rows.append((Text("✗", style="red"), text))
        rows = _capped(rows, FAILING_SHOWN, "all of them in scorecard.md")
        out.append(_list(Text(f"Failing ({len(failing)})", style="bold red"), rows))
    out += _flaky(doc, views)
    not_scored = [(v, d) for v in views for d in v.not_scored]
    if not_scored:
        rows = []
        for view, detail in not_scored:
            result = scenario_result(detail)
            text = Text(f"{view.leg} {view.revision} {one_line(detail.scenario)}")
            text.append(f" [{not_scored_why(detail)}] {result}", style="dim")
            rows.append((Text("-"), text))
        title = Text(f"Not scored ({len(not_scored)}), shown but never counted", style="bold")
        out.append(_list(title, _capped(rows, FAILING_SHOWN, "all of them in scorecard.md")))
    disputed = [(v, d) for v in views for d in v.disputes]
    if disputed:
        rows = []
        for view, detail in disputed:
            text = Text(f"{view.leg} {view.revision} {one_line(detail.scenario)} ")
            text.append(scenario_result(detail), style="dim")
            text.append(f"\n{dispute_summary(detail)}", style="yellow")
            rows.append((Text("≠"), text))
        title = Text(f"Disputed ({len(disputed)}), run and shown", style="bold")
        out.append(_list(title, _capped(rows, FAILING_SHOWN, "all of them in scorecard.md")))
    out += _warnings(doc)
    out += _not_applicable(doc)
    return out


def _flaky(doc: Scorecard, views: Sequence[LegView]) -> list[RenderableType]:
    """The flaky scenarios, apart from the failures, and what confirming failures cost."""
    from rich.text import Text

    out: list[RenderableType] = []
    flaky = [(v, d) for v in views for d in v.flaky]
    if flaky:
        rows = []
        for view, detail in flaky:
            text = Text(f"{view.leg} {view.revision} ")
            text.append(one_line(detail.scenario), style="bold")
            text.append(f"\n{flaky_summary(detail)}", style="dim")
            rows.append((Text("~", style="yellow"), text))
        rows = _capped(rows, FAILING_SHOWN, "all of them in scorecard.md")
        title = Text(f"Flaky ({len(flaky)}): {FLAKY_NOTE}", style="bold yellow")
        out.append(_list(title, rows))
    if confirmation_line(doc):
        out.append(Text(confirmation_line(doc), style="dim"))
    return out


def _not_applicable(doc: Scorecard) -> list[RenderableType]:
    """The scenarios the harness lists for other revisions only, apart from everything scored:
    a line per leg, revision and reason, its names cut after a few, and where it was read."""
    from rich.text import Text

    found = not_applicable_rows(doc)
    if not found:
        return []
    rows = []
    for row in found:
        names = [one_line(n) for n in row.scenarios]
        shown = ", ".join(names[:ITEMS_SHOWN])
        if len(names) > ITEMS_SHOWN:
            shown += f", … and {len(names) - ITEMS_SHOWN} more (all of them in scorecard.md)"
        text = Text(f"{row.leg} {row.revision} ")
        text.append(row.reason, style="bold")
        text.append(f": {shown}")
        text.append(f"\n{one_line(row.source)}", style="dim")
        rows.append((Text("-", style="dim"), text))
    total = sum(len(row.scenarios) for row in found)
    title = Text(f"Not applicable at this revision ({total}): {NOT_APPLICABLE_NOTE}", style="bold")
    return [_list(title, rows)]


def _warnings(doc: Scorecard) -> list[RenderableType]:
    """The WARNING checks, counted and listed apart from the failures (their count, even 0,
    whenever something was measured)."""
    from rich.text import Text

    found = warning_rows(doc)
    title = Text(f"Warnings ({len(found)}): {WARNINGS_NOTE}", style="bold")
    if not found:
        return [] if not_assessed(doc) is not None else [title]
    rows = []
    for row in found:
        detail = row.detail
        text = Text(f"{row.view.leg} {row.view.revision} ")
        text.append(one_line(detail.scenario), style="bold")
        shown = detail.result
        scored = "" if detail.scored else ", not scored"
        text.append(f"  (scenario {shown}{scored})", style="dim")
        check = one_line(row.check.id)
        message = one_line(row.check.message or "")
        text.append(f"\n{check}: {message}" if message else f"\n{check}", style="dim")
        rows.append((Text("!", style="yellow"), text))
    return [_list(title, _capped(rows, FAILING_SHOWN, "all of them in scorecard.md"))]


def _governance(doc: Scorecard) -> list[RenderableType]:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="Repository health", title_justify="left", expand=True)
    table.add_column("Check", no_wrap=True)
    table.add_column("Status", no_wrap=True)
    table.add_column("Detail", ratio=1)
    for key, title, signal in signal_rows(doc):
        detail = Text(signal_detail(key, signal))
        differs = signal_disagreement(signal)
        if differs:
            detail.append(f"  ({differs})", style="yellow")
        table.add_row(title, _status_text(signal.status), detail)
    out: list[RenderableType] = [table]
    if doc.governance.source == "snapshot":
        out.append(Text(f"replayed from snapshot {one_line(doc.governance.snapshot)}", "dim"))
    open_p0 = doc.checks.p0_resolution.get("open_p0_details") or []
    if open_p0:
        rows = [
            (
                Text(f"#{p0.get('number')}", style="red"),
                Text(one_line(p0.get("title"))).append(f" ({p0.get('age_days')} days)", "dim"),
            )
            for p0 in open_p0
        ]
        out.append(_list(Text("Open P0 issues", style="bold"), rows))
    return out


def _blockers(doc: Scorecard) -> list[RenderableType]:
    from rich.text import Text

    implied = doc.implied_tier
    blockers = implied.tier1_blockers
    if not blockers:
        return [Text("Tier 1 blockers: none", style="bold green")]
    mark = Text("✗", style="red")
    out = [
        _list(Text("Tier 1 blockers", style="bold"), [(mark, Text(one_line(b))) for b in blockers])
    ]
    tier2 = implied.tier2_blockers
    if implied.tier == 3 and tier2:
        rows = [(mark, Text(one_line(b))) for b in tier2]
        out.append(_list(Text("Tier 2 blockers", style="bold"), rows))
    return out


def _remediation(doc: Scorecard) -> list[RenderableType]:
    from rich.text import Text

    if not doc.remediation:
        return []
    rows: list[tuple[Any, Any]] = []
    for number, entry in enumerate(doc.remediation, 1):
        clears = entry.unblocks
        suffix = f", clears {clears}" if clears else ""
        head = Text(one_line(entry.action), style="bold")
        head.append(f"  (Tier {entry.for_tier}{suffix})", style="dim")
        items = [(Text("-"), Text(one_line(item))) for item in entry.items]
        items = _capped(items, ITEMS_SHOWN, "see scorecard.md")
        rows.append((Text(f"{number}."), _list(head, items, indent=0) if items else head))
    return [_list(Text("What to do next", style="bold"), rows)]


def _evidence(doc: Scorecard) -> list[RenderableType]:
    from rich.text import Text

    artifacts = doc.artifacts
    rows: list[tuple[Any, Any]] = []
    if artifacts.out_dir:
        rows.append((Text("reports"), Text(one_line(artifacts.out_dir))))
    if artifacts.raw:
        rows.append((Text("raw"), Text(one_line(artifacts.raw))))
    for name, path in sorted(artifacts.logs.items()):
        rows.append((Text("log"), Text(f"{one_line(name)}: {one_line(path)}")))
    return [_list(Text("Evidence", style="bold"), rows)] if rows else []


def _history(doc: Scorecard) -> list[RenderableType]:
    from rich.text import Text

    from tiercheck.scorecard.history_text import history_lines

    if doc.history is None:
        return []
    rows: list[tuple[Any, Any]] = [
        (Text("-"), Text(line)) for line in history_lines(doc.history, sdk=doc.sdk.name)
    ]
    return [_list(Text("History", style="bold"), rows)]


def _harness_comparison(doc: Scorecard) -> list[RenderableType]:
    """`--compare-harness`: what was compared, each leg, then every disagreement, those that
    explain a verdict first (cut after a few; all of them in scorecard.md and scorecard.json)."""
    from rich.text import Text

    from tiercheck.scorecard.harnesses import (
        COMPARISON_NOTE,
        comparison_summary,
        disagreement_text,
        leg_text,
        most_telling,
    )

    block = doc.harness_comparison
    if block is None:
        return []
    title = Text(f"Harness comparison: {COMPARISON_NOTE}", style="bold")
    rows: list[tuple[Any, Any]] = [(Text("-"), Text(one_line(comparison_summary(block))))]
    rows += [(Text("-", style="dim"), Text(one_line(leg_text(leg)))) for leg in block.legs]
    found: list[tuple[Any, Any]] = []
    for entry in most_telling(block.disagreements):
        text = Text(f"{entry.leg} {entry.revision} ")
        text.append(one_line(entry.scenario), style="bold")
        text.append(f"  {entry.kind}", style="dim")
        text.append(f"\n{one_line(disagreement_text(entry, block.version))}", style="dim")
        found.append((Text("≠", style="yellow"), text))
    rows += _capped(found, FAILING_SHOWN, "all of them in scorecard.md")
    return [_list(title, rows)]


def _console(color: bool, width: int) -> tuple[Console, io.StringIO]:
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        highlight=False,
        emoji=False,
        markup=False,
        # Environment must not leak into a pure function: rich otherwise reads COLUMNS, TERM...
        _environ={},
    )
    return console, buffer


def render_terminal(doc: Scorecard, *, color: bool, width: int = 100) -> str:
    """The scorecard for a person at a terminal, `width` columns wide.

    The tier large and first (`NOT ASSESSED`, why and what to do first, when nothing was
    measured: `scorecard.remediation.not_assessed`), then the conformance table per revision ×
    leg (passed/total, status, why a leg was not measured), failing scenarios with their first
    failing check, not-scored results, the repository-health table (with SEP-1730's differing
    verdicts), blockers, what to do next and where the evidence lies; after the tier's note, the
    advisory probes and `--compare-harness`'s disagreements. ANSI colour only when `color`.
    """
    from rich.rule import Rule
    from rich.text import Text

    console, buffer = _console(color, width)
    parts: list[RenderableType] = [_tier_panel(doc)]
    parts += _conformance(doc)
    parts += _governance(doc)
    parts += [
        Rule(style="dim"),
        *_blockers(doc),
        *_remediation(doc),
        *_history(doc),
        *_evidence(doc),
    ]
    # The tier's note speaks of a tier: a run that measured nothing has none to speak of.
    note = one_line(doc.implied_tier.note) if not_assessed(doc) is None else ""
    if note:
        parts.append(Text(note, style="dim italic"))
    blocks = probe_blocks(doc)
    if blocks:
        # After the note on purpose: nothing in this section bears on the tier above it.
        parts += [Rule(style="dim"), Text(probes_text(blocks).rstrip("\n"))]
    compared = _harness_comparison(doc)
    if compared:
        # Another harness's results: nothing in this section bears on the tier either.
        parts += [Rule(style="dim"), *compared]
    for index, part in enumerate(parts):
        if index and not isinstance(part, Rule):
            console.line()
        console.print(part)
    # rich pads titles and rows to the full width; trailing blanks only make diffs noisy.
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n"
