"""`tier-check notify`: from the history to the calls on GitHub, and what came of them.

The request holds the flags as given; GitHub's side is resolved here, through `tiercheck.ghapi`:
the API URL (a bad one is a usage error before anything else), then, once the history is known
to exist, the token (`--token-file`, `GITHUB_TOKEN`, `GH_TOKEN`, `gh auth token`) and the
transport (`ghapi.for_writing`). Without a token the calls are printed instead of made: a dry
run, with a warning.

history → each line's state on the night (`history.regression`, the same states the
dashboard shows) → the texts (`notify.texts`) → whose issues are ours → the issues or the
pull request's comments as GitHub has them → the plan (`notify.plan`) → the calls, line by line.

Ours is what one of our accounts wrote: the token's own login (GET /user) and every
`--bot-login` named (a GitHub App's or Actions' token cannot ask GET /user; its writes are
`github-actions[bot]`'s or the App's `SLUG[bot]`). When no login is known, notify makes no call
and warns: it never guesses whose issues it may edit. A dry run without a login takes every
issue carrying tiercheck's markers as ours, and says so.

Within a line the calls are made in order until GitHub refuses one: the rest of that line's
calls are not made (its state is recorded before its comment, so nothing is said twice), with
a warning; the other lines' calls still go ahead, unless GitHub rate-limited us (then every
later call would be refused too, and none is made). A refused listing ends everything with a
warning. The next night's plan starts again from what GitHub then holds, so nothing is lost
but that night's update.

After opening an issue, the issues are listed again: if another run opened one for the same
line meanwhile, the lowest number is the line's and this run closes its own as a duplicate
(`notify.plan.plan_duplicates`), so two runs at once still leave one open issue per line.

A line whose latest run is *incomparable* (measured under another harness version or other
requirement sets, with no regression open) gets no notice at all: its issue, open or closed,
is left as it is (neither edited as regressed nor closed), and no issue is opened. It is
judged again on the next night, compared with this one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from tiercheck import ghapi
from tiercheck.config.triage import load_triage
from tiercheck.dashboard.triage import Triage
from tiercheck.errors import UsageError
from tiercheck.history.record import RunRecord, line_of
from tiercheck.history.regression import NightState, line_states, night_end
from tiercheck.history.store import HistoryError, HistoryStore
from tiercheck.notify import texts
from tiercheck.notify.github import GitHub, GitHubTarget, NotifyError, connect
from tiercheck.notify.plan import (
    Authors,
    Call,
    LineNotice,
    authors_of,
    plan_duplicates,
    plan_issues,
    plan_pr_comment,
)

__all__ = [
    "ANONYMOUS_WARNING",
    "NotifyOutcome",
    "NotifyRequest",
    "actions_run_url",
    "notices",
    "notify",
    "state_key",
]

Connect = Callable[[GitHubTarget], AbstractContextManager[GitHub]]

#: Said when no token is found and the calls are printed instead of made.
ANONYMOUS_WARNING = (
    "no GitHub token (--token-file, GITHUB_TOKEN, GH_TOKEN, gh auth token); printing the calls "
    "it would make instead"
)


@dataclass(frozen=True)
class NotifyRequest:
    """What `tier-check notify` was asked to do, as the flags gave it."""

    history: Path
    #: The repository holding the tracking issues (OWNER/REPO).
    repo: str
    #: The token a flag gave (`--token-file`); None: `ghapi.resolve_token` looks further.
    token: str | None = None
    #: `--github-api-url`; None: `GITHUB_API_URL`, else api.github.com (`ghapi.api_url`).
    github_api_url: str | None = None
    #: Print the calls instead of making them (the listing GETs are still made).
    dry_run: bool = False
    #: Upsert the sticky comment on this pull request instead of the issues.
    pr: int | None = None
    #: The night to judge (default: the latest night in the history).
    night: date | None = None
    #: The lines to judge (default: every line in the history).
    lines: tuple[str, ...] = ()
    dashboard: str | None = None
    #: Logins whose issues and comments are ours beside the token's own (`--bot-login`).
    bot_logins: tuple[str, ...] = ()
    #: `--triage FILE`: reviewed triage links shown beside the failures in the issues.
    triage: Path | None = None


@dataclass
class NotifyOutcome:
    """What notify found and did."""

    night: date | None
    #: Each line asked about → its state on the night (None: no run on or before it).
    states: dict[str, NightState | None] = field(default_factory=dict)
    planned: list[Call] = field(default_factory=list)
    made: list[Call] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Whether the calls were only printed (asked for, or no token was found).
    dry_run: bool = False


@dataclass(frozen=True)
class _Run:
    """The request with GitHub's side resolved: where the calls go, whether they are only
    printed, and the workflow run's page (linked from the pull-request comment)."""

    request: NotifyRequest
    target: GitHubTarget
    dry_run: bool
    run_url: str | None


