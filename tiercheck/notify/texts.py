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

from tiercheck.dashboard.triage import Triage
from tiercheck.history.regression import NightState, Regression
from tiercheck.plaintext import one_line, visible
from tiercheck.render import markdown as md
from tiercheck.render.element import ISSUE_PAGES
from tiercheck.render.markdown import BLANK, Inline, Md, bold, bullet, code, fmt, own
from tiercheck.scorecard.readings import short_sha

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
    """The tracking issue's title (kept as it is once the issue exists): the line's name as one
    line, what hides or reorders text shown as `[U+202E]` (GitHub shows a title as text)."""
    return f"Nightly matrix: {visible(one_line(line))} regressed"


def _what(r: Regression) -> Md:
    if r.kind == "lower-tier":
        return md.text(f"implied tier went down: Tier {r.tier_before} → Tier {r.tier_after}")
    where = f"{r.leg} leg at {r.revision}"
    if r.kind == "newly-failing":
        text = fmt("{} fails ({})", code(r.scenario), where)
        if r.check:
            text = fmt("{}: {}", text, code(r.check))
        if r.message:
            text = fmt("{} {}", text, code(_short(r.message)))
        return text
    nights = "1 night" if r.nights == 1 else f"{r.nights} nights running"
    return fmt("{} unmeasured {}: {}", where, nights, code(_short(r.message)))


def _since(r: Regression) -> str:
    return r.since.timestamp.date().isoformat()


def _known(line: str, r: Regression, triage: Triage) -> Md:
    """The reviewed issue of a failing scenario (`triage`), its note as text; else a dash."""
    found = (
        triage.lookup(line, r.revision, r.leg, r.scenario)
        if r.kind == "newly-failing" and r.revision and r.leg and r.scenario
        else None
    )
    if found is None:
        return own("—")
    issue = md.github_link(None, found.issue, kinds=ISSUE_PAGES)
    return fmt("{}: {}", issue, md.text(_short(found.note)))


def _regressions_table(
    line: str, regressions: Sequence[Regression], triage: Triage | None = None
) -> list[Md]:
    if not triage:
        rows = [[code(r.row), _what(r), _since(r), str(r.nights)] for r in regressions]
        return md.table(["row", "what", "since", "nights"], rows)
    known = [
        [code(r.row), _what(r), _since(r), str(r.nights), _known(line, r, triage)]
        for r in regressions
    ]
    return md.table(["row", "what", "since", "nights", "triage"], known)


def _referee(state: NightState) -> Md | None:
    """ "referee changed on DATE (harness A → B): N scenarios added, M changed", the versions
    in code spans; None when the run is under the previous run's harness."""
    change = state.referee
    if change is None:
        return None
    return fmt(
        "referee changed on {} (harness {} → {}): {}",
        state.night.isoformat(),
        code(change.before),
        code(change.after),
        change.counts,
    )


def _compared(state: NightState) -> Md:
    referee = _referee(state)
    if referee is not None:
        return fmt("**not compared, never a regression**: {}", referee)
    if state.marked and state.previous is not None:
        before = state.previous
        return fmt(
            "**not comparable**: measured under harness {} / requirement sets {}; the run "
            "before under {} / {}",
            code(state.run.harness_version or "unknown"),
            code(state.run.requirements_digest or "unknown"),
            code(before.harness_version or "unknown"),
            code(before.requirements_digest or "unknown"),
        )
    if state.previous is None:
        return own("first run")
    return own("compared")


def _measured(state: NightState) -> Md:
    if state.run.all_measured:
        return own("measured")
    if not state.unmeasured:
        return own("**unmeasured**")
    parts = [
        f"{leg} {revision}: {runs} night{'' if runs == 1 else 's'} running"
        for revision, leg, runs in state.unmeasured
    ]
    return fmt("**unmeasured** ({})", "; ".join(parts))


def _rows_table(state: NightState) -> list[Md]:
    run = state.run
    header = ["row", "latest run", "commit", "tier", "legs", "harness", "compared"]
    row: list[Inline] = [
        code(state.row),
        f"{run.timestamp.strftime('%Y-%m-%d %H:%M')} UTC",
        code(short_sha(run.commit)),
        f"Tier {run.tier}",
        _measured(state),
        code(run.harness_version or "unknown"),
        _compared(state),
    ]
    return md.table(header, [row])


