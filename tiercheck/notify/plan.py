"""What to do on GitHub tonight, as a list of calls (pure): line states and texts in, calls out.

Each SDK line has at most one tracking issue, recognised by a hidden marker in its body
(`<!-- tiercheck:line=NAME -->`) and carrying the state it last described
(`<!-- tiercheck:state=KEY -->`). From the issue as it stands and the line's state tonight:

- no issue: a regression creates it; green does nothing;
- an open issue: a regression edits the body if it differs, and comments if the state changed;
  green edits the body, closes the issue and comments;
- a closed issue: a regression reopens it with the new body and comments; green does nothing.

The body is edited before the comment is posted, so the state a comment announces is always
recorded first: if the comment then fails, the next night finds the state already recorded
and does not comment again. At most one comment per change of state, even across failures
(one may be lost, none is ever repeated). Re-running a night plans nothing: the body and state
are already what they would become.

The pull-request comment works the same way with its own marker: edited in place when it
exists (and differs), created otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "PR_MARKER",
    "Call",
    "ExistingComment",
    "ExistingIssue",
    "LineNotice",
    "line_marker",
    "plan_issues",
    "plan_pr_comment",
    "state_of",
    "with_markers",
]

PR_MARKER = "<!-- tiercheck:pr-comment -->"
_STATE = re.compile(r"<!-- tiercheck:state=([^>]*?) -->")


def line_marker(line: str) -> str:
    """The hidden marker that makes an issue the tracking issue of `line`."""
    return f"<!-- tiercheck:line={line} -->"


def _state_marker(key: str) -> str:
    # `>` and `--` are kept out of the key so the comment cannot end early.
    return f"<!-- tiercheck:state={key.replace('>', '_').replace('--', '__')} -->"


def with_markers(text: str, line: str, key: str) -> str:
    """An issue body: the visible `text`, then the line and state markers."""
    return f"{text.rstrip()}\n\n{line_marker(line)}\n{_state_marker(key)}\n"


def state_of(body: str) -> str | None:
    """The state key an issue body records, or None (not ours, or written by hand)."""
    found = _STATE.search(body)
    return found.group(1) if found else None


@dataclass(frozen=True)
class LineNotice:
    """What one line's issue should say tonight (texts already rendered)."""

    line: str
    regressed: bool
    #: The state without durations ("green" or the regressions' keys).
    key: str
    title: str
    #: The visible body; the markers are added here.
    body: str
    #: The comment on a change of state while it lasts, on a reopening, and on closing.
    changed: str
    reopened: str
    green: str


@dataclass(frozen=True)
class ExistingIssue:
    """An issue as GitHub lists it (pull requests left out)."""

    number: int
    state: Literal["open", "closed"]
    body: str


@dataclass(frozen=True)
class ExistingComment:
    """A comment on the pull request."""

    id: int
    body: str


Verb = Literal[
    "create-issue",
    "edit-issue",
    "comment-issue",
    "create-comment",
    "edit-comment",
]


@dataclass(frozen=True)
class Call:
    """One call to make on GitHub. `number` is the issue or pull request, `comment` the id of
    a comment to edit; `state` closes or reopens with the edit."""

    verb: Verb
    line: str | None
    number: int | None = None
    comment: int | None = None
    title: str | None = None
    body: str | None = None
    state: Literal["open", "closed"] | None = None

    def describe(self, repo: str) -> str:
        """One line: the HTTP call and what it does (never a token; the body by its size)."""
        base = f"/repos/{repo}/issues"
        chars = len(self.body or "")
        size = f"{chars} character{'' if chars == 1 else 's'}"
        about = f" ({self.line})" if self.line else ""
        if self.verb == "create-issue":
            return f"POST {base}: open {self.title!r}, body of {size}{about}"
        if self.verb == "edit-issue":
            what = {"closed": "close it", "open": "reopen it", None: "edit it"}[self.state]
            body = f", body of {size}" if self.body is not None else ""
            return f"PATCH {base}/{self.number}: {what}{body}{about}"
        if self.verb == "comment-issue":
            return f"POST {base}/{self.number}/comments: comment of {size}{about}"
        if self.verb == "create-comment":
            return f"POST {base}/{self.number}/comments: the sticky comment, {size}"
        return f"PATCH {base}/comments/{self.comment}: update the sticky comment, {size}"


def _ours(issues: Sequence[ExistingIssue], line: str) -> ExistingIssue | None:
    """The line's tracking issue: an open one first, else the newest closed one."""
    marker = line_marker(line)
    mine = [i for i in issues if marker in i.body]
    if not mine:
        return None
    return max(mine, key=lambda i: (i.state == "open", i.number))


def _plan_line(notice: LineNotice, issue: ExistingIssue | None) -> list[Call]:
    body = with_markers(notice.body, notice.line, notice.key)
    line = notice.line
    if issue is None:
        if not notice.regressed:
            return []
        return [Call("create-issue", line, title=notice.title, body=body)]
    n = issue.number
    if issue.state == "closed":
        if not notice.regressed:
            return []
        return [
            Call("edit-issue", line, n, body=body, state="open"),
            Call("comment-issue", line, n, body=notice.reopened),
        ]
    if not notice.regressed:
        return [
            Call("edit-issue", line, n, body=body, state="closed"),
            Call("comment-issue", line, n, body=notice.green),
        ]
    calls: list[Call] = []
    if issue.body != body:
        calls.append(Call("edit-issue", line, n, body=body))
    if state_of(issue.body) != notice.key:
        calls.append(Call("comment-issue", line, n, body=notice.changed))
    return calls


def plan_issues(notices: Sequence[LineNotice], issues: Sequence[ExistingIssue]) -> list[Call]:
    """Every call for tonight, line by line in the order given."""
    return [call for notice in notices for call in _plan_line(notice, _ours(issues, notice.line))]


def plan_pr_comment(pr: int, text: str, comments: Sequence[ExistingComment]) -> list[Call]:
    """Upsert the one sticky comment on pull request `pr`."""
    body = f"{text.rstrip()}\n\n{PR_MARKER}\n"
    mine = [c for c in comments if PR_MARKER in c.body]
    if not mine:
        return [Call("create-comment", None, pr, body=body)]
    first = min(mine, key=lambda c: c.id)
    if first.body == body:
        return []
    return [Call("edit-comment", None, pr, comment=first.id, body=body)]
