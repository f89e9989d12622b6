"""Free ports, listening checks and `{port}` templating.

Every official SDK configuration hard-codes port 3000, so two assessments on one machine collide
and a stale server on 3000 is silently tested instead of the SDK. tiercheck allocates a port per
server, substitutes it into the command and URL, and refuses a port somebody already listens on.
"""

from __future__ import annotations

import socket
from contextlib import suppress
from urllib.parse import urlsplit

__all__ = [
    "PORT_PLACEHOLDER",
    "allocate_port",
    "fixed_port",
    "is_listening",
    "port_of_url",
    "substitute_port",
]

#: The placeholder replaced by the allocated port in commands, URLs and environment values.
PORT_PLACEHOLDER = "{port}"

_LOOPBACK = "127.0.0.1"


def allocate_port(host: str = _LOOPBACK) -> int:
    """A TCP port that is free on `host` right now (bind to port 0, read it, close).

    The port is released before it is returned, so another process could take it in between;
    the managed server therefore still checks that nothing listens before it starts.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
    return port


def is_listening(host: str, port: int, timeout_s: float = 0.5) -> bool:
    """Whether something accepts TCP connections on `host:port` (every address `host` names)."""
    with suppress(OSError), socket.create_connection((host, port), timeout=timeout_s):
        return True
    return False


def substitute_port(text: str, port: int) -> str:
    """`text` with every `{port}` replaced by `port`; other braces are left alone."""
    # Not str.format: shell commands and JSON arguments legitimately contain braces.
    return text.replace(PORT_PLACEHOLDER, str(port))


def port_of_url(url: str) -> int | None:
    """The TCP port a (substituted) http(s) URL points at, or None if the URL has no host."""
    parts = urlsplit(url)
    if not parts.hostname:
        return None
    try:
        explicit = parts.port
    except ValueError:
        return None
    if explicit is not None:
        return explicit
    return 443 if parts.scheme == "https" else 80


def fixed_port(url: str) -> int | None:
    """The port a server URL fixes: the URL's own port when it has no `{port}`, else None.

    Without `{port}` in its URL a server is reached on that one port whatever its command says
    (`{port}` in the command and `PORT` are given the URL's port), so two of them cannot run at
    once on one machine.
    """
    if PORT_PLACEHOLDER in url:
        return None
    return port_of_url(url)
