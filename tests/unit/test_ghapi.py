"""The GitHub edge on its own: the client it builds, paging, and the failures it reads.

Its retries and its use against a GitHub are exercised through governance and notify
(tests/unit/governance, tests/unit/notify, tests/integration/test_governance_*.py).
"""

from __future__ import annotations

from typing import Any

import pytest
import requests
from github.GithubException import (
    BadAttributeException,
    GithubException,
    RateLimitExceededExceedsMaxWait,
    RateLimitExceededException,
)
from urllib3.exceptions import MaxRetryError, NewConnectionError

from tiercheck import ghapi


def test_the_client_carries_the_token_base_timeout_and_page_size() -> None:
    client = ghapi.client(
        "https://ghe.example/api/v3/",
        "a-token",
        ghapi.Transport(timeout=7, throttle=None, write_throttle=None),
    )
    try:
        assert client.per_page == 100
        assert client.requester._Requester__timeout == 7  # type: ignore[attr-defined]
        assert client.requester.base_url == "https://ghe.example/api/v3"
        assert client.requester.auth is not None
        assert client.requester.auth.token == "a-token"
    finally:
        client.close()


def test_without_a_token_the_client_is_anonymous() -> None:
    client = ghapi.client(ghapi.DEFAULT_API_URL, None, ghapi.Transport())
    try:
        assert client.requester.auth is None
    finally:
        client.close()


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        (None, None),
        (['<https://x/2>; rel="next"'], None),
        ('<https://x/9>; rel="last"', None),
        ('<https://x/1>; rel="prev", <https://x/3?page=3>; rel="next"', "https://x/3?page=3"),
    ],
)
def test_next_link_reads_only_the_next_url_of_a_link_header(
    link: object, expected: str | None
) -> None:
    assert ghapi.next_link(link) == expected


def _site(count: int) -> tuple[list[tuple[str, dict[str, Any] | None]], ghapi.Fetch]:
    asked: list[tuple[str, dict[str, Any] | None]] = []

    def fetch(url: str, params: dict[str, Any] | None) -> tuple[Any, object]:
        asked.append((url, params))
        page = 1 if url == "/items" else int(url.rsplit("=", 1)[1])
        link = f'</items?page={page + 1}>; rel="next"' if page < count else None
        return [page], link

    return asked, fetch


def test_pages_follow_the_next_links_with_the_parameters_on_the_first_request_only() -> None:
    asked, fetch = _site(3)
    got = list(ghapi.pages(fetch, "/items", {"per_page": 100}, max_pages=10))
    assert got == [ghapi.Page([1], True), ghapi.Page([2], True), ghapi.Page([3], False)]
    assert asked == [
        ("/items", {"per_page": 100}),
        ("/items?page=2", None),
        ("/items?page=3", None),
    ]


def test_pages_stop_at_the_bound_and_the_last_says_pages_were_left() -> None:
    asked, fetch = _site(5)
    got = list(ghapi.pages(fetch, "/items", {}, max_pages=2))
    assert [page.body for page in got] == [[1], [2]]
    assert got[-1].more
    assert len(asked) == 2


def _refused() -> requests.exceptions.ConnectionError:
    class Conn:
        host, port = "127.0.0.1", 9

    conn: Any = Conn()
    error = NewConnectionError(conn, "Failed to establish a new connection: Connection refused")
    pool: Any = None
    return requests.exceptions.ConnectionError(MaxRetryError(pool, "/user", error))


@pytest.mark.parametrize(
    ("exc", "kind", "reason"),
    [
        (
            RateLimitExceededExceedsMaxWait(403, {"message": "API rate limit"}, {}, wait=3600.4),
            "rate-limit-wait",
            "rate limited (HTTP 403); the limit resets in 3600s",
        ),
        (RateLimitExceededException(403, {}, {}), "rate-limited", "rate limited (HTTP 403)"),
        (GithubException(429, {"message": "slow down"}, {}), "http", "rate limited (HTTP 429)"),
        (
            GithubException(422, {"message": "Validation\n  Failed"}, {}),
            "http",
            "HTTP 422: Validation Failed",
        ),
        (GithubException(502, "not json", {}), "http", "HTTP 502"),
        (
            requests.exceptions.RetryError("too many 502"),
            "retries",
            "GitHub kept failing after retries (HTTP 5xx or 429)",
        ),
        (requests.exceptions.ReadTimeout("slow"), "network", "network error (ReadTimeout)"),
        (_refused(), "unreachable", "network error (ConnectionError)"),
        (
            BadAttributeException(1, (str, str), None),
            "shape",
            "GitHub answered in an unexpected shape (a field of the wrong type)",
        ),
    ],
)
def test_a_failure_is_read_from_its_exception_with_a_one_line_reason(
    exc: Exception, kind: str, reason: str
) -> None:
    assert isinstance(exc, ghapi.errors())
    found = ghapi.failure(exc)
    assert (found.kind, found.reason) == (kind, reason)


def test_a_refused_connection_says_where() -> None:
    assert ghapi.failure(_refused()).where == "127.0.0.1:9: connection refused"


def test_a_github_message_is_cut_short() -> None:
    found = ghapi.failure(GithubException(400, {"message": "x" * 500}, {}))
    assert found.reason == f"HTTP 400: {'x' * 160}"


def test_an_unexpected_shape_is_one_line_with_the_error_type() -> None:
    exc = TypeError("a body\nthat is not text " + "y" * 200)
    reason = ghapi.unexpected_shape(exc)
    assert reason.startswith("GitHub answered in an unexpected shape (TypeError: a body that")
    assert "\n" not in reason
    assert len(reason) == len("GitHub answered in an unexpected shape (TypeError: )") + 120
    assert ghapi.unexpected_shape(KeyError("login"), "no 'login'").endswith(
        "(KeyError: no 'login')"
    )


def test_the_api_url_is_the_flag_else_the_environment_else_github() -> None:
    from tiercheck.errors import UsageError

    env = {"GITHUB_API_URL": "https://ghe.example/api/v3"}
    assert ghapi.api_url("http://127.0.0.1:9/api", env) == "http://127.0.0.1:9/api"
    assert ghapi.api_url(None, env) == "https://ghe.example/api/v3"
    assert ghapi.api_url(None, {}) == "https://api.github.com"
    assert ghapi.api_url(None, {"GITHUB_API_URL": ""}) == "https://api.github.com"
    for flag, environ, where in (
        ("ftp://x", {}, "--github-api-url"),
        (None, {"GITHUB_API_URL": "https://"}, "GITHUB_API_URL"),
        (None, {"GITHUB_API_URL": "https://h:0/"}, "GITHUB_API_URL"),
    ):
        with pytest.raises(UsageError) as raised:
            ghapi.api_url(flag, environ)
        assert raised.value.message.startswith(f"{where}: ")
        assert "\n" not in raised.value.message
