"""The texts of the nightly's tracking issues and of the pull-request comment (pure Markdown).

A line's issue body says what regressed, since when and for how many nights (the line's
states come from `tiercheck.history.regression`, as the dashboard's do) and the latest run;
it is rewritten each night while the regression lasts, so it always reads as "now". Comments
are short and only mark a change of state. Everything that comes from an SDK or the harness
(scenario names, check ids, messages) is put in code spans: nothing in it can open HTML,
mention a user or end a table cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from tiercheck.history.regression import NightState, Regression
from tiercheck.plaintext import one_line
from tiercheck.report.untrusted_md import cell
from tiercheck.report.untrusted_md import code_cell as _code
from tiercheck.scorecard.view import short_sha

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


def _short(text: str | None) -> str:
    return one_line(text or "", MESSAGE_CHARS)


def issue_title(line: str) -> str:
    """The tracking issue's title (kept as it is once the issue exists)."""
    return f"Nightly matrix: {line} regressed"


def _what(r: Regression) -> str:
    if r.kind == "lower-tier":
        return f"implied tier went down: Tier {r.tier_before} → Tier {r.tier_after}"
    if r.kind == "newly-failing":
        where = f"{r.leg} leg at {r.revision}"
        text = f"{_code(r.scenario)} fails ({cell(where)})"
        if r.check:
            text += f": {_code(r.check)}"
        if r.message:
            text += f" {_code(_short(r.message))}"
        return text
    where = f"{r.leg} leg at {r.revision}"
    return f"{cell(where)} unmeasured {r.nights} nights running: {_code(_short(r.message))}"


def _since(r: Regression) -> str:
    return r.since.timestamp.date().isoformat()


def _regressions_table(regressions: Sequence[Regression]) -> list[str]:
    rows = [f"| {_code(r.row)} | {_what(r)} | {_since(r)} | {r.nights} |" for r in regressions]
    return ["| row | what | since | nights |", "|---|---|---|---|", *rows]


def _compared(state: NightState) -> str:
    if state.marked and state.previous is not None:
        before = state.previous
        return (
            "**not comparable**: measured under harness "
            f"{_code(state.run.harness_version or 'unknown')} / requirement sets "
            f"{_code(state.run.requirements_digest or 'unknown')}; the run before under "
            f"{_code(before.harness_version or 'unknown')} / "
            f"{_code(before.requirements_digest or 'unknown')}"
        )
    if state.previous is None:
        return "first run"
    return "compared"


def _measured(state: NightState) -> str:
    if state.run.all_measured:
        return "measured"
    if not state.unmeasured:
        return "**unmeasured**"
    parts = [
        f"{leg} {revision}: {runs} night{'' if runs == 1 else 's'} running"
        for revision, leg, runs in state.unmeasured
    ]
    return f"**unmeasured** ({cell('; '.join(parts))})"


def _rows_table(state: NightState) -> list[str]:
    run = state.run
    return [
        "| row | latest run | commit | tier | legs | harness | compared |",
        "|---|---|---|---|---|---|---|",
        f"| {_code(state.row)} | {run.timestamp.strftime('%Y-%m-%d %H:%M')} UTC "
        f"| {_code(short_sha(run.commit))} | Tier {run.tier} | {_measured(state)} "
        f"| {_code(run.harness_version or 'unknown')} | {_compared(state)} |",
    ]


def _links(dashboard: str | None) -> list[str]:
    return ["", f"The line on [the dashboard]({dashboard})."] if dashboard else []


_FOOTER = (
    "_Kept by `tier-check notify`: this body is rewritten each night while the regression "
    "lasts, a comment marks each change, and the issue is closed when the line is green "
    "again._"
)


def issue_body(state: NightState, *, dashboard: str | None = None) -> str:
    """The tracking issue's body for `state` (a regression, or green once it is over).

    It says only what the history says (no workflow run link), so the same night gives the same
    body whichever run writes it: re-running a night changes nothing.
    """
    latest = state.night.isoformat()
    if state.regressions:
        since = min(_since(r) for r in state.regressions)
        head = [
            f"**{cell(state.line)}** has regressed in the nightly matrix since {since} "
            f"(latest run: {latest}).",
            "",
            *_regressions_table(state.regressions),
        ]
    else:
        head = [f"**{cell(state.line)}** is green again (latest run: {latest})."]
    lines = [*head, "", "The latest run:", "", *_rows_table(state)]
    lines += _links(dashboard)
    lines += ["", _FOOTER]
    return "\n".join(lines) + "\n"


def _bullets(regressions: Sequence[Regression]) -> list[str]:
    return [f"- {_code(r.row)}: {_what(r)} (since {_since(r)})" for r in regressions]


def changed_comment(state: NightState) -> str:
    """The one comment on a change of what regressed, while the regression lasts."""
    return (
        "\n".join(
            [
                f"The regression changed on {state.night.isoformat()}; what regresses now:",
                "",
                *_bullets(state.regressions),
            ]
        )
        + "\n"
    )


def reopened_comment(state: NightState) -> str:
    """The comment that reopens the issue on a new regression."""
    night = state.night.isoformat()
    return "\n".join([f"Regressed again on {night}:", "", *_bullets(state.regressions)]) + "\n"


def green_comment(state: NightState) -> str:
    """The comment that closes the issue: the line is green again."""
    night = state.night.isoformat()
    lines = [f"Green again on {night}: no row of {_code(state.line)} regresses. Closing."]
    if state.marked:
        lines += [
            "",
            f"Not comparable with the nights before (another harness version or requirement "
            f"sets): {_code(state.row)}; its verdicts are compared from now on.",
        ]
    return "\n".join(lines) + "\n"


def _status(state: NightState | None) -> str:
    if state is None:
        return "no run"
    if state.status == "regressed":
        return "❌ regression"
    if state.status == "incomparable":
        return "➖ not comparable"
    if not state.run.all_measured:
        return "⚠️ unmeasured tonight"
    return "✅ green"


def pr_comment(
    states: Mapping[str, NightState | None], night: date, *, run_url: str | None = None
) -> str:
    """The sticky pull-request comment: every line's state on `night` with this change
    (None: the line has no run on or before the night)."""
    lines = [
        f"### tiercheck nightly matrix on this pull request ({night.isoformat()})",
        "",
        "| line | state | what |",
        "|---|---|---|",
    ]
    for line, state in states.items():
        what: list[str] = []
        if state is not None:
            what = [f"{_code(r.row)}: {_what(r)}" for r in state.regressions]
            if state.marked:
                what.append(f"{_code(state.row)}: {_compared(state)}")
        lines.append(f"| {_code(line)} | {_status(state)} | {'<br>'.join(what) or '—'} |")
    if run_url:
        lines += ["", f"[The workflow run]({run_url})."]
    lines += [
        "",
        "_Compared with the published history; this comment is updated on each run._",
    ]
    return "\n".join(lines) + "\n"
