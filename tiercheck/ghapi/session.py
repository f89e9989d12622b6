"""One raw-JSON session with GitHub, for governance and notify alike.

Requests go through a PyGithub client's `Requester` (its auth, retries, throttling and errors)
and read raw JSON: PyGithub's objects complete themselves lazily with one extra GET each when a
field is missing (PyGithub#2423), which would make 1,000 issues cost 1,000 requests.

- `get`: a GET, sent with `If-None-Match` when the session has an ETag cache, so a re-run is
  mostly 304s (which GitHub does not count against the rate limit); a 304 answers with the
  cached body. The cache key records whether the session is authenticated, never the token;
- `pages`: a paginated listing's pages, through `get`;
- `graphql`: one GraphQL query (never cached: GitHub's GraphQL has no conditional requests);
- `send`: a write (POST, PATCH).

Every way a request fails is raised as one `GitHubError`, whose `failure` says why. With a
deadline (`Transport.deadline`), no request is sent after it and whatever a request raised
past it is the deadline. A GitHub that could not be connected to at all (its name does not
resolve, the connection is refused) is given up on: every later request fails the same way
without being sent, since each would only add back-off against a host that is not there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from tiercheck.ghapi.client import client
from tiercheck.ghapi.etag_cache import EtagCache
from tiercheck.ghapi.failure import Failure, errors, failure
from tiercheck.ghapi.pages import Page, pages
from tiercheck.ghapi.transport import Transport

if TYPE_CHECKING:
    from github import Github

__all__ = ["Counts", "GitHubError", "Session"]

_T = TypeVar("_T")


class GitHubError(Exception):
    """A request GitHub failed, or that was not sent (past the deadline, GitHub not there):
    `failure` says why, and the message is its one-line reason (never a header or the token)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.reason)
        self.failure = failure


@dataclass
class Counts:
    """How many requests a session sent (counted as each starts), how many were answered 304
    Not Modified, and how many were GraphQL queries."""

    requests: int = 0
    not_modified: int = 0
    graphql: int = 0


class Session:
    """Raw JSON from one GitHub REST base, as one token (or none), travelling as a
    `Transport` says; conditional GETs when given an ETag `cache`. A context manager: closed
    on the way out."""

    def __init__(
        self,
        api_url: str,
        token: str | None,
        transport: Transport,
        *,
        cache: EtagCache | None = None,
        counts: Counts | None = None,
    ) -> None:
        self.transport = transport
        self.cache = cache
        self.counts = counts if counts is not None else Counts()
        self.authenticated = token is not None
        #: `time.monotonic()` past which no request is sent (None: no deadline).
        self.deadline_at = (
            None if transport.deadline is None else time.monotonic() + transport.deadline
        )
        self.client: Github = client(api_url, token, transport, self.deadline_at)
        #: Why GitHub could not be connected to at all, once that happened.
        self.unreachable: Failure | None = None

    def __enter__(self) -> Session:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the HTTP session."""
        self.client.close()

    def past_deadline(self) -> bool:
        """Whether the session's deadline has passed."""
        return self.deadline_at is not None and time.monotonic() >= self.deadline_at

    def get(self, url: str, params: dict[str, Any] | None = None) -> tuple[Any, str | None]:
        """GET `url` → (JSON body, `Link` header), revalidating a cached copy with its ETag."""
        query = "&".join(f"{k}={v}" for k, v in sorted((params or {}).items()))
        # ETags differ between anonymous and authenticated answers; the key records which,
        # never the token itself.
        key = f"{'auth' if self.authenticated else 'anon'} GET {url}{'?' if query else ''}{query}"
        cached = self.cache.get(key) if self.cache else None
        headers = {"If-None-Match": cached.etag} if cached else {}
        response_headers, body = self._request(
            lambda: self.client.requester.requestJsonAndCheck(
                "GET", url, parameters=params, headers=headers
            )
        )
        link = response_headers.get("link")
        if body is None and cached is not None:
            self.counts.not_modified += 1
            return cached.body, cached.link
        etag = response_headers.get("etag")
        if self.cache is not None and etag:
            self.cache.put(key, etag, link, body)
        return body, link

    def pages(self, url: str, params: dict[str, Any], max_pages: int) -> Iterator[Page]:
        """Each page of a paginated listing (through `get`), up to `max_pages` pages: the last
        one's `more` says whether pages were left."""
        return pages(self.get, url, params, max_pages)

    def graphql(self, query: str, variables: dict[str, Any]) -> Any:
        """The JSON GitHub answers one GraphQL query with."""
        _, data = self._request(
            lambda: self.client.requester.graphql_query(query, variables), graphql=True
        )
        return data

    def send(self, method: str, url: str, payload: dict[str, Any]) -> Any:
        """The JSON GitHub answers a write (`method`: POST, PATCH) with."""
        _, data = self._request(
            lambda: self.client.requester.requestJsonAndCheck(method, url, input=payload)
        )
        return data

    def _request(self, call: Callable[[], _T], *, graphql: bool = False) -> _T:
        """`call`, counted and sent unless GitHub is known not to be there or the deadline has
        passed; every failure raised as a `GitHubError`."""
        if self.unreachable is not None:
            raise GitHubError(self.unreachable)
        self.counts.requests += 1
        if graphql:
            self.counts.graphql += 1
        if self.past_deadline():
            raise GitHubError(self._deadline())
        try:
            return call()
        except Exception as exc:
            # Whatever the request's own error (a read timeout, retries cut short), past the
            # deadline the reason is the deadline.
            if self.past_deadline():
                raise GitHubError(self._deadline()) from None
            if not isinstance(exc, errors()):
                raise
            found = failure(exc)
            if found.kind == "unreachable":
                self.unreachable = found
            raise GitHubError(found) from None

    def _deadline(self) -> Failure:
        return Failure("deadline", "deadline", wait=self.transport.deadline)