def actions_run_url(environ: Mapping[str, str]) -> str | None:
    """This workflow run's page, when running in GitHub Actions (`environ` says so)."""
    server, repo, run = (
        environ.get(name) for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID")
    )
    return f"{server}/{repo}/actions/runs/{run}" if server and repo and run else None


def _resolve(request: NotifyRequest, log: Callable[[str], None]) -> _Run:
    """GitHub's side of `request`, in the order bad input is refused: the API URL, the history
    (before a token is looked for), then the token; without one, a dry run (said to `log`)."""
    api_url = ghapi.api_url(request.github_api_url)
    if not request.history.is_file():
        msg = f"--history {request.history}: no such file (the nightly's history database)"
        raise UsageError(msg)
    token = ghapi.resolve_token(request.token)
    dry_run = request.dry_run
    if token.value is None and not dry_run:
        log(ANONYMOUS_WARNING)
        dry_run = True
    target = GitHubTarget(request.repo, api_url, token.value, ghapi.for_writing())
    return _Run(request, target, dry_run, actions_run_url(os.environ))


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
    states: Mapping[str, NightState | None],
    *,
    dashboard: str | None = None,
    triage: Triage | None = None,
) -> list[LineNotice]:
    """Each line's notice: its state with the texts rendered. A line without a run, or whose
    latest run is incomparable with nothing open, has none: its issue is left as it is."""
    return [
        LineNotice(
            line=s.line,
            regressed=s.status == "regressed",
            key=state_key(s),
            title=texts.issue_title(s.line),
            body=texts.issue_body(s, dashboard=dashboard, triage=triage),
            changed=texts.changed_comment(s),
            reopened=texts.reopened_comment(s),
            green=texts.green_comment(s),
            link=dashboard,
        )
        for s in states.values()
        if s is not None and s.status != "incomparable"
    ]


def _authors(run: _Run, github: GitHub, outcome: NotifyOutcome) -> Authors:
    """Whose issues and comments are ours; raises `NotifyError` when no login is known and
    calls would be made."""
    named = authors_of(run.request.bot_logins)
    if run.target.token is None:
        login_error = "no token to ask GitHub whose it is"
    else:
        try:
            return named | authors_of([github.login()])
        except NotifyError as exc:
            if exc.rate_limited:  # so would every other call be
                raise
            login_error = str(exc)
    if named:
        return named
    advice = "pass --bot-login LOGIN (the workflow's token writes as 'github-actions[bot]')"
    if run.dry_run:
        outcome.warnings.append(
            f"no login to tell our issues from others' ({login_error}): this dry run takes "
            f"every issue carrying tiercheck's markers as ours; {advice}"
        )
        return None
    msg = f"{login_error}: cannot tell which issues and comments are ours; {advice}; no call made"
    raise NotifyError(msg)


