"""A small bounded HTTP client for probes: loopback only, a timeout per request, a size cap.

The server under probe is untrusted: every request has a deadline, no body is read past
`max_bytes`, an SSE stream is read only until the answer to our request arrives, and nothing
but a loopback address is ever dialled (a probe sends foreign Origin and Host headers, never a
request to a foreign host).
"""

from __future__ import annotations

import functools
import json
import ssl
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

__all__ = [
    "LOOPBACK_HOSTS",
    "ProbeClient",
    "ProbeTransportError",
    "Reply",
    "check_loopback",
    "trim",
]

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
#: Evidence strings are cut to this many characters.
EVIDENCE_CHARS = 240


class ProbeTransportError(Exception):
    """The request got no HTTP answer: refused, reset, timed out."""


def check_loopback(url: str) -> str | None:
    """Why `url` may not be probed (not http, not loopback), or None when it may."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return f"{url!r} is not an http(s) URL"
    if (parts.hostname or "") not in LOOPBACK_HOSTS:
        return f"probes only dial 127.0.0.1 or localhost, not {parts.hostname!r}"
    return None


def trim(text: str, limit: int = EVIDENCE_CHARS) -> str:
    """One line of at most `limit` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@dataclass(frozen=True)
class Reply:
    """What one HTTP request got back, already bounded."""

    status: int
    headers: Mapping[str, str]
    text: str
    truncated: bool = False
    #: Every JSON value the body carried: the JSON body itself, or each SSE `data:` event.
    messages: tuple[Any, ...] = field(default=())
    #: Lines of the body that were neither JSON nor SSE framing.
    garbage: tuple[str, ...] = ()

    @property
    def content_type(self) -> str:
        """The media type, without parameters."""
        return self.headers.get("content-type", "").split(";")[0].strip().lower()

    def response(self, request_id: Any) -> dict[str, Any] | None:
        """The JSON-RPC response to `request_id`, if one came back."""
        for message in self._flat():
            if _answers(message, request_id):
                return message  # type: ignore[no-any-return]
        return None

    def _flat(self) -> Iterator[Any]:
        for message in self.messages:
            if isinstance(message, list):
                yield from message
            else:
                yield message

    @property
    def error_code(self) -> int | None:
        """The JSON-RPC error code of the first response that is an error."""
        for message in self._flat():
            if isinstance(message, dict) and isinstance(message.get("error"), dict):
                code = message["error"].get("code")
                return code if isinstance(code, int) else None
        return None

    def evidence(self) -> str:
        """`HTTP 403 <body…>`, trimmed."""
        body = self.text.strip()
        return trim(f"HTTP {self.status}" + (f" {body}" if body else " (no body)"))


@functools.cache
def _tls() -> ssl.SSLContext:
    """httpx's default verifying TLS context, made once and shared by every client (loading the
    CA bundle takes tens of milliseconds, and a run may make a client per probe)."""
    return httpx.create_ssl_context()


class ProbeClient:
    """One server's bounded HTTP client. Thread-safe (probes send concurrent requests)."""

    def __init__(self, url: str, *, timeout_s: float = 5.0, max_bytes: int = 1 << 20) -> None:
        refused = check_loopback(url)
        if refused:
            raise ValueError(refused)
        self.url = url
        self.timeout_s = timeout_s
        self.max_bytes = max_bytes
        # No proxies from the environment (trust_env=False): a probe talks to loopback only.
        self._http = httpx.Client(
            timeout=timeout_s, trust_env=False, follow_redirects=False, verify=_tls()
        )

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> ProbeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(
        self,
        method: str,
        *,
        headers: Mapping[str, str] | None = None,
        body: bytes | None = None,
        until_id: Any = None,
        headers_only: bool = False,
        timeout_s: float | None = None,
    ) -> Reply:
        """Send one request; read at most `max_bytes`, and an SSE stream only until the response
        to `until_id` (or the stream's end, or the cap). `headers_only` reads no body at all
        (for a GET that may open a stream that never ends). `timeout_s` shortens the client's
        timeout for this request (never lengthens it)."""
        wait = self.timeout_s if timeout_s is None else min(timeout_s, self.timeout_s)
        try:
            with self._http.stream(
                method, self.url, headers=dict(headers or {}), content=body, timeout=wait
            ) as r:
                got = {k.lower(): v for k, v in r.headers.items()}
                if headers_only:
                    return Reply(status=r.status_code, headers=got, text="")
                raw, truncated = self._read(r, until_id)
        except httpx.TimeoutException as exc:
            msg = f"no answer within {wait:g} s ({type(exc).__name__})"
            raise ProbeTransportError(msg) from exc
        except httpx.HTTPError as exc:
            raise ProbeTransportError(f"{type(exc).__name__}: {exc}") from exc
        text = raw.decode("utf-8", errors="replace")
        messages, garbage = _parse(text, got.get("content-type", ""))
        return Reply(r.status_code, got, text, truncated, messages, garbage)

    def _read(self, response: httpx.Response, until_id: Any) -> tuple[bytes, bool]:
        sse = "text/event-stream" in response.headers.get("content-type", "")
        buf = bytearray()
        for chunk in response.iter_bytes():
            buf.extend(chunk)
            if len(buf) > self.max_bytes:
                return bytes(buf[: self.max_bytes]), True
            if sse and until_id is not None and _sse_has_response(bytes(buf), until_id):
                return bytes(buf), False
        return bytes(buf), False


def _sse_events(text: str) -> tuple[list[str], list[str]]:
    """(data payloads, lines that are not SSE framing)."""
    events: list[str] = []
    garbage: list[str] = []
    data: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if not line:
            if data:
                events.append("\n".join(data))
                data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif line.startswith((":", "event:", "id:", "retry:")):
            continue
        else:
            garbage.append(line)
    if data:
        events.append("\n".join(data))
    return events, garbage


def _sse_has_response(raw: bytes, until_id: Any) -> bool:
    events, _ = _sse_events(raw.decode("utf-8", errors="replace"))
    for event in events:
        try:
            message = json.loads(event)
        except ValueError:
            continue
        if _answers(message, until_id):
            return True
    return False


def _answers(message: Any, request_id: Any) -> bool:
    """Whether `message` is a JSON-RPC response to `request_id`."""
    if not isinstance(message, dict) or "id" not in message:
        return False
    return message.get("id") == request_id and ("result" in message or "error" in message)


def _parse(text: str, content_type: str) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    if "text/event-stream" in content_type:
        events, garbage = _sse_events(text)
        messages: list[Any] = []
        for event in events:
            try:
                messages.append(json.loads(event))
            except ValueError:
                garbage.append(event)
        return tuple(messages), tuple(garbage)
    if not text.strip():
        return (), ()
    try:
        return (json.loads(text),), ()
    except ValueError:
        return (), (text,)
