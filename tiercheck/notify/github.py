"""`tier-check notify` on GitHub: who we are, list issues and comments, make the planned calls.

Thin on purpose: what to call is decided by `notify.plan`; this module only reads GitHub's
answers into `ExistingIssue`/`ExistingComment` (their author's `user.login` included) and turns
calls into requests. Requests go through one `tiercheck.ghapi.Session` (raw JSON; its retries,
throttling and one-line failure reasons are `ghapi`'s) and answers are checked field by field:
a listing read wrongly must fail loudly, never look empty (an empty listing would open a
duplicate issue). Every way GitHub can fail (an HTTP error, a rate limit beyond the wait bound,
a network error, an answer of the wrong shape) is raised as one `NotifyError` with a one-line
reason, which the caller reports as a warning: notifying is never the reason a nightly fails.
The token travels only as a header.

`login` asks GET /user whose the token is; a GitHub App's or Actions' token cannot (HTTP 403,
"Resource not accessible by integration"), which is a `NotifyError` like any other.

Creating an issue or a comment is never retried by the transport (`ghapi.for_writing`: a
POST that timed out may have been made; a second one would duplicate it): the next night finds
it by its marker instead. Edits (PATCH) set a value and are safe to retry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tiercheck import ghapi
from tiercheck.notify.plan import Call, ExistingComment, ExistingIssue

__all__ = ["GitHubTarget", "NotifyError", "Written", "connect"]

_T = TypeVar("_T")

#: Listing all issues is bounded: a repository with more than this many pages is not searched
#: further (the tracking issues are found among the newest, where they were created).
MAX_PAGES = 100


class NotifyError(Exception):
    """GitHub could not be used for this call; the message is one line, without the token.
    `rate_limited`: GitHub asked us to slow down, so every later call would be refused too."""

    def __init__(self, message: str, *, rate_limited: bool = False) -> None:
        super().__init__(message)
        self.rate_limited = rate_limited


@dataclass(frozen=True)
class Written:
    """What GitHub answered to a create-issue call: the new issue's number and author."""

    number: int
    author: str | None


@dataclass(frozen=True)
class GitHubTarget:
    """Which repository, on which GitHub, as which token (None: anonymous), and how requests
    travel (a rate limit beyond `transport.max_wait` fails the call: a warning)."""

    repo: str
    api_url: str
    token: str | None
    transport: ghapi.Transport = field(default_factory=ghapi.for_writing)


def _reason(exc: BaseException) -> str:
    """One line saying why a call failed (GitHub's own message included, never a header)."""
    if isinstance(exc, ghapi.GitHubError):
        return exc.failure.reason
    return ghapi.unexpected_shape(exc)


#: What reading an answer of the wrong shape raises, beside the session's `GitHubError`.
_MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError)


def _guarded(what: str, call: Callable[[], _T]) -> _T:
    try:
        return call()
    except (ghapi.GitHubError, *_MALFORMED) as exc:
        reason = _reason(exc)
        raise NotifyError(
            f"{what}: {reason}", rate_limited=reason.startswith("rate limited")
        ) from None


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


def _author(item: dict[str, Any]) -> str | None:
    """The login of whoever wrote `item` (None: GitHub names no one, e.g. a deleted account)."""
    user = item.get("user")
    if user is None:
        return None
    if not isinstance(user, dict):
        raise TypeError(f"a user that is not an object ({type(user).__name__})")
    login = user["login"]
    if not isinstance(login, str):
        raise TypeError(f"a login that is not text ({type(login).__name__})")
    return login


class GitHub:
    """One repository on one GitHub, through one `ghapi.Session`."""

    def __init__(self, target: GitHubTarget, session: ghapi.Session) -> None:
        self.target = target
        self.session = session
        self.base = f"/repos/{target.repo}/issues"

    def _listing(self, url: str, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """Every item of a paginated listing, up to `MAX_PAGES` pages."""
        query = {**params, "per_page": ghapi.PER_PAGE}
        for page in self.session.pages(url, query, MAX_PAGES):
            data = page.body
            if not isinstance(data, list):
                raise TypeError(f"a listing that is not a list ({type(data).__name__})")
            for item in data:
                if not isinstance(item, dict):
                    raise TypeError(f"a listed item that is not an object ({type(item).__name__})")
                yield item

    def issues(self) -> list[ExistingIssue]:
        """Every issue of the repository, open and closed, newest first (pull requests left
        out), up to `MAX_PAGES` pages of 100."""

        def listing() -> list[ExistingIssue]:
            found: list[ExistingIssue] = []
            params = {"state": "all", "sort": "created", "direction": "desc"}
            for item in self._listing(self.base, params):
                if item.get("pull_request") is not None:
                    continue
                state = item["state"]
                if state not in ("open", "closed"):
                    raise ValueError(f"an issue state that is not one ({state!r:.40})")
                found.append(
                    ExistingIssue(
                        _number(item["number"]), state, _text(item.get("body")), _author(item)
                    )
                )
            return found

        return _guarded("listing the issues", listing)

    def pr_comments(self, pr: int) -> list[ExistingComment]:
        """The comments of pull request `pr` (its conversation, which is an issue's)."""

        def listing() -> list[ExistingComment]:
            return [
                ExistingComment(_number(item["id"]), _text(item.get("body")), _author(item))
                for item in self._listing(f"{self.base}/{pr}/comments", {})
            ]

        return _guarded(f"listing the comments of #{pr}", listing)

    def login(self) -> str:
        """The login of the token's own account (GET /user)."""

        def whoami() -> str:
            data, _ = self.session.get("/user")
            login = data["login"]
            if not isinstance(login, str) or not login:
                raise TypeError(f"a login that is not text ({login!r:.40})")
            return login

        return _guarded("GET /user", whoami)

    def apply(self, call: Call) -> Written | None:
        """Make one planned call; for a created issue, its number and author."""
        method, url, payload = self._request(call)

        def make() -> Written | None:
            data = self.session.send(method, url, payload)
            if call.verb != "create-issue":
                return None
            return Written(_number(data["number"]), _author(data))

        return _guarded(f"{method} {url}", make)

    def _request(self, call: Call) -> tuple[str, str, dict[str, Any]]:
        if call.verb == "create-issue":
            return "POST", self.base, {"title": call.title or "", "body": call.body or ""}
        if call.verb == "edit-issue":
            changes: dict[str, Any] = {}
            if call.body is not None:
                changes["body"] = call.body
            if call.state is not None:
                changes["state"] = call.state
                default = "completed" if call.state == "closed" else "reopened"
                changes["state_reason"] = call.reason or default
            return "PATCH", f"{self.base}/{call.number}", changes
        if call.verb in ("comment-issue", "create-comment"):
            return "POST", f"{self.base}/{call.number}/comments", {"body": call.body or ""}
        return "PATCH", f"{self.base}/comments/{call.comment}", {"body": call.body or ""}


@contextmanager
def connect(target: GitHubTarget) -> Iterator[GitHub]:
    """A `GitHub` for `target`, its session closed on the way out.

    PyGithub's own log of each retry and rate-limit wait is quieted meanwhile: the one warning
    this command prints says the same.
    """
    with (
        ghapi.quiet_pygithub(),
        ghapi.Session(target.api_url, target.token, target.transport) as session,
    ):
        yield GitHub(target, session)