def _plan(
    run: _Run,
    github: GitHub,
    outcome: NotifyOutcome,
    authors: Authors,
    triage: Triage,
) -> list[Call]:
    assert outcome.night is not None
    request = run.request
    if request.pr is not None:
        text = texts.pr_comment(outcome.states, outcome.night, run_url=run.run_url)
        comments = github.pr_comments(request.pr)
        return plan_pr_comment(request.pr, text, comments, authors, link=run.run_url)
    mine = notices(outcome.states, dashboard=request.dashboard, triage=triage)
    return plan_issues(mine, github.issues(), authors)


def _by_line(calls: list[Call]) -> list[list[Call]]:
    """The calls cut into runs of one line each, in order."""
    groups: list[list[Call]] = []
    for call in calls:
        if groups and groups[-1][0].line == call.line:
            groups[-1].append(call)
        else:
            groups.append([call])
    return groups


def _make(github: GitHub, queue: list[Call], authors: Authors, outcome: NotifyOutcome) -> None:
    """Make one line's calls in order, each taken off `queue` once made; after opening an
    issue, close it again if another run opened the line's issue first."""
    while queue:
        call = queue[0]
        written = github.apply(call)
        queue.pop(0)
        outcome.made.append(call)
        if written is None or call.line is None:
            continue
        if authors is not None and (written.author or "").casefold() not in authors:
            outcome.warnings.append(
                f"#{written.number} ({call.line}) was opened as {written.author!r}, which is "
                "not one of our logins: it will not be found as ours; pass --bot-login "
                f"{written.author or 'LOGIN'}"
            )
        later = plan_duplicates(call.line, written.number, github.issues(), authors)
        outcome.planned.extend(later)
        queue[:0] = later


def _apply(github: GitHub, outcome: NotifyOutcome, authors: Authors) -> None:
    groups = _by_line(outcome.planned)
    for at, calls in enumerate(groups):
        queue = list(calls)
        try:
            _make(github, queue, authors, outcome)
        except NotifyError as exc:
            left, what = len(queue), f" for {calls[0].line or 'the pull request'}"
            if exc.rate_limited:  # every later call would be refused too
                left += sum(len(g) for g in groups[at + 1 :])
                what = ""
            tail = f"; {left} call(s){what} not made, left to the next run" if left else ""
            outcome.warnings.append(f"GitHub: {exc}{tail}")
            if exc.rate_limited:
                return


def notify(
    request: NotifyRequest,
    *,
    log: Callable[[str], None] = lambda _line: None,
    open_github: Connect = connect,
) -> NotifyOutcome:
    """Judge every line on the night and bring GitHub in line; never raises for GitHub (bad
    input is a `UsageError`). `log` is told at once what is said before the work starts (no
    token: a dry run); what happens later is in the outcome's warnings."""
    run = _resolve(request, log)
    triage = Triage()
    if request.triage is not None:
        if not request.triage.is_file():
            msg = f"--triage {request.triage}: no such file"
            raise UsageError(msg)
        triage = Triage(load_triage(request.triage))
    runs = _runs(request.history)
    if not runs:
        outcome = NotifyOutcome(None, dry_run=run.dry_run)
        outcome.warnings.append(f"{request.history} holds no runs: nothing to notify")
        return outcome
    night = request.night or max(r.timestamp.date() for r in runs)
    # A line's stable series is a line of its own (`NAME@stable`), with an issue of its own.
    lines = request.lines or tuple(sorted({line_of(r) for r in runs}))
    found = line_states(runs, as_of=night_end(night))
    outcome = NotifyOutcome(night, {line: found.get(line) for line in lines}, dry_run=run.dry_run)
    try:
        with open_github(run.target) as github:
            authors = _authors(run, github, outcome)
            outcome.planned = _plan(run, github, outcome, authors, triage)
            if not run.dry_run:
                _apply(github, outcome, authors)
    except NotifyError as exc:
        outcome.warnings.append(f"GitHub: {exc}")
    return outcome
