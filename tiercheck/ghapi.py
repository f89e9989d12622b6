"""The GitHub edge: one way to build a PyGithub client, to bound its retries, to page through a
listing, and to read why a call failed. `tiercheck.governance` and `tiercheck.notify` reach
GitHub only through it.

- `client`: a `Github` with token auth (the token travels only as a header), the REST base,
  a per-request timeout, 100 items a page and politeness delays;
- `make_retry`: PyGithub's retry with every wait bounded (a rate limit resetting beyond the
  bound, or a long `Retry-After`, fails instead of sleeping), a refused connection given up on
  at once, and an optional deadline;
- `pages`: a paginated listing followed by `Link rel="next"`, up to a bound;
- `failure`: what an exception from a call says went wrong (a `Failure`), with its one-line
  `reason`; each caller may word a kind its own way (governance names the HTTP status).

PyGithub, requests and urllib3 are imported when first used: importing this module is cheap.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from tiercheck.errors import UsageError

if TYPE_CHECKING:
    from github import Github

__all__ = [
    "API_URL_ENV",
    "DEFAULT_API_URL",
    "PER_PAGE",
    "Failure",
    "Page",
    "api_url",
    "client",
    "errors",
    "failure",
    "make_retry",
    "next_link",
    "pages",
    "unexpected_shape",
]

DEFAULT_API_URL = "https://api.github.com"
#: The environment variable GitHub Actions (and GitHub Enterprise runners) set to the REST base.
API_URL_ENV = "GITHUB_API_URL"


def api_url(flag: str | None, environ: Mapping[str, str]) -> str:
    """The GitHub REST base to call: `--github-api-url`, else `GITHUB_API_URL`, else
    api.github.com. UsageError (one line naming where it came from) when it is not an http(s)
    URL with a host and a valid port."""
    if flag is not None:
        return _checked_api_url(flag, "--github-api-url")
    if environ.get(API_URL_ENV):
        return _checked_api_url(environ[API_URL_ENV], API_URL_ENV)
    return DEFAULT_API_URL


def _checked_api_url(text: str, where: str) -> str:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text.strip())
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        parts, port_ok = None, False
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        msg = f"{where}: {text!r} is not an http(s) URL (e.g. https://github.example.com/api/v3)"
        raise UsageError(msg)
    return text.strip()


#: Items asked for per page of a listing (GitHub's maximum).
PER_PAGE = 100


def client(
    api_url: str,
    token: str | None,
    *,
    timeout: int,
    retry: Any,
    throttle: float | None,
    write_throttle: float | None,
) -> Github:
    """A PyGithub client for the REST base `api_url`, authenticated by `token` if given."""
    from github import Auth, Github

    return Github(
        auth=Auth.Token(token) if token else None,
        base_url=api_url.rstrip("/"),
        timeout=timeout,
        per_page=PER_PAGE,
        retry=retry,
        seconds_between_requests=throttle,
        seconds_between_writes=write_throttle,
    )


def make_retry(
    max_wait: float,
    retries: int,
    backoff: float,
    deadline_at: float | None = None,
    *,
    allowed_methods: frozenset[str] | None = None,
) -> Any:
    """A `GithubRetry` whose every wait, `Retry-After` included, is bounded by `max_wait`.

    With `deadline_at` (a `time.monotonic()` moment), no retry starts after it and no wait
    between tries lasts beyond it. `allowed_methods` narrows the methods retried (GithubRetry
    retries POST too, which suits GraphQL reads but would repeat a create).
    """
    from github.GithubException import RateLimitExceededExceedsMaxWait
    from github.GithubRetry import GithubRetry
    from urllib3.exceptions import MaxRetryError, NewConnectionError, ResponseError

    class BoundedRetry(GithubRetry):
        # GithubRetry bounds the rate-limit reset wait, but urllib3 sleeps `Retry-After`
        # (429, secondary limits) unbounded; refuse those too rather than sleep for an hour.
        def get_retry_after(self, response: Any) -> float | None:
            value: float | None = super().get_retry_after(response)
            bound = self.max_rate_limit_wait
            if value is not None and bound is not None and value > bound:
                raise RateLimitExceededExceedsMaxWait(
                    response.status, {"message": "Retry-After too long"}, {}, wait=value
                )
            return value

        def increment(self, *args: Any, **kwargs: Any) -> Any:
            url = kwargs.get("url", args[1] if len(args) > 1 else None)
            pool: Any = kwargs.get("_pool", args[4] if len(args) > 4 else None)
            error = kwargs.get("error", args[3] if len(args) > 3 else None)
            # A name that does not resolve or a refused connection is not a blip to back off
            # from: GitHub is not there (no network, a wrong --github-api-url). Give up at
            # once; timeouts, resets and 5xx keep their retries.
            if isinstance(error, NewConnectionError):
                raise MaxRetryError(pool, url, error)
            if deadline_at is not None and time.monotonic() >= deadline_at:
                raise MaxRetryError(pool, url, ResponseError("governance deadline passed"))
            return super().increment(*args, **kwargs)

        def sleep(self, response: Any = None) -> None:
            if deadline_at is None:
                super().sleep(response)
                return
            wait = None
            if response is not None and self.respect_retry_after_header:
                wait = self.get_retry_after(response)
            if wait is None:
                wait = self.get_backoff_time()
            wait = min(wait, deadline_at - time.monotonic())
            if wait > 0:
                time.sleep(wait)

    methods = {} if allowed_methods is None else {"allowed_methods": allowed_methods}
    return BoundedRetry(
        total=retries,
        backoff_factor=backoff,
        max_rate_limit_wait=max_wait,
        secondary_rate_wait=min(60.0, max_wait),
        **methods,
    )


def next_link(link: object) -> str | None:
    """The `rel="next"` URL of a `Link` header (None for no header, or one of another type)."""
    if not link or not isinstance(link, str):
        return None
    for part in link.split(","):
        url, _, params = part.partition(";")
        if 'rel="next"' in params:
            return url.strip().strip("<>")
    return None


#: GET one page: `(url, params)` → (JSON body, `Link` header).
Fetch = Callable[[str, dict[str, Any] | None], tuple[Any, object]]


class Page(NamedTuple):
    """One page of a listing: its JSON body, and whether GitHub links a next one."""

    body: Any
    more: bool


def pages(fetch: Fetch, url: str, params: dict[str, Any], max_pages: int) -> Iterator[Page]:
    """Each page of a paginated listing, up to `max_pages` pages: the last one's `more` says
    whether pages were left."""
    next_url: str | None = url
    next_params: dict[str, Any] | None = params
    for _ in range(max_pages):
        if next_url is None:
            return
        body, link = fetch(next_url, next_params)
        # The next URL already carries the query string.
        next_url, next_params = next_link(link), None
        yield Page(body, next_url is not None)


def errors() -> tuple[type[Exception], ...]:
    """What a GitHub call raises when GitHub fails it (each has a `failure`)."""
    import requests
    from github.GithubException import BadAttributeException, GithubException

    return GithubException, BadAttributeException, requests.exceptions.RequestException


Kind = Literal[
    "rate-limit-wait", "rate-limited", "http", "retries", "unreachable", "network", "shape"
]


@dataclass(frozen=True)
class Failure:
    """Why a GitHub call failed, as its exception tells it (never a header).

    `kind`: the rate limit resets beyond the wait bound (`wait`: in how long), GitHub refused
    for the rate limit, answered another HTTP error (`status`, `message`: GitHub's own), kept
    failing after retries, could not be connected to at all (`where`: host and why), another
    network error, or an answer of the wrong shape. `name`: the exception's type.
    """

    kind: Kind
    name: str
    status: int | None = None
    message: object = None
    wait: float | None = None
    where: str | None = None

    @property
    def reason(self) -> str:
        """One line saying why; GitHub's message, if any, on one line and cut short."""
        if self.kind == "rate-limit-wait":
            return f"rate limited (HTTP {self.status}); the limit resets in {self.wait:.0f}s"
        if self.kind == "rate-limited" or (self.kind == "http" and self.status == 429):
            return f"rate limited (HTTP {self.status})"
        if self.kind == "http":
            message = self.message
            detail = f": {' '.join(str(message).split())[:160]}" if message else ""
            return f"HTTP {self.status}{detail}"
        if self.kind == "retries":
            return "GitHub kept failing after retries (HTTP 5xx or 429)"
        if self.kind in ("unreachable", "network"):
            return f"network error ({self.name})"
        return "GitHub answered in an unexpected shape (a field of the wrong type)"


def failure(exc: BaseException) -> Failure:
    """What `exc`, one of `errors()`, says went wrong."""
    import requests
    from github.GithubException import (
        GithubException,
        RateLimitExceededExceedsMaxWait,
        RateLimitExceededException,
    )

    name = type(exc).__name__
    if isinstance(exc, RateLimitExceededExceedsMaxWait):
        return Failure("rate-limit-wait", name, status=exc.status, wait=exc.wait)
    if isinstance(exc, RateLimitExceededException):
        return Failure("rate-limited", name, status=exc.status)
    if isinstance(exc, GithubException):
        message = exc.data.get("message") if isinstance(exc.data, dict) else None
        return Failure("http", name, status=exc.status, message=message)
    if isinstance(exc, requests.exceptions.RetryError):
        return Failure("retries", name)
    if isinstance(exc, requests.exceptions.RequestException):
        where = _connection_failure(exc)
        if where is not None:
            return Failure("unreachable", name, where=where)
        return Failure("network", name)
    return Failure("shape", name)


def _connection_failure(exc: BaseException) -> str | None:
    """What kept a connection from being made at all (a name that does not resolve, a refused
    connection), or None for every other network error (timeouts, resets, broken answers),
    which may pass and keep their retries."""
    from urllib3.exceptions import NameResolutionError, NewConnectionError

    seen: set[int] = set()
    pending: list[BaseException] = [exc]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, NameResolutionError):
            return f"{getattr(current.conn, 'host', 'the host')}: name does not resolve"
        if isinstance(current, NewConnectionError):
            host = getattr(current.conn, "host", "the host")
            port = getattr(current.conn, "port", None)
            where = f"{host}:{port}" if port else str(host)
            refused = "Connection refused" in str(current)
            return f"{where}: connection refused" if refused else f"{where}: no connection"
        # requests wraps urllib3's MaxRetryError, which holds the error in `reason`.
        pending.extend(a for a in current.args if isinstance(a, BaseException))
        reason = getattr(current, "reason", None)
        if isinstance(reason, BaseException):
            pending.append(reason)
        for linked in (current.__cause__, current.__context__):
            if linked is not None:
                pending.append(linked)
    return None


def unexpected_shape(exc: BaseException, detail: str | None = None) -> str:
    """One line for an answer that could not be read (`exc` raised reading it; `detail`, if
    given, instead of its text): GitHub's text inside is kept to one line, cut short."""
    text = " ".join((str(exc) if detail is None else detail).split())[:120]
    return f"GitHub answered in an unexpected shape ({type(exc).__name__}: {text})"
