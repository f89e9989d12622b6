"""What to do on GitHub tonight, as a list of calls (pure): line states and texts in, calls out.

Each SDK line has at most one tracking issue. It is recognised by the marker block tiercheck
writes at the very end of its body, and only there (`with_markers`):

    <visible text>

    <!-- tiercheck:line=NAME -->
    <!-- tiercheck:state=KEY -->

and only when the issue was opened by one of our accounts (`authors`: the token's own login,
or the bot logins the caller names). A marker anywhere else, or an issue by anyone else, is
not ours. The visible text never holds `<!--` (each is written `<!- -`), so nothing an SDK
says (a failure message, a check id, a scenario name) can form a marker or an HTML comment.
NAME and KEY are tokens of safe characters (`token`): anything else, or a token too long, is
replaced and suffixed with a digest, so the block is always short and parses back exactly.

From the line's issue as it stands and its state tonight:

- no issue: a regression creates it; green does nothing;
- an open issue: a regression edits the body if it differs, and comments if the state changed;
  green edits the body, closes the issue and comments;
- a closed issue: a regression reopens it with the new body and comments; green does nothing.

More than one open issue of ours for a line (two runs at once each opened one): the lowest
number is the line's issue, and each other is closed as not planned, its markers removed (so it
is never ours again), then commented "Duplicate of #N". `plan_duplicates` is the same rule for
the issue a run has just opened.

The body is edited before the comment is posted, so the state a comment announces is always
recorded first: if the comment then fails, the next night finds the state already recorded
and does not comment again. At most one comment per change of state, even across failures
(one may be lost, none is ever repeated). Re-running a night plans nothing: the body and state
are already what they would become.

Every body and comment fits GitHub's limit (`MAX_BODY`): a text too long is cut after its last
whole line that fits (never inside a table row or a code span, and a fenced block left open is
closed), followed by a note saying so and linking the whole report when its address is known;
the markers are never cut.

The pull-request comment works the same way with its own marker, at the very end of a comment
by one of our accounts: edited in place when it exists (and differs), created otherwise.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tiercheck.render.markdown import no_comment

__all__ = [
    "MAX_BODY",
    "PR_MARKER",
    "Authors",
    "Call",
    "ExistingComment",
    "ExistingIssue",
    "LineNotice",
    "authors_of",
    "fit",
    "line_marker",
    "markers_of",
    "neutral",
    "plan_duplicates",
    "plan_issues",
    "plan_pr_comment",
    "state_of",
    "token",
    "with_markers",
]

#: GitHub refuses an issue or comment body longer than this (HTTP 422).
MAX_BODY = 65_536
#: GitHub refuses a longer title.
MAX_TITLE = 256
#: A dashboard or run address longer than this is left out of the cut note.
MAX_LINK = 2_000

PR_MARKER = "<!-- tiercheck:pr-comment -->"

#: The logins (case-folded) whose issues and comments are ours; None takes every author's,
#: which only a dry run without a login does (it makes no call).
Authors = frozenset[str] | None

_KEY_CHARS = re.compile(r"[^A-Za-z0-9._:/@+=~ -]")
_LINE_CHARS = re.compile(r"[^A-Za-z0-9._:/@+=~-]")
_TOKEN_CHARS = 200
_NL = r"\r?\n"
_BLOCK = re.compile(
    rf"{_NL}{_NL}<!-- tiercheck:line=(?P<line>[A-Za-z0-9._:/@+=~-]*) -->"
    rf"{_NL}<!-- tiercheck:state=(?P<state>[A-Za-z0-9._:/@+=~ -]*) -->(?:{_NL})?\Z"
)
_PR_BLOCK = re.compile(rf"{_NL}{_NL}{re.escape(PR_MARKER)}(?:{_NL})?\Z")


def _token(text: str, unsafe: re.Pattern[str]) -> str:
    safe = unsafe.sub("_", text)
    while "--" in safe:  # `--` has no place inside an HTML comment
        safe = safe.replace("--", "_-")
    if safe == text and len(safe) <= _TOKEN_CHARS:
        return safe
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{safe[: _TOKEN_CHARS - 17]}~{digest}"


def token(key: str) -> str:
    """What a state marker records for `key`: `key` itself when it is short and made of safe
    characters, else its safe characters cut short and a digest of the whole (the same key
    always gives the same token)."""
    return _token(key, _KEY_CHARS)


def line_marker(line: str) -> str:
    """The hidden marker that makes an issue the tracking issue of `line`."""
    return f"<!-- tiercheck:line={_token(line, _LINE_CHARS)} -->"


def _markers(line: str, key: str) -> str:
    return f"\n\n{line_marker(line)}\n<!-- tiercheck:state={token(key)} -->\n"


def neutral(text: str) -> str:
    """`text` without `<!--`: each is written `<!- -` (`render.markdown.no_comment`, the one
    rule every Markdown document follows), so no HTML comment and no marker can start in it."""
    return no_comment(text)


def _units(text: str) -> int:
    # UTF-16 code units: never fewer than the characters, however GitHub counts them.
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _note(link: str | None, where: str) -> str:
    note = f"_Cut here to fit GitHub's limit of {MAX_BODY:,} characters."
    if link and len(link) <= MAX_LINK and not any(c in link for c in "()<>[] \n"):
        note += f" The whole report is on [{where}]({neutral(link)})."
    return note + "_"


def fit(text: str, budget: int = MAX_BODY, *, link: str | None = None, where: str = "") -> str:
    """`text` if it fits in `budget` characters, else its whole lines up to the last that
    fits (a fenced block left open is closed), then a note that it was cut, linking `link`
    (named `where`) when given."""
    if _units(text) <= budget:
        return text
    note = _note(link, where or "the dashboard")
    room = budget - _units(note) - len("\n```\n\n\n")
    kept: list[str] = []
    used = 0
    fenced = False
    for line in text.split("\n"):
        used += _units(line) + 1
        if used > room:
            break
        kept.append(line)
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
    if fenced:
        kept.append("```")
    head = "\n".join(kept).rstrip()
    return f"{head}\n\n{note}\n" if head else f"{note}\n"


def with_markers(text: str, line: str, key: str, *, link: str | None = None) -> str:
    """An issue body: the visible `text` (neutral, cut to fit), then the line and state
    markers; the whole is never longer than `MAX_BODY`."""
    markers = _markers(line, key)
    visible = fit(neutral(text).rstrip(), MAX_BODY - _units(markers), link=link)
    return f"{visible.rstrip()}{markers}"


@dataclass(frozen=True)
class Markers:
    """The marker block at the end of a body: the visible text above it, the line's and the
    state's tokens."""

    visible: str
    line: str
    state: str


