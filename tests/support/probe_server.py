"""A small MCP server of our own for the probe tests: well-behaved, or breaking one rule.

`ProbeServer(revision, misbehave=NAME)` serves `/mcp` on 127.0.0.1 in a thread, at the
2025-11-25 session wire or the 2026-07-28 stateless one, with three plain tools (`alpha`,
`beta`, `always_error`) and, at 2026-07-28, an input-required tool whose `requestState` is
sealed with an HMAC. Each `misbehave` name breaks exactly the rule the probe of that name
checks, and nothing else.

`crosswire=p` makes a race instead: each call of a plain tool in concurrent-ids' rounds (ids
from 7 000 000) gets another plain tool's result with probability p, drawn from a
`random.Random(seed)`, and the ids of those calls are kept in `crossed_ids` (what a probe
should have caught, known from the server's side); `crosswire_shared=True` limits that to the
calls that share an id, as python-sdk's transport does. `busy=True` refuses every call of
those rounds.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import random
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODERN = "2026-07-28"
MISBEHAVIOURS = (
    "cross-origin",
    "dns-rebind",
    "content-type",
    "origin-header",
    "mcp-method-headers",
    "seterror-content",
    "tool-names",
    "list-order",
    "protocol-violations",
    "concurrent-ids",
    "tools-snapshot",
    "notification-202",
    "legacy-get-delete",
    "session-id",
    "version-mismatch",
    "base64-header",
    "unsupported-version",
    "request-state",
)
_KEY = b"probe-server-test-key-0123456789abcdef"
_PLAIN = ("alpha", "beta", "always_error")
#: The first JSON-RPC id of concurrent-ids' rounds (its ID_BASE, restated: the server is ours).
_ROUND_IDS = 7_000_000
#: The id every call of a round's second batch shares ends in this (mod 1000).
_SHARED_ID = 500
_STATE_TOOL = "test_input_required_tampered_state"


def _decode(value: str) -> str:
    if value.startswith("=?base64?") and value.endswith("?="):
        try:
            return base64.b64decode(value[9:-2], validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return "\0invalid"
    return value


def _seal(payload: str) -> str:
    return payload + "." + hmac.new(_KEY, payload.encode(), hashlib.sha256).hexdigest()


def _unseal(state: str) -> str | None:
    payload, _, sig = state.rpartition(".")
    good = hmac.new(_KEY, payload.encode(), hashlib.sha256).hexdigest()
    return payload if hmac.compare_digest(sig, good) else None


#: How the well-behaved server refuses a tampered state (the spec names no code).
REFUSAL = (-32602, "Invalid or expired requestState")


class _State:
    def __init__(
        self,
        revision: str,
        misbehave: str | None,
        state_tool: str = _STATE_TOOL,
        refusal: tuple[int, str] = REFUSAL,
        also_serves: tuple[str, ...] = (),
        *,
        crosswire: float = 0.0,
        crosswire_shared: bool = False,
        seed: int = 0,
        busy: bool = False,
    ) -> None:
        self.revision = revision
        self.also_serves = also_serves
        self.crosswire = crosswire
        self.crosswire_shared = crosswire_shared
        self.random = random.Random(seed)
        self.crossed_ids: list[Any] = []
        self.busy = busy
        self.state_tool = state_tool
        self.refusal = refusal
        self.modern = revision >= MODERN
        self.misbehave = misbehave
        self.lock = threading.Lock()
        self.sessions: set[str] = set()
        self.calls = 0
        self.lists = 0
        self.by_id: dict[Any, Any] = {}

    def bad(self, name: str) -> bool:
        return self.misbehave == name

    def tools(self) -> list[dict[str, Any]]:
        with self.lock:
            self.lists += 1
            lists, calls = self.lists, self.calls
        alpha_doc = "Returns alpha"
        if self.bad("tools-snapshot"):
            alpha_doc += f" (generation {calls // 3})"  # changes every third call
        schema: dict[str, Any] = {"type": "object", "properties": {}}
        tools = [
            {"name": "alpha", "description": alpha_doc, "inputSchema": schema},
            {"name": "beta", "description": "Returns beta", "inputSchema": schema},
            {"name": "always_error", "description": "Always fails", "inputSchema": schema},
        ]
        if self.modern:
            tools.append({"name": self.state_tool, "description": "Asks", "inputSchema": schema})
        if self.bad("tool-names"):
            needs = {"type": "object", "properties": {"x": {}}, "required": ["x"]}
            tools.append({"name": "bad name/with space", "inputSchema": needs})
        if self.bad("list-order") and lists % 2 == 0:
            tools.reverse()
        return tools

    def call(self, request_id: Any, params: dict[str, Any]) -> dict[str, Any]:
        """The `result` (or `error`) member of a tools/call response."""
        with self.lock:
            self.calls += 1
            if self.bad("concurrent-ids") and request_id in self.by_id:
                return self.by_id[request_id]  # type: ignore[no-any-return]
        name = params.get("name")
        in_rounds = isinstance(request_id, int) and request_id >= _ROUND_IDS
        if self.busy and in_rounds:
            return {"error": {"code": -32000, "message": "busy"}}
        shared = in_rounds and request_id % 1000 == _SHARED_ID
        if (
            self.crosswire
            and in_rounds
            and name in _PLAIN
            and (shared or not self.crosswire_shared)
        ):
            with self.lock:
                if self.random.random() < self.crosswire:
                    self.crossed_ids.append(request_id)
                    name = _PLAIN[(_PLAIN.index(str(name)) + 1) % len(_PLAIN)]
        if name in ("alpha", "beta"):
            out: dict[str, Any] = {
                "result": {"content": [{"type": "text", "text": name}], "isError": False}
            }
        elif name == "always_error":
            content = [] if self.bad("seterror-content") else [{"type": "text", "text": "boom"}]
            out = {"result": {"content": content, "isError": True}}
        elif name == self.state_tool and self.modern:
            out = self._input_required(params)
        else:
            out = {"error": {"code": -32602, "message": f"unknown tool {name}"}}
        with self.lock:
            self.by_id.setdefault(request_id, out)
        return out

    def _input_required(self, params: dict[str, Any]) -> dict[str, Any]:
        state = params.get("requestState")
        if state is None:
            ask = {"confirm": {"method": "elicitation/create", "params": {"message": "ok?"}}}
            result = {"resultType": "input_required", "inputRequests": ask}
            result["requestState"] = _seal("confirm-pending")
            return {"result": result}
        if not self.bad("request-state") and _unseal(str(state)) is None:
            code, message = self.refusal
            return {"error": {"code": code, "message": message}}
        return {"result": {"content": [{"type": "text", "text": "verified"}], "isError": False}}


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    # Headers and body leave in separate writes; without TCP_NODELAY each answer waits out
    # the client's delayed ACK (about 40 ms on Linux loopback).
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        pass

    @property
    def st(self) -> _State:
        return self.server.state

    def _send(
        self,
        status: int,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> None:
        data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if data and "Content-Type" not in (headers or {}):
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _foreign_origin(self) -> bool:
        origin = self.headers.get("Origin")
        return origin is not None and not origin.startswith(
            ("http://127.0.0.1", "http://localhost")
        )

    def _foreign_host(self) -> bool:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        return host not in ("127.0.0.1", "localhost")

    def _guard(self) -> bool:
        """Host and Origin checks for every method; True when the request was refused."""
        if self._foreign_host() and not self.st.bad("dns-rebind"):
            self._send(421, raw=b"Invalid Host header", headers={"Content-Type": "text/plain"})
            return True
        # "cross-origin" forgets the check on POST only, "origin-header" on everything else.
        post = self.command == "POST"
        skipped = self.st.bad("cross-origin") if post else self.st.bad("origin-header")
        if self._foreign_origin() and not skipped:
            self._send(403, raw=b"Invalid Origin header", headers={"Content-Type": "text/plain"})
            return True
        return False

    def _stream_open(self) -> None:
        self._send(200, raw=b": open\n\n", headers={"Content-Type": "text/event-stream"})

    def do_GET(self) -> None:
        if self._guard():
            return
        if self.st.modern and not self.st.bad("legacy-get-delete"):
            self._send(405, headers={"Allow": "POST"})
        else:
            self._stream_open()

    def do_DELETE(self) -> None:
        if self._guard():
            return
        if self.st.modern and not self.st.bad("legacy-get-delete"):
            self._send(405, headers={"Allow": "POST"})
        else:
            self._send(200)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self._guard():
            return
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if ctype != "application/json" and not self.st.bad("content-type"):
            self._send(415, raw=b"Unsupported Media Type", headers={"Content-Type": "text/plain"})
            return
        try:
            message = json.loads(raw)
        except ValueError:
            self._send(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700}})
            return
        if self.st.modern:
            self._modern(message)
        else:
            self._legacy(message)

    def _error(self, status: int, rid: Any, code: int, text: str, data: Any = None) -> None:
        error: dict[str, Any] = {"code": code, "message": text}
        if data is not None:
            error["data"] = data
        self._send(status, {"jsonrpc": "2.0", "id": rid, "error": error})

    def _modern(self, message: dict[str, Any]) -> None:
        st = self.st
        rid, method = message.get("id"), message.get("method")
        params = message.get("params") or {}
        meta = params.get("_meta") or {}
        header = self.headers.get("MCP-Protocol-Version")
        body_version = meta.get("io.modelcontextprotocol/protocolVersion")
        extra: dict[str, str] = {}
        if st.bad("session-id") and self.headers.get("Mcp-Session-Id"):
            extra["Mcp-Session-Id"] = self.headers["Mcp-Session-Id"]
        if header != body_version and not st.bad("version-mismatch"):
            self._error(400, rid, -32020, "header does not match _meta protocolVersion")
            return
        if body_version != MODERN and not st.bad("unsupported-version"):
            self._error(400, rid, -32022, "Unsupported protocol version", {"supported": [MODERN]})
            return
        if self.headers.get("Mcp-Method") != method:
            self._error(400, rid, -32020, "Mcp-Method does not match the body")
            return
        if method == "tools/call":
            sent = self.headers.get("Mcp-Name") or ""
            name = sent.strip() if st.bad("base64-header") else _decode(sent.strip())
            if name != params.get("name"):
                self._error(400, rid, -32020, "Mcp-Name does not match the body")
                return
        if rid is None:
            if st.bad("notification-202"):
                self._send(200, {"jsonrpc": "2.0", "result": {}}, extra)
            else:
                self._send(202, headers=extra)
            return
        self._answer(rid, method, params, extra)

    def _legacy(self, message: dict[str, Any]) -> None:
        st = self.st
        rid, method = message.get("id"), message.get("method")
        params = message.get("params") or {}
        if st.bad("mcp-method-headers") and "Mcp-Method" in self.headers:
            self._error(400, rid, -32600, "unexpected header Mcp-Method")
            return
        if method == "initialize":
            session = uuid.uuid4().hex
            with st.lock:
                st.sessions.add(session)
            result = {
                "protocolVersion": st.revision,
                "capabilities": {"tools": {}, "prompts": {}},
                "serverInfo": {"name": "probe-test-server", "version": "1"},
            }
            body = {"jsonrpc": "2.0", "id": rid, "result": result}
            self._send(200, body, {"Mcp-Session-Id": session})
            return
        if self.headers.get("Mcp-Session-Id") not in st.sessions:
            self._error(400, rid, -32600, "Bad Request: missing or unknown session")
            return
        if rid is None:
            self._send(202)
            return
        self._answer(rid, method, params, {})

    def _answer(self, rid: Any, method: Any, params: dict[str, Any], extra: dict[str, str]) -> None:
        st = self.st
        if method == "server/discover":
            caps = {"tools": {}, "prompts": {}}
            versions = [MODERN, *st.also_serves]
            result: dict[str, Any] = {"supportedVersions": versions, "capabilities": caps}
            self._send(200, {"jsonrpc": "2.0", "id": rid, "result": result}, extra)
            return
        if method == "tools/list":
            body = {"jsonrpc": "2.0", "id": rid, "result": {"tools": st.tools()}}
            if st.bad("protocol-violations"):
                stray = {"jsonrpc": "2.0", "id": "not-asked", "result": {}}
                events = "".join(
                    f"event: message\ndata: {json.dumps(m)}\n\n" for m in (stray, body)
                )
                headers = {**extra, "Content-Type": "text/event-stream"}
                self._send(200, raw=events.encode(), headers=headers)
                return
            self._send(200, body, extra)
            return
        if method == "prompts/list":
            self._send(200, {"jsonrpc": "2.0", "id": rid, "result": {"prompts": []}}, extra)
            return
        if method == "tools/call":
            out = st.call(rid, params)
            self._send(400 if "error" in out else 200, {"jsonrpc": "2.0", "id": rid, **out}, extra)
            return
        self._error(404 if st.modern else 200, rid, -32601, f"Method not found: {method}")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state: _State) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state


class ProbeServer:
    """A context manager: the server running in a thread; `.url` is its MCP endpoint."""

    def __init__(
        self,
        revision: str,
        misbehave: str | None = None,
        *,
        state_tool: str = _STATE_TOOL,
        state_refusal: tuple[int, str] = REFUSAL,
        also_serves: tuple[str, ...] = (),
        crosswire: float = 0.0,
        crosswire_shared: bool = False,
        seed: int = 0,
        busy: bool = False,
    ) -> None:
        """`state_tool` names the input-required tool; `state_refusal` is the (code, message)
        a tampered state gets when the server is not told to accept it; `also_serves` adds
        earlier revisions to what `server/discover` lists (a dual-era server); `crosswire`,
        `crosswire_shared`, `seed` and `busy` as the module says."""
        if misbehave is not None and misbehave not in MISBEHAVIOURS:
            msg = f"unknown misbehaviour {misbehave}"
            raise ValueError(msg)
        self.state = _State(
            revision,
            misbehave,
            state_tool,
            state_refusal,
            also_serves,
            crosswire=crosswire,
            crosswire_shared=crosswire_shared,
            seed=seed,
            busy=busy,
        )
        self._server = _Server(self.state)
        # A short poll keeps `shutdown()` from waiting out serve_forever's default half second.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True
        )

    @property
    def url(self) -> str:
        """`http://127.0.0.1:PORT/mcp`."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/mcp"

    def __enter__(self) -> ProbeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
