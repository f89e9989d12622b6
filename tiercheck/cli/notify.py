"""`tier-check notify`: one tracking issue per SDK line, or one sticky comment on a pull request.

Only issues and comments written by the token's own account (GET /user) or by a `--bot-login`
are ours; with neither known, no call is made (a warning).

Bad input (a missing history, a bad --repo, --night or --bot-login) is a usage error (exit 2).
Whatever
GitHub does (refuses, rate-limits, fails, answers nonsense) is a warning and exit 0: telling
people is never the reason a nightly fails.

This module parses the flags into a `NotifyRequest` and prints the outcome; the token, the API
URL and how requests travel are resolved by `pipeline.notify`, through `tiercheck.ghapi`.
"""

from __future__ import annotations

import argparse
import re
from datetime import date
from pathlib import Path

from tiercheck.cli.common import emit, token_from_args, warn
from tiercheck.errors import UsageError
from tiercheck.pipeline.notify import NotifyOutcome, NotifyRequest
from tiercheck.pipeline.notify import notify as run
from tiercheck.target import check_repo

__all__ = ["notify", "notify_parser"]


def _repo(text: str) -> str:

    try:
        return check_repo(text, "--repo")
    except UsageError as exc:
        raise argparse.ArgumentTypeError(exc.message.removeprefix("--repo: ")) from None


def _pr(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        msg = f"{text!r} is not a pull request number"
        raise argparse.ArgumentTypeError(msg)
    return int(text)


#: A GitHub login: letters, digits and single hyphens (39 at most), `[bot]` for an App's.
_LOGIN = re.compile(r"[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\[bot\])?")


def _login(text: str) -> str:
    if not _LOGIN.fullmatch(text) or len(text.removesuffix("[bot]")) > 39:
        msg = f"{text!r:.60} is not a GitHub login (e.g. github-actions[bot])"
        raise argparse.ArgumentTypeError(msg)
    return text


def _night(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        msg = f"{text!r} is not a date (e.g. 2026-10-12)"
        raise argparse.ArgumentTypeError(msg) from None


def notify_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check notify --history DB --repo OWNER/REPO [--dry-run] [--pr N]`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Keep one tracking issue per SDK line on GitHub from the nightly history: opened "
            "when a line regresses (a lower tier, a newly failing scored scenario, a row "
            "unmeasured two nights running), its body updated each night while it lasts, "
            "closed with a comment when the line is green again. With --pr, upsert one "
            "comment on that pull request instead. GitHub errors are warnings (exit 0)."
        ),
    )
    parser.add_argument("--history", required=True, metavar="DB", help="the history database")
    parser.add_argument("--repo", required=True, metavar="OWNER/REPO", type=_repo)
    parser.add_argument(
        "--dry-run", action="store_true", help="print the calls instead of making them"
    )
    parser.add_argument("--pr", type=_pr, metavar="N", help="the pull request to comment on")
    parser.add_argument(
        "--night", type=_night, metavar="DATE", help="the night to judge (default: the latest)"
    )
    parser.add_argument(
        "--sdk",
        action="append",
        metavar="NAME",
        help="a line to judge (repeatable; default: every line in the history)",
    )
    parser.add_argument("--dashboard-url", metavar="URL", help="linked from each issue")
    parser.add_argument(
        "--triage",
        metavar="FILE",
        help="reviewed triage links (triage.yaml): each failing scenario's issue and note "
        "beside it in the tracking issues",
    )
    parser.add_argument(
        "--bot-login",
        action="append",
        type=_login,
        metavar="LOGIN",
        help=(
            "an account whose issues and comments are ours beside the token's own (repeatable;"
            " the workflow's token, which cannot say whose it is, writes as "
            "'github-actions[bot]')"
        ),
    )
    parser.add_argument(
        "--token-file",
        metavar="FILE",
        help="read the GitHub token from FILE (else GITHUB_TOKEN, GH_TOKEN, gh auth token)",
    )
    parser.add_argument(
        "--github-api-url", metavar="URL", help="GitHub Enterprise (else $GITHUB_API_URL)"
    )
    return parser


def _print(outcome: NotifyOutcome, repo: str) -> None:
    lines: list[str] = []
    for line, state in outcome.states.items():
        if state is None:
            lines.append(f"{line}: no run on or before {outcome.night}")
        elif state.regressions:
            kinds = ", ".join(sorted({r.kind for r in state.regressions}))
            since = min(r.since.timestamp.date() for r in state.regressions)
            lines.append(f"{line}: regression since {since} ({kinds})")
        elif state.marked:
            change = "; ".join(state.basis_change)
            lines.append(f"{line}: not comparable ({state.row}: {change}); issue left as it is")
        else:
            lines.append(f"{line}: green")
    calls = outcome.planned if outcome.dry_run else outcome.made
    verb = "would" if outcome.dry_run else "did"
    lines += [f"{verb} {call.describe(repo)}" for call in calls]
    if not calls and not outcome.warnings:
        lines.append("GitHub is up to date: no call needed")
    if lines:
        emit("\n".join(lines))


def notify(args: argparse.Namespace) -> int:
    """`tier-check notify`: judge each line on the night and bring GitHub in line."""
    request = NotifyRequest(
        history=Path(args.history).expanduser(),
        repo=args.repo,
        token=token_from_args(args),
        github_api_url=args.github_api_url,
        dry_run=bool(args.dry_run),
        pr=args.pr,
        night=args.night,
        lines=tuple(dict.fromkeys(args.sdk or ())),
        dashboard=args.dashboard_url,
        bot_logins=tuple(dict.fromkeys(args.bot_login or ())),
        triage=Path(args.triage).expanduser() if args.triage else None,
    )
    outcome = run(request, log=lambda line: warn(f"notify: {line}"))
    _print(outcome, args.repo)
    for line in outcome.warnings:
        warn(f"notify: {line}")
    return 0