def markers_of(body: str) -> Markers | None:
    """The marker block `with_markers` wrote at the very end of `body`, or None."""
    found = _BLOCK.search(body)
    if found is None:
        return None
    return Markers(body[: found.start()], found["line"], found["state"])


def state_of(body: str) -> str | None:
    """The state token an issue body records, or None (not ours, or written by hand)."""
    markers = markers_of(body)
    return markers.state if markers else None


def authors_of(logins: Sequence[str]) -> frozenset[str]:
    """The `Authors` for these logins (GitHub logins are case-insensitive)."""
    return frozenset(login.casefold() for login in logins)


def _by_us(author: str | None, authors: Authors) -> bool:
    if authors is None:
        return True
    return author is not None and author.casefold() in authors


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
    #: Where the whole report is (the dashboard), linked from a text that had to be cut.
    link: str | None = None


@dataclass(frozen=True)
class ExistingIssue:
    """An issue as GitHub lists it (pull requests left out); `author` is its opener's login
    (None: GitHub names no one, e.g. a deleted account)."""

    number: int
    state: Literal["open", "closed"]
    body: str
    author: str | None = None


@dataclass(frozen=True)
class ExistingComment:
    """A comment on the pull request, and its author's login."""

    id: int
    body: str
    author: str | None = None


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
    a comment to edit; `state` closes or reopens with the edit, for `reason` (default:
    completed when closing, reopened when opening)."""

    verb: Verb
    line: str | None
    number: int | None = None
    comment: int | None = None
    title: str | None = None
    body: str | None = None
    state: Literal["open", "closed"] | None = None
    reason: Literal["completed", "not_planned", "reopened"] | None = None

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
            if self.reason == "not_planned":
                what += " as a duplicate"
            body = f", body of {size}" if self.body is not None else ""
            return f"PATCH {base}/{self.number}: {what}{body}{about}"
        if self.verb == "comment-issue":
            return f"POST {base}/{self.number}/comments: comment of {size}{about}"
        if self.verb == "create-comment":
            return f"POST {base}/{self.number}/comments: the sticky comment, {size}"
        return f"PATCH {base}/comments/{self.comment}: update the sticky comment, {size}"


def _mine(
    issues: Sequence[ExistingIssue], line: str, authors: Authors
) -> list[tuple[ExistingIssue, Markers]]:
    """The line's issues of ours: our marker block at the end, opened by one of `authors`."""
    wanted = _token(line, _LINE_CHARS)
    found = []
    for issue in issues:
        markers = markers_of(issue.body)
        if markers is not None and markers.line == wanted and _by_us(issue.author, authors):
            found.append((issue, markers))
    return found


