"""PyGithub's retry with every wait bounded: a rate limit resetting beyond `max_wait`, or a long
`Retry-After`, fails instead of sleeping; a host that is not there is given up on at once; and
with a deadline, no retry starts after it and no wait lasts beyond it.

PyGithub and urllib3 are imported when a retry is first made.
"""

from __future__ import annotations

import time
from typing import Any

from tiercheck.ghapi.transport import Transport

__all__ = ["make_retry"]


def make_retry(transport: Transport, deadline_at: float | None = None) -> Any:
    """A `GithubRetry` for `transport`: its retries, back-off and retried methods, every wait
    (`Retry-After` included) bounded by its `max_wait`.

    With `deadline_at` (a `time.monotonic()` moment), no retry starts after it and no wait
    between tries lasts beyond it.
    """
    from github.GithubRetry import GithubRetry

    class BoundedRetry(GithubRetry):
        def get_retry_after(self, response: Any) -> float | None:
            value: float | None = super().get_retry_after(response)
            return _bounded_retry_after(value, self.max_rate_limit_wait, response)

        def increment(self, *args: Any, **kwargs: Any) -> Any:
            _give_up_early(args, kwargs, deadline_at)
            return super().increment(*args, **kwargs)

        def sleep(self, response: Any = None) -> None:
            if deadline_at is None:
                super().sleep(response)
            else:
                _sleep_until_at_most(self, response, deadline_at)

    methods = {} if transport.retried is None else {"allowed_methods": transport.retried}
    return BoundedRetry(
        total=transport.retries,
        backoff_factor=transport.backoff,
        max_rate_limit_wait=transport.max_wait,
        secondary_rate_wait=min(60.0, transport.max_wait),
        **methods,
    )


def _bounded_retry_after(value: float | None, bound: float | None, response: Any) -> float | None:
    """`Retry-After`'s wait, refused (raised as the rate limit's own error) beyond `bound`.

    GithubRetry bounds the rate-limit reset wait, but urllib3 sleeps `Retry-After` (429,
    secondary limits) unbounded: refuse those too rather than sleep for an hour.
    """
    from github.GithubException import RateLimitExceededExceedsMaxWait

    if value is not None and bound is not None and value > bound:
        raise RateLimitExceededExceedsMaxWait(
            response.status, {"message": "Retry-After too long"}, {}, wait=value
        )
    return value


def _give_up_early(
    args: tuple[Any, ...], kwargs: dict[str, Any], deadline_at: float | None
) -> None:
    """Raise urllib3's MaxRetryError instead of retrying, for the call `Retry.increment` was
    given: a name that does not resolve or a refused connection is not a blip to back off from
    (GitHub is not there: no network, a wrong `--github-api-url`), and past the deadline no retry
    starts. Timeouts, resets and 5xx keep their retries."""
    from urllib3.exceptions import MaxRetryError, NewConnectionError, ResponseError

    url = kwargs.get("url", args[1] if len(args) > 1 else None)
    pool: Any = kwargs.get("_pool", args[4] if len(args) > 4 else None)
    error = kwargs.get("error", args[3] if len(args) > 3 else None)
    if isinstance(error, NewConnectionError):
        raise MaxRetryError(pool, url, error)
    if deadline_at is not None and time.monotonic() >= deadline_at:
        raise MaxRetryError(pool, url, ResponseError("deadline passed"))


def _sleep_until_at_most(retry: Any, response: Any, deadline_at: float) -> None:
    """Wait before the next try as `retry` would (`Retry-After`, else its back-off), but never
    beyond `deadline_at`."""
    wait = None
    if response is not None and retry.respect_retry_after_header:
        wait = retry.get_retry_after(response)
    if wait is None:
        wait = retry.get_backoff_time()
    wait = min(wait, deadline_at - time.monotonic())
    if wait > 0:
        time.sleep(wait)
