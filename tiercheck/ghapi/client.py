"""The one way to build a PyGithub client: token auth (the token travels only as a header), the
REST base, 100 items a page, and a `Transport`'s timeout, retries and politeness delays.

PyGithub is imported when a client is first built.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from tiercheck.ghapi.pages import PER_PAGE
from tiercheck.ghapi.retry import make_retry
from tiercheck.ghapi.transport import Transport

if TYPE_CHECKING:
    from github import Github

__all__ = ["client", "quiet_pygithub"]


def client(
    api_url: str, token: str | None, transport: Transport, deadline_at: float | None = None
) -> Github:
    """A PyGithub client for the REST base `api_url`, authenticated by `token` if given,
    travelling as `transport` says; with `deadline_at` (a `time.monotonic()` moment), no retry
    starts after it."""
    from github import Auth, Github

    return Github(
        auth=Auth.Token(token) if token else None,
        base_url=api_url.rstrip("/"),
        timeout=transport.request_timeout(),
        per_page=PER_PAGE,
        retry=make_retry(transport, deadline_at),
        seconds_between_requests=transport.throttle,
        seconds_between_writes=transport.write_throttle,
    )


@contextmanager
def quiet_pygithub() -> Iterator[None]:
    """PyGithub's logger quieted to warnings meanwhile: it logs each retry and rate-limit wait
    at INFO on a handler of its own (stderr), for a command whose own warning says the same."""
    import github as pygithub

    # After the import: importing PyGithub sets its logger to INFO.
    logger = logging.getLogger(pygithub.__name__)
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)
