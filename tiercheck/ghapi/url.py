"""Which GitHub REST base to call: `--github-api-url`, else `GITHUB_API_URL`, else
api.github.com, checked to be an http(s) URL."""

from __future__ import annotations

import os
from collections.abc import Mapping

from tiercheck.errors import UsageError

__all__ = ["API_URL_ENV", "DEFAULT_API_URL", "api_url"]

DEFAULT_API_URL = "https://api.github.com"
#: The environment variable GitHub Actions (and GitHub Enterprise runners) set to the REST base.
API_URL_ENV = "GITHUB_API_URL"


def api_url(flag: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The GitHub REST base to call: `--github-api-url`, else `GITHUB_API_URL` (from `environ`,
    by default the process's environment), else api.github.com. UsageError (one line naming
    where it came from) when it is not an http(s) URL with a host and a valid port."""
    if flag is not None:
        return _checked_api_url(flag, "--github-api-url")
    env = os.environ if environ is None else environ
    if env.get(API_URL_ENV):
        return _checked_api_url(env[API_URL_ENV], API_URL_ENV)
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
