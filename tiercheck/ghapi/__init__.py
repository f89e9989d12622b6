"""The GitHub edge: everything tiercheck knows of reaching GitHub. `tiercheck.governance` and
`tiercheck.notify` keep their domain logic and reach GitHub only through it; the commands
resolve the token, the API URL and the transport here.

- `token`: which token to send (a flag's, `GITHUB_TOKEN`, `GH_TOKEN`, `gh auth token`) and where
  it came from;
- `url`: which REST base to call (`--github-api-url`, `GITHUB_API_URL`, api.github.com);
- `transport`: how requests travel (timeouts, retries, back-off, rate-limit waits, politeness
  delays, a deadline), as one value with its defaults;
- `retry`: PyGithub's retry with every wait bounded;
- `client`: the one way to build a PyGithub client;
- `session`: one raw-JSON session (conditional GETs, listings, GraphQL, writes) raising one
  `GitHubError` for every failure;
- `etag_cache`: the on-disk cache behind conditional GETs;
- `pages`: a paginated listing followed by `Link rel="next"`;
- `failure`: what an exception from a call says went wrong, with its one-line reason.

PyGithub, requests and urllib3 are imported when first used: importing this package is cheap.
"""

from __future__ import annotations

from tiercheck.ghapi.client import client, quiet_pygithub
from tiercheck.ghapi.failure import Failure, errors, failure, unexpected_shape
from tiercheck.ghapi.pages import PER_PAGE, Fetch, Page, next_link, pages
from tiercheck.ghapi.retry import make_retry
from tiercheck.ghapi.session import Counts, GitHubError, Session
from tiercheck.ghapi.token import Token, resolve_token
from tiercheck.ghapi.transport import Transport, for_reading, for_writing
from tiercheck.ghapi.url import API_URL_ENV, DEFAULT_API_URL, api_url

__all__ = [
    "API_URL_ENV",
    "DEFAULT_API_URL",
    "PER_PAGE",
    "Counts",
    "Failure",
    "Fetch",
    "GitHubError",
    "Page",
    "Session",
    "Token",
    "Transport",
    "api_url",
    "client",
    "errors",
    "failure",
    "for_reading",
    "for_writing",
    "make_retry",
    "next_link",
    "pages",
    "quiet_pygithub",
    "resolve_token",
    "unexpected_shape",
]