def _comment(text: str, link: str | None) -> str:
    return fit(neutral(text), link=link)


def _duplicate(line: str, issue: ExistingIssue, markers: Markers, keeper: int) -> list[Call]:
    """Close `issue` as a duplicate of #`keeper`: its markers removed first, then the comment."""
    n = issue.number
    visible = markers.visible.rstrip() + "\n"
    return [
        Call("edit-issue", line, n, body=visible, state="closed", reason="not_planned"),
        Call("comment-issue", line, n, body=f"Duplicate of #{keeper}.\n"),
    ]


def _plan_line(notice: LineNotice, issue: ExistingIssue | None) -> list[Call]:
    body = with_markers(notice.body, notice.line, notice.key, link=notice.link)
    line, link = notice.line, notice.link
    if issue is None:
        if not notice.regressed:
            return []
        return [Call("create-issue", line, title=notice.title[:MAX_TITLE], body=body)]
    n = issue.number
    if issue.state == "closed":
        if not notice.regressed:
            return []
        return [
            Call("edit-issue", line, n, body=body, state="open"),
            Call("comment-issue", line, n, body=_comment(notice.reopened, link)),
        ]
    if not notice.regressed:
        return [
            Call("edit-issue", line, n, body=body, state="closed"),
            Call("comment-issue", line, n, body=_comment(notice.green, link)),
        ]
    calls: list[Call] = []
    if issue.body != body:
        calls.append(Call("edit-issue", line, n, body=body))
    if state_of(issue.body) != token(notice.key):
        calls.append(Call("comment-issue", line, n, body=_comment(notice.changed, link)))
    return calls


def _line_calls(
    notice: LineNotice, issues: Sequence[ExistingIssue], authors: Authors
) -> list[Call]:
    mine = _mine(issues, notice.line, authors)
    opened = sorted((m for m in mine if m[0].state == "open"), key=lambda m: m[0].number)
    if opened:
        issue: ExistingIssue | None = opened[0][0]
    else:
        issue = max((i for i, _ in mine), key=lambda i: i.number, default=None)
    calls = _plan_line(notice, issue)
    for other, markers in opened[1:]:
        calls += _duplicate(notice.line, other, markers, opened[0][0].number)
    return calls


def plan_issues(
    notices: Sequence[LineNotice], issues: Sequence[ExistingIssue], authors: Authors
) -> list[Call]:
    """Every call for tonight, line by line in the order given. A line's issue is its lowest
    open issue of ours, else its newest closed one; its other open ones are duplicates."""
    return [call for notice in notices for call in _line_calls(notice, issues, authors)]


def plan_duplicates(
    line: str, created: int, issues: Sequence[ExistingIssue], authors: Authors
) -> list[Call]:
    """After opening #`created` for `line`: if a lower open issue of ours is the line's, close
    #`created` as its duplicate (each run closes only what it opened, so two runs at once never
    both comment on the same duplicate)."""
    mine = _mine(issues, line, authors)
    lower = [i.number for i, _ in mine if i.state == "open" and i.number < created]
    this = next((m for m in mine if m[0].number == created and m[0].state == "open"), None)
    if not lower or this is None:
        return []
    return _duplicate(line, this[0], this[1], min(lower))


def plan_pr_comment(
    pr: int,
    text: str,
    comments: Sequence[ExistingComment],
    authors: Authors,
    *,
    link: str | None = None,
) -> list[Call]:
    """Upsert the one sticky comment on pull request `pr`: the oldest comment of ours that
    ends with `PR_MARKER`."""
    marker = f"\n\n{PR_MARKER}\n"
    visible = fit(
        neutral(text).rstrip(), MAX_BODY - _units(marker), link=link, where="the workflow run"
    )
    body = f"{visible.rstrip()}{marker}"
    mine = [c for c in comments if _PR_BLOCK.search(c.body) and _by_us(c.author, authors)]
    if not mine:
        return [Call("create-comment", None, pr, body=body)]
    first = min(mine, key=lambda c: c.id)
    if first.body == body:
        return []
    return [Call("edit-comment", None, pr, comment=first.id, body=body)]
