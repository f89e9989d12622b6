"""How a probe speaks MCP at one revision: the 2025-11-25 session wire or the 2026-07-28 one.

2025-11-25 is stateful: `initialize`, then `notifications/initialized`, then every request
carries the `Mcp-Session-Id` the server minted and `MCP-Protocol-Version`. 2026-07-28 is
stateless: every POST carries `MCP-Protocol-Version`, `Mcp-Method` (and `Mcp-Name` for
`tools/call`, `resources/read`, `prompts/get`), and restates the version and the client's
capabilities in `params._meta` — as the pinned harness's stateless requests do.

The protocol version a probe sends is the one the harness speaks for the revision
(`harness_requirements` in requirements/revisions.yaml): a revision the pinned harness has no set
for is assessed on the bundled set it stands on, so its server was measured at that set's version,
and a server rejects a version it does not know (-32022) before any rule a probe checks.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Mapping
from typing import Any

from tiercheck.probes.client import ProbeClient, Reply, trim
from tiercheck.revisions import harness_requirements, wire_of

__all__ = ["CLIENT_INFO", "NotMcpError", "Wire", "name_of"]

CLIENT_INFO = {"name": "tiercheck-probe", "version": "1"}
#: The client capabilities a probe declares: enough for an input-required fixture to ask.
CLIENT_CAPABILITIES: dict[str, Any] = {"elicitation": {}, "sampling": {}, "roots": {}}
_BASE_HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
}
_ids = itertools.count(1000)
_ids_lock = threading.Lock()


class NotMcpError(Exception):
    """The endpoint did not answer the revision's opening request as an MCP server."""


def next_id() -> int:
    """A JSON-RPC id no other probe request of this process uses."""
    with _ids_lock:
        return next(_ids)


def name_of(method: str, params: Mapping[str, Any] | None) -> str | None:
    """The `Mcp-Name` value SEP-2243 asks for on `method`, if any."""
    params = params or {}
    key = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}.get(method)
    value = params.get(key) if key else None
    return value if isinstance(value, str) else None


class Wire:
    """One connection's view of the server at one revision (a session at 2025-11-25)."""

    def __init__(self, client: ProbeClient, revision: str) -> None:
        self.client = client
        self.revision = revision
        #: The protocol version sent: the one the harness speaks for `revision`.
        self.version = harness_requirements(revision)
        self.modern = wire_of(revision) == "stateless"
        self.session_id: str | None = None
        self.opened: Reply | None = None

    def headers(self, method: str, params: Mapping[str, Any] | None) -> dict[str, str]:
        """The standard headers of a request of `method` on this wire."""
        out = dict(_BASE_HEADERS)
        if self.modern:
            out["MCP-Protocol-Version"] = self.version
            out["Mcp-Method"] = method
            name = name_of(method, params)
            if name is not None:
                out["Mcp-Name"] = name
        elif self.session_id is not None:
            out["MCP-Protocol-Version"] = self.version
            out["Mcp-Session-Id"] = self.session_id
        return out

    def params(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        """`params` with the revision's `_meta` restated (2026-07-28 only)."""
        out = dict(params or {})
        if self.modern:
            meta = {
                "io.modelcontextprotocol/protocolVersion": self.version,
                "io.modelcontextprotocol/clientCapabilities": CLIENT_CAPABILITIES,
                "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
            }
            out["_meta"] = {**meta, **dict(out.get("_meta") or {})}
        return out

    def message(
        self, method: str, params: Mapping[str, Any] | None = None, request_id: Any = None
    ) -> dict[str, Any]:
        """A JSON-RPC request (or, with no id, a notification) of this wire."""
        body: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if request_id is not None:
            body["id"] = request_id
        full = self.params(params)
        if full:
            body["params"] = full
        return body

    def post(
        self,
        body: Mapping[str, Any],
        headers: Mapping[str, str],
        *,
        until_id: Any = None,
        timeout_s: float | None = None,
    ) -> Reply:
        """POST `body` with exactly `headers` (and a shorter timeout, when `timeout_s` says)."""
        data = json.dumps(body).encode()
        return self.client.send(
            "POST", headers=headers, body=data, until_id=until_id, timeout_s=timeout_s
        )

    def request(
        self,
        method: str,
        params: Mapping[str, Any] | None = None,
        *,
        request_id: Any = None,
        extra: Mapping[str, str] | None = None,
        drop: tuple[str, ...] = (),
        timeout_s: float | None = None,
    ) -> tuple[dict[str, Any], Reply]:
        """Send one request with the wire's headers (plus `extra`, minus `drop`)."""
        rid = next_id() if request_id is None else request_id
        body = self.message(method, params, rid)
        headers = self.headers(method, params)
        for key in drop:
            headers.pop(key, None)
        headers.update(extra or {})
        return body, self.post(body, headers, until_id=rid, timeout_s=timeout_s)

    def call(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
        """The `result` of a request, or None when it did not succeed."""
        body, reply = self.request(method, params)
        answer = reply.response(body["id"])
        result = answer.get("result") if answer else None
        return result if isinstance(result, dict) else None

    def open(self) -> Reply:
        """Open the connection: `initialize` + `notifications/initialized`, or `server/discover`.

        Raises NotMcpError when the answer is not a successful MCP result.
        """
        if self.modern:
            body, reply = self.request("server/discover")
        else:
            params = {
                "protocolVersion": self.version,
                "capabilities": CLIENT_CAPABILITIES,
                "clientInfo": CLIENT_INFO,
            }
            body, reply = self.request("initialize", params)
        answer = reply.response(body["id"])
        if reply.status != 200 or answer is None or not isinstance(answer.get("result"), dict):
            what = body["method"]
            msg = f"{what} was not answered as MCP: {trim(reply.evidence(), 100)}"
            raise NotMcpError(msg)
        if not self.modern:
            self.session_id = reply.headers.get("mcp-session-id")
            note = self.message("notifications/initialized")
            self.post(note, self.headers(note["method"], None))
        self.opened = reply
        return reply

    def supported_versions(self) -> list[str]:
        """The protocol versions `server/discover` listed (2026-07-28), else none."""
        if self.opened is None:
            return []
        answer = next((m for m in self.opened.messages if isinstance(m, dict)), {})
        result = answer.get("result") or {}
        versions = result.get("supportedVersions") if isinstance(result, dict) else None
        return [str(v) for v in versions] if isinstance(versions, list) else []

    def capabilities(self) -> Mapping[str, Any]:
        """The server's capabilities from the opening answer."""
        if self.opened is None:
            return {}
        answer = next((m for m in self.opened.messages if isinstance(m, dict)), {})
        result = answer.get("result") or {}
        caps = result.get("capabilities") if isinstance(result, dict) else None
        return caps if isinstance(caps, dict) else {}
