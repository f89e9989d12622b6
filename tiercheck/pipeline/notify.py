"""`tier-check notify`: from the history to the calls on GitHub, and what came of them.

history → each line's state on the night (`history.regression`, the same states the
dashboard shows) → the texts (`report.notify`) →
the issues or the pull request's comments as GitHub has them → the plan (`notify.plan`) → the
calls, in order, until GitHub refuses one. A refusal, a rate limit or an answer of the wrong
shape ends the calls with a warning; the next night's plan starts again from what GitHub then
holds, so nothing is lost but that night's update.

A line whose latest run is *incomparable* (measured under another harness version or other
requirement sets, with no regression open) gets no notice at all: its issue, open or closed,
is left as it is (neither edited as regressed nor closed), and no issue is opened. It is
judged again on the next night, compared with this one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from tiercheck.errors import UsageError
from tiercheck.history.record import RunRecord
from tiercheck.history.regression import NightState, line_states, night_end
from tiercheck.history.store import HistoryError, HistoryStore
from tiercheck.notify.github import GitHub, GitHubTarget, NotifyError, connect
from tiercheck.notify.plan import Call, LineNotice, plan_issues, plan_pr_comment
from tiercheck.report import notify as texts

__all__ = ["NotifyOutcome", "NotifyRequest", "notices", "notify", "state_key"]

Connect = Callable[[GitHubTarget], AbstractContextManager[GitHub]]


@dataclass(frozen=True)
class NotifyRequest:
    """What `tier-check notify` was asked to do."""

    history: Path
    target: GitHubTarget
    #: Print the calls instead of making them (the listing GETs are still made).
    dry_run: bool = False
    #: Upsert the sticky comment on this pull request instead of the issues.
    pr: int | None = None
    #: The night to judge (default: the latest night in the history).
    night: date | None = None
    #: The lines to judge (default: every line in the history).
    lines: tuple[str, ...] = ()
    dashboard: str | None = None
    #: This workflow run's page, linked from the pull-request comment.
    run_url: str | None = None


@dataclass
class NotifyOutcome:
    """What notify found and did."""

    night: date | None
    #: Each line asked about → its state on the night (None: no run on or before it).
    states: dict[str, NightState | None] = field(default_factory=dict)
    planned: list[Call] = field(default_factory=list)
    made: list[Call] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _runs(path: Path) -> list[RunRecord]:
    if not path.is_file():
        msg = f"--history {path}: no such file (the nightly's history database)"
        raise UsageError(msg)
    store = HistoryStore(path)
    try:
        store.check_readable()
        return store.runs()
    except HistoryError as exc:
        raise UsageError(str(exc)) from None


def state_key(state: NightState) -> str:
    """What the issue records as the line's state: "green", or the open regressions' keys
    (stable while each lasts, so the same keys night after night are the same state)."""
    if not state.regressions:
        return "green"
    return " ".join(sorted({r.key for r in state.regressions}))


def notices(
    states: Mapping[str, NightState | None], *, dashboard: str | None = None
) -> list[LineNotice]:
    """Each line's notice: its state with the texts rendered. A line without a run, or whose
    latest run is incomparable with nothing open, has none: its issue is left as it is."""
    return [
        LineNotice(
            line=s.line,
            regressed=s.status == "regressed",
            key=state_key(s),
            title=texts.issue_title(s.line),
            body=texts.issue_body(s, dashboard=dashboard),
            changed=texts.changed_comment(s),
            reopened=texts.reopened_comment(s),
            green=texts.green_comment(s),
        )
        for s in states.values()
        if s is not None and s.status != "incomparable"
    ]


def _plan(request: NotifyRequest, github: GitHub, outcome: NotifyOutcome) -> list[Call]:
    assert outcome.night is not None
    if request.pr is not None:
        text = texts.pr_comment(outcome.states, outcome.night, run_url=request.run_url)
        return plan_pr_comment(request.pr, text, github.pr_comments(request.pr))
    mine = notices(outcome.states, dashboard=request.dashboard)
    return plan_issues(mine, github.issues())


def notify(request: NotifyRequest, *, open_github: Connect = connect) -> NotifyOutcome:
    """Judge every line on the night and bring GitHub in line; never raises for GitHub."""
    runs = _runs(request.history)
    if not runs:
        outcome = NotifyOutcome(None)
        outcome.warnings.append(f"{request.history} holds no runs: nothing to notify")
        return outcome
    night = request.night or max(r.timestamp.date() for r in runs)
    lines = request.lines or tuple(sorted({r.sdk for r in runs}))
    found = line_states(runs, as_of=night_end(night))
    outcome = NotifyOutcome(night, {line: found.get(line) for line in lines})
    try:
        with open_github(request.target) as github:
            outcome.planned = _plan(request, github, outcome)
            if request.dry_run:
                return outcome
            for call in outcome.planned:
                github.apply(call)
                outcome.made.append(call)
    except NotifyError as exc:
        left = len(outcome.planned) - len(outcome.made)
        tail = f"; {left} call(s) not made, left to the next run" if outcome.planned else ""
        outcome.warnings.append(f"GitHub: {exc}{tail}")
    return outcome
