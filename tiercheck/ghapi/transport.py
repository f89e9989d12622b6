"""How requests to GitHub travel, as one value: each request's timeout, its retries and their
back-off, the longest rate-limit wait, the politeness delays, and a deadline for a whole session.

The defaults are `Transport`'s own fields, declared here once; `DEFAULT` holds them, and each
kind of session starts from it:

- `for_reading`: a session that only reads (governance). Its POSTs are GraphQL queries, so they
  are paced like reads and retried like them;
- `for_writing`: a session that writes (notify). A create (POST) is never retried, since one
  that timed out may have been made and a second would duplicate it; writes are paced a second
  apart, as GitHub advises for content-creating requests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

__all__ = ["DEFAULT", "Transport", "for_reading", "for_writing"]


@dataclass(frozen=True)
class Transport:
    """How requests to GitHub travel."""

    #: Seconds one request may take.
    timeout: int = 30
    #: Retries of a failing request (a 5xx, a 429, a timeout, a reset) and their back-off factor.
    retries: int = 3
    backoff: float = 1.0
    #: The longest a rate limit (or a `Retry-After`) is waited out; beyond it the request fails.
    max_wait: float = 60.0
    #: Seconds between requests and between writes (PyGithub's politeness delays); None: none.
    throttle: float | None = 0.25
    write_throttle: float | None = 1.0
    #: Seconds a whole session may take (None: no bound): no request or retry starts after it.
    deadline: float | None = None
    #: The methods retried; None for PyGithub's own, POST included (GraphQL reads are POSTs).
    retried: frozenset[str] | None = None

    def request_timeout(self) -> int:
        """Seconds one request may take, cut to fit within the deadline (at least 1): a request
        that hangs ends at its own timeout."""
        if self.deadline is None:
            return self.timeout
        return max(1, min(self.timeout, math.ceil(self.deadline)))


#: The transport every session starts from.
DEFAULT = Transport()


def for_reading(deadline: float | None = None) -> Transport:
    """The transport of a session that only reads, within `deadline` seconds if given: its
    writes (GraphQL queries) paced like its reads and retried."""
    return replace(DEFAULT, write_throttle=DEFAULT.throttle, deadline=deadline, retried=None)


def for_writing() -> Transport:
    """The transport of a session that writes: GETs and edits (PATCH, which set a value) are
    retried, creates (POST) never."""
    return replace(DEFAULT, retried=frozenset({"GET", "PATCH"}))