def _links(dashboard: str | None) -> list[Md]:
    url = md.https_url(dashboard)
    return [BLANK, fmt("The line on {}.", md.link("the dashboard", url))] if url else []


_FOOTER = own(
    "_Kept by `tier-check notify`: this body is rewritten each night while the regression "
    "lasts, a comment marks each change, and the issue is closed when the line is green "
    "again._"
)


def issue_body(
    state: NightState, *, dashboard: str | None = None, triage: Triage | None = None
) -> str:
    """The tracking issue's body for `state` (a regression, or green once it is over); with
    `triage`, each failing scenario's reviewed issue and note beside it.

    It says only what the history says (no workflow run link), so the same night gives the same
    body whichever run writes it: re-running a night changes nothing. The dashboard is linked
    only when its address is an https URL (`render.markdown.https_url`).
    """
    latest = state.night.isoformat()
    if state.regressions:
        since = min(_since(r) for r in state.regressions)
        head = [
            fmt(
                "{} has regressed in the nightly matrix since {} (latest run: {}).",
                bold(state.line),
                since,
                latest,
            ),
            BLANK,
            *_regressions_table(state.line, state.regressions, triage),
        ]
    else:
        head = [fmt("{} is green again (latest run: {}).", bold(state.line), latest)]
    referee = _referee(state)
    if referee is not None:
        head += [
            BLANK,
            fmt(
                "The {}; no scenario is compared across it, so nothing it changed is called "
                "a regression.",
                referee,
            ),
        ]
    lines = [*head, BLANK, own("The latest run:"), BLANK, *_rows_table(state)]
    lines += _links(dashboard)
    lines += [BLANK, _FOOTER]
    return md.document(lines)


def _bullets(regressions: Sequence[Regression]) -> list[Md]:
    return [bullet(fmt("{}: {} (since {})", code(r.row), _what(r), _since(r))) for r in regressions]


def changed_comment(state: NightState) -> str:
    """The one comment on a change of what regressed, while the regression lasts."""
    night = state.night.isoformat()
    return md.document(
        [
            fmt("The regression changed on {}; what regresses now:", night),
            BLANK,
            *_bullets(state.regressions),
        ]
    )


def reopened_comment(state: NightState) -> str:
    """The comment that reopens the issue on a new regression."""
    night = state.night.isoformat()
    return md.document([fmt("Regressed again on {}:", night), BLANK, *_bullets(state.regressions)])


def green_comment(state: NightState) -> str:
    """The comment that closes the issue: the line is green again."""
    night = state.night.isoformat()
    lines = [fmt("Green again on {}: no row of {} regresses. Closing.", night, code(state.line))]
    referee = _referee(state)
    if referee is not None:
        lines += [
            BLANK,
            fmt(
                "Not compared with the nights before: the {}; the verdicts of {} are "
                "compared from now on.",
                referee,
                code(state.row),
            ),
        ]
    elif state.marked:
        lines += [
            BLANK,
            fmt(
                "Not comparable with the nights before (another harness version or requirement "
                "sets): {}; its verdicts are compared from now on.",
                code(state.row),
            ),
        ]
    return md.document(lines)


def _status(state: NightState | None) -> Md:
    if state is None:
        return own("no run")
    if state.status == "regressed":
        return own("❌ regression")
    if state.status == "incomparable":
        return own("➖ not comparable")
    if not state.run.all_measured:
        return own("⚠️ unmeasured tonight")
    return own("✅ green")


def pr_comment(
    states: Mapping[str, NightState | None], night: date, *, run_url: str | None = None
) -> str:
    """The sticky pull-request comment: every line's state on `night` with this change
    (None: the line has no run on or before the night)."""
    rows: list[list[Inline]] = []
    for line, state in states.items():
        what: list[Md] = []
        if state is not None:
            what = [fmt("{}: {}", code(r.row), _what(r)) for r in state.regressions]
            if state.marked:
                what.append(fmt("{}: {}", code(state.row), _compared(state)))
        rows.append([code(line), _status(state), md.join(what, "<br>") or "—"])
    lines = [
        md.heading(3, f"tiercheck nightly matrix on this pull request ({night.isoformat()})"),
        BLANK,
        *md.table(["line", "state", "what"], rows),
    ]
    url = md.https_url(run_url)
    if url:
        lines += [BLANK, fmt("{}.", md.link("The workflow run", url))]
    lines += [
        BLANK,
        md.italic("Compared with the published history; this comment is updated on each run."),
    ]
    return md.document(lines)
