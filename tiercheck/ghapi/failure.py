"""What a GitHub call's failure says: the exceptions a call raises when GitHub fails it, and
each one read into a `Failure` with a one-line `reason` (each caller may word a kind its own
way: governance names the HTTP status).

PyGithub, requests and urllib3 are imported when first used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Failure", "Kind", "errors", "failure", "unexpected_shape"]


def errors() -> tuple[type[Exception], ...]:
    """What a GitHub call raises when GitHub fails it (each has a `failure`)."""
    import requests
    from github.GithubException import BadAttributeException, GithubException

    return GithubException, BadAttributeException, requests.exceptions.RequestException


Kind = Literal[
    "rate-limit-wait",
    "rate-limited",
    "http",
    "retries",
    "unreachable",
    "network",
    "shape",
    "deadline",
]


@dataclass(frozen=True)
class Failure:
    """Why a GitHub call failed, as its exception tells it (never a header).

    `kind`: the rate limit resets beyond the wait bound (`wait`: in how long), GitHub refused
    for the rate limit, answered another HTTP error (`status`, `message`: GitHub's own), kept
    failing after retries, could not be connected to at all (`where`: host and why), another
    network error, an answer of the wrong shape, or no answer before the session's deadline
    (`wait`: the deadline's length). `name`: the exception's type ("deadline" for the last).
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
        if self.kind == "deadline":
            return f"no answer within the deadline ({self.wait or 0:g}s)"
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
