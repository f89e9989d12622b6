"""Which GitHub token to send, and where it came from.

Order: the token a flag gave (`--token` or `--token-file`, read by the command line), then
`GITHUB_TOKEN`, `GH_TOKEN`, then `gh auth token`; with none, requests are anonymous. The source
is safe to print; the token never is (it is left out of the value's repr).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["TOKEN_ENV", "Token", "resolve_token"]

#: The environment variables a token is read from, in order.
TOKEN_ENV = ("GITHUB_TOKEN", "GH_TOKEN")


@dataclass(frozen=True)
class Token:
    """A GitHub token (None: anonymous) and where it came from: "--token" (a flag gave it),
    an environment variable's name, "gh auth token", or "anonymous"."""

    value: str | None = field(repr=False)
    source: str


def resolve_token(
    flag: str | None,
    *,
    env: Mapping[str, str] | None = None,
    hostname: str | None = None,
) -> Token:
    """The token to send: `flag` if given, else the first of `TOKEN_ENV` set in `env` (by
    default the process's environment), else what `gh auth token` prints (for `hostname`, if
    given), else none (`Token(None, "anonymous")`)."""
    if flag:
        return Token(flag, "--token")
    environ = os.environ if env is None else env
    for name in TOKEN_ENV:
        value = environ.get(name, "").strip()
        if value:
            return Token(value, name)
    token = _gh_auth_token(hostname)
    if token:
        return Token(token, "gh auth token")
    return Token(None, "anonymous")


def _gh_auth_token(hostname: str | None) -> str | None:
    """What `gh auth token` prints, or None when `gh` is missing, fails or prints nothing."""
    from tiercheck.errors import ProcessError
    from tiercheck.process import capture

    argv = ["gh", "auth", "token"] + (["--hostname", hostname] if hostname else [])
    # A read-only helper that prints a token and exits at once; the short timeout keeps a
    # misconfigured `gh` from stalling start-up, and a missing `gh` just means no token.
    try:
        result = capture(argv, timeout_s=5)
    except ProcessError:
        return None
    token = result.stdout.strip()
    return token if result.returncode == 0 and token else None
