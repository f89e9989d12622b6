"""The texts of the nightly's tracking issues and of the pull-request comment (pure Markdown).

A line's issue body says what regressed, since when and for how many nights, and each row's
latest run; it is rewritten each night while the regression lasts, so it always reads as
"now". Comments are short and only mark a change of state. Everything that comes from an SDK
or the harness (scenario names, check ids, messages) is put in code spans: nothing in it can
open HTML, mention a user or end a table cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from tiercheck.history.nightly import LineNight, Regression, RowNight
from tiercheck.report.markdown import cell
from tiercheck.scorecard.view import one_line, short_sha

__all__ = [
    "changed_comment",
    "green_comment",
    "issue_body",
    "issue_title",
    "pr_comment",
    "reopened_comment",
]

#: Messages are cut here: a harness message can be a whole stack trace.
MESSAGE_CHARS = 200


def _code(text: object) -> str:
    # A backtick would end the span early (GitHub has no escape inside one); a pipe would end a
    # table cell even inside a span, unless escaped.
    inner = one_line(text).replace("`", "ʼ").replace("|", "\\|")
    return f"`{inner}`"


def _short(text: str | None) -> str:
    return one_line(text or "", MESSAGE_CHARS)


def issue_title(line: str) -> str:
    """The tracking issue's title (kept as it is once the issue exists)."""
    return f"Nightly matrix: {line} regressed"


def _what(r: Regression) -> str:
    if r.kind == "tier":
        return f"implied tier went down: Tier {r.tier_before} → Tier {r.tier_now}"
    if r.kind == "scenario":
        where = f"{r.leg} leg at {r.revision}"
        text = f"{_code(r.scenario)} fails ({cell(where)})"
        if r.check:
            text += f": {_code(r.check)}"
        if r.message:
            text += f" {_code(_short(r.message))}"
        if r.flaky:
            text += " — flaky: its verdict has changed on the same commit before"
        return text
    return f"unmeasured {r.nights} nights running: {_code(_short(r.reason))}"


def _regressions_table(regressions: Sequence[Regression]) -> list[str]:
    rows = [
        f"| {_code(r.row)} | {_what(r)} | {r.since.isoformat()} | {r.nights} |" for r in regressions
    ]
    return ["| row | what | since | nights |", "|---|---|---|---|", *rows]


def _compared(row: RowNight) -> str:
    if row.comparable == "not-comparable" and row.previous is not None:
        before = row.previous
        return (
            "**not comparable**: measured under harness "
            f"{_code(row.run.harness_version or 'unknown')} / requirement sets "
            f"{_code(row.run.requirements_digest or 'unknown')}; the run before under "
            f"{_code(before.harness_version or 'unknown')} / "
            f"{_code(before.requirements_digest or 'unknown')}"
        )
    if row.comparable == "first":
        return "first measured run"
    return "compared"


def _measured(row: RowNight) -> str:
    if row.measured:
        return "measured"
    nights = "night" if row.unmeasured_nights == 1 else "nights"
    return f"**unmeasured** ({row.unmeasured_nights} {nights} running)"


def _rows_table(rows: Sequence[RowNight]) -> list[str]:
    lines = [
        "| row | latest run | commit | tier | legs | harness | compared |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        run = row.run
        lines.append(
            f"| {_code(row.row)} | {run.timestamp.strftime('%Y-%m-%d %H:%M')} UTC "
            f"| {_code(short_sha(run.commit))} | Tier {run.tier} | {_measured(row)} "
            f"| {_code(run.harness_version or 'unknown')} | {_compared(row)} |"
        )
    return lines


def _links(dashboard: str | None) -> list[str]:
    return ["", f"The line on [the dashboard]({dashboard})."] if dashboard else []


_FOOTER = (
    "_Kept by `tier-check notify`: this body is rewritten each night while the regression "
    "lasts, a comment marks each change, and the issue is closed when the line is green "
    "again._"
)


def issue_body(state: LineNight, *, dashboard: str | None = None) -> str:
    """The tracking issue's body for `state` (a regression, or green once it is over).

    It says only what the history says (no workflow run link), so the same night gives the same
    body whichever run writes it: re-running a night changes nothing.
    """
    latest = state.latest.isoformat() if state.latest else "none"
    if state.regressions:
        since = min(r.since for r in state.regressions).isoformat()
        head = [
            f"**{cell(state.line)}** has regressed in the nightly matrix since {since} "
            f"(latest run: {latest}).",
            "",
            *_regressions_table(state.regressions),
        ]
    else:
        head = [f"**{cell(state.line)}** is green again (latest run: {latest})."]
    lines = [*head, "", "Rows of the latest night:", "", *_rows_table(state.rows)]
    lines += _links(dashboard)
    lines += ["", _FOOTER]
    return "\n".join(lines) + "\n"


def _bullets(regressions: Sequence[Regression]) -> list[str]:
    return [f"- {_code(r.row)}: {_what(r)} (since {r.since.isoformat()})" for r in regressions]


def _night(state: LineNight) -> str:
    return (state.latest or state.night).isoformat()


def changed_comment(state: LineNight) -> str:
    """The one comment on a change of what regressed, while the regression lasts."""
    return (
        "\n".join(
            [
                f"The regression changed on {_night(state)}; what regresses now:",
                "",
                *_bullets(state.regressions),
            ]
        )
        + "\n"
    )


def reopened_comment(state: LineNight) -> str:
    """The comment that reopens the issue on a new regression."""
    return (
        "\n".join([f"Regressed again on {_night(state)}:", "", *_bullets(state.regressions)]) + "\n"
    )


def green_comment(state: LineNight) -> str:
    """The comment that closes the issue: the line is green again."""
    lines = [f"Green again on {_night(state)}: no row of {_code(state.line)} regresses. Closing."]
    if state.not_comparable:
        names = ", ".join(_code(r.row) for r in state.not_comparable)
        lines += [
            "",
            f"Not comparable with the nights before (another harness version or requirement "
            f"sets): {names}; their verdicts are compared from now on.",
        ]
    return "\n".join(lines) + "\n"


def _status(state: LineNight) -> str:
    if state.latest is None:
        return "no run"
    if state.regressions:
        return "❌ regression"
    if state.not_comparable:
        return "➖ not comparable"
    if any(not r.measured for r in state.rows):
        return "⚠️ unmeasured tonight"
    return "✅ green"


def pr_comment(states: Sequence[LineNight], night: date, *, run_url: str | None = None) -> str:
    """The sticky pull-request comment: every line's state on `night` with this change."""
    lines = [
        f"### tiercheck nightly matrix on this pull request ({night.isoformat()})",
        "",
        "| line | state | what |",
        "|---|---|---|",
    ]
    for state in states:
        what = "<br>".join(
            [f"{_code(r.row)}: {_what(r)}" for r in state.regressions]
            + [f"{_code(r.row)}: {_compared(r)}" for r in state.not_comparable]
        )
        lines.append(f"| {_code(state.line)} | {_status(state)} | {what or '—'} |")
    if run_url:
        lines += ["", f"[The workflow run]({run_url})."]
    lines += [
        "",
        "_Compared with the published history; this comment is updated on each run._",
    ]
    return "\n".join(lines) + "\n"
