"""The GitHub edge of `tier-check notify`: list issues and comments, make the planned calls.

Thin on purpose: what to call is decided by `notify.plan`; this module only turns PyGithub's
objects into `ExistingIssue`/`ExistingComment` and calls into requests. Every way GitHub can
fail (an HTTP error, a rate limit beyond the wait bound, a network error, an answer of the
wrong shape) is raised as one `NotifyError` with a one-line reason, which the caller reports as
a warning: notifying is never the reason a nightly fails. The token travels only as a header.

Creating an issue or a comment is never retried by the transport (a POST that timed out may
have been made; a second one would duplicate it): the next night finds it by its marker
instead. Edits (PATCH) set a value and are safe to retry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from tiercheck.notify.plan import Call, ExistingComment, ExistingIssue

if TYPE_CHECKING:
    from github.Issue import Issue
    from github.IssueComment import IssueComment
    from github.Repository import Repository

__all__ = ["GitHubTarget", "NotifyError", "connect"]

_T = TypeVar("_T")

#: Listing all issues is bounded: a repository with more than this many pages is not searched
#: further (the tracking issues are found among the newest, where they were created).
MAX_PAGES = 50


class NotifyError(Exception):
    """GitHub could not be used for this call; the message is one line, without the token."""


@dataclass(frozen=True)
class GitHubTarget:
    """Where and how to reach GitHub. Timeouts, retries and pauses are injected by tests."""

    repo: str
    api_url: str
    token: str | None
    #: Seconds between requests and between writes (PyGithub's politeness delays).
    throttle: float | None = 0.25
    write_throttle: float | None = 1.0
    retries: int = 3
    backoff: float = 1.0
    #: The longest a rate limit is waited out; beyond it the call fails (a warning).
    max_wait: float = 60.0
    timeout: int = 30


def _reason(exc: BaseException) -> str:
    """One line saying why a call failed (GitHub's own message included, never a header)."""
    import requests
    from github.GithubException import (
        BadAttributeException,
        GithubException,
        RateLimitExceededExceedsMaxWait,
        RateLimitExceededException,
    )

    if isinstance(exc, RateLimitExceededExceedsMaxWait):
        return f"rate limited (HTTP {exc.status}); the limit resets in {exc.wait:.0f}s"
    if isinstance(exc, RateLimitExceededException):
        return f"rate limited (HTTP {exc.status})"
    if isinstance(exc, GithubException):
        message = exc.data.get("message") if isinstance(exc.data, dict) else None
        detail = f": {' '.join(str(message).split())[:160]}" if message else ""
        return f"HTTP {exc.status}{detail}"
    if isinstance(exc, requests.exceptions.RetryError):
        return "GitHub kept failing after retries (HTTP 5xx or 429)"
    if isinstance(exc, requests.exceptions.RequestException):
        return f"network error ({type(exc).__name__})"
    if isinstance(exc, BadAttributeException):
        return "GitHub answered in an unexpected shape (a field of the wrong type)"
    detail = " ".join(str(exc).split())[:120]
    return f"GitHub answered in an unexpected shape ({type(exc).__name__}: {detail})"


#: What reading an answer of the wrong shape raises, beside PyGithub's own errors.
_MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError)


def _guarded(what: str, call: Callable[[], _T]) -> _T:
    import requests
    from github.GithubException import BadAttributeException, GithubException

    try:
        return call()
    except (
        GithubException,
        BadAttributeException,
        requests.exceptions.RequestException,
        *_MALFORMED,
    ) as exc:
        raise NotifyError(f"{what}: {_reason(exc)}") from None


def _text(value: object) -> str:
    """A body as text: GitHub sends null for an empty one."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TypeError(f"a body that is not text ({type(value).__name__})")
    return value


def _number(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"a number that is not one ({value!r:.40})")
    return value


class GitHub:
    """One repository on one GitHub, through PyGithub."""

    def __init__(self, target: GitHubTarget) -> None:
        from github import Auth, Github

        from tiercheck.governance.collector import make_retry

        self.target = target
        self.client = Github(
            auth=Auth.Token(target.token) if target.token else None,
            base_url=target.api_url.rstrip("/"),
            timeout=target.timeout,
            per_page=100,
            retry=make_retry(
                target.max_wait,
                target.retries,
                target.backoff,
                allowed_methods=frozenset({"GET", "PATCH"}),
            ),
            seconds_between_requests=target.throttle,
            seconds_between_writes=target.write_throttle,
            lazy=True,
        )
        self.repo: Repository = self.client.get_repo(target.repo, lazy=True)
        self._issues: dict[int, Issue] = {}
        self._comments: dict[int, IssueComment] = {}

    def close(self) -> None:
        """Close the HTTP session."""
        self.client.close()

    def issues(self) -> list[ExistingIssue]:
        """Every issue of the repository, open and closed, newest first (pull requests left
        out), up to `MAX_PAGES` pages."""

        def listing() -> list[ExistingIssue]:
            found: list[ExistingIssue] = []
            pages = self.repo.get_issues(state="all", sort="created", direction="desc")
            for i, issue in enumerate(pages):
                if i >= MAX_PAGES * 100:
                    break
                if issue.pull_request is not None:
                    continue
                state: Literal["open", "closed"] = "open" if issue.state == "open" else "closed"
                number = _number(issue.number)
                self._issues[number] = issue
                found.append(ExistingIssue(number, state, _text(issue.body)))
            return found

        return _guarded("listing the issues", listing)

    def pr_comments(self, pr: int) -> list[ExistingComment]:
        """The comments of pull request `pr` (its conversation, which is an issue's)."""

        def listing() -> list[ExistingComment]:
            issue = self._issue(pr)
            found = []
            for comment in issue.get_comments():
                number = _number(comment.id)
                self._comments[number] = comment
                found.append(ExistingComment(number, _text(comment.body)))
            return found

        return _guarded(f"listing the comments of #{pr}", listing)

    def _issue(self, number: int) -> Issue:
        if number not in self._issues:
            self._issues[number] = self.repo.get_issue(number)
        return self._issues[number]

    def apply(self, call: Call) -> None:
        """Make one planned call."""
        _guarded(call.describe(self.target.repo).split(":")[0], lambda: self._apply(call))

    def _apply(self, call: Call) -> None:
        body = call.body or ""
        if call.verb == "create-issue":
            self.repo.create_issue(title=call.title or "", body=body)
        elif call.verb == "edit-issue":
            assert call.number is not None
            changes: dict[str, Any] = {}
            if call.body is not None:
                changes["body"] = call.body
            if call.state is not None:
                changes["state"] = call.state
                changes["state_reason"] = "completed" if call.state == "closed" else "reopened"
            self._issue(call.number).edit(**changes)
        elif call.verb in ("comment-issue", "create-comment"):
            assert call.number is not None
            self._issue(call.number).create_comment(body)
        else:
            assert call.comment is not None
            self._comments[call.comment].edit(body)


@contextmanager
def connect(target: GitHubTarget) -> Iterator[GitHub]:
    """A `GitHub` for `target`, closed on the way out."""
    github = GitHub(target)
    try:
        yield github
    finally:
        github.close()
