"""tiercheck.sdk.server against real tiny servers: readiness, refusal, early exit, teardown."""

from __future__ import annotations

import json
import os
import shlex
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.procutil import assert_port_free, pid_gone, wait_for
from tiercheck import process
from tiercheck.errors import ServerStartError
from tiercheck.sdk import server
from tiercheck.sdk.ports import allocate_port, is_listening
from tiercheck.sdk.server import managed_server

PY = shlex.quote(sys.executable)

# A tiny server. argv: port, mode, [env dump path]. Modes: json | sse | sse-primed | error
# (an MCP reply), html | notfound (a non-MCP reply), hang (accepts connections, never answers).
SERVER = r"""
import json, os, socket, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer

port, mode = int(sys.argv[1]), sys.argv[2]
if len(sys.argv) > 3:
    with open(sys.argv[3], "w") as f:
        json.dump(dict(os.environ), f)
time.sleep(0.3)  # not ready at once: the first probes must be refused and retried
print(f"serving {mode} on {port}", flush=True)

if mode == "hang":
    s = socket.socket()
    s.bind(("127.0.0.1", port))
    s.listen()
    time.sleep(600)

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, ctype, body, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if mode == "html":
            return self.reply(200, "text/html", b"<html><body>hello</body></html>")
        if mode == "notfound":
            return self.reply(404, "text/plain", b"Not Found")
        if mode == "error":
            answer = {"jsonrpc": "2.0", "id": request["id"],
                      "error": {"code": -32600, "message": "stateless server"}}
        else:
            answer = {"jsonrpc": "2.0", "id": request["id"],
                      "result": {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "serverInfo": {"name": "tiny", "version": "0"}}}
        body = json.dumps(answer).encode()
        if mode == "sse":
            body = b": keep-alive\n\nevent: message\ndata: " + body + b"\n\n"
            return self.reply(200, "text/event-stream", body, [("Mcp-Session-Id", "abc")])
        if mode == "sse-primed":
            # A resumable stream opens with a priming event: an id and empty data (SEP-1699),
            # as python-sdk's server sends it, CRLF line ends included.
            body = (b"id: 1\r\ndata: \r\nretry: 100\r\n\r\n"
                    b"id: 2\r\nevent: message\r\ndata: " + body + b"\r\n\r\n")
            return self.reply(200, "text/event-stream", body, [("Mcp-Session-Id", "abc")])
        return self.reply(200, "application/json", body, [("Mcp-Session-Id", "abc")])

    def do_DELETE(self):
        self.reply(200, "text/plain", b"")

    def do_GET(self):
        self.reply(405, "text/plain", b"")

HTTPServer(("127.0.0.1", port), Handler).serve_forever()
"""

IGNORES_TERM = """
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(sys.argv[1], "w") as f:
    f.write(str(os.getpid()))
time.sleep(600)
"""

URL = "http://127.0.0.1:{port}/mcp"


@pytest.fixture
def script(tmp_path: Path) -> str:
    path = tmp_path / "tiny_server.py"
    path.write_text(SERVER)
    return shlex.quote(str(path))


def _group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def _start_args(tmp_path: Path) -> dict[str, Any]:
    return {"cwd": tmp_path, "env": {}, "log_path": tmp_path / "logs" / "server.log"}


@pytest.mark.parametrize("mode", ["json", "sse", "sse-primed", "error"])
def test_ready_when_our_server_answers_mcp(tmp_path: Path, script: str, mode: str) -> None:
    with managed_server(
        f"{PY} {script} {{port}} {mode}", URL, ready_timeout_s=60, **_start_args(tmp_path)
    ) as srv:
        assert srv.url == f"http://127.0.0.1:{srv.port}/mcp"
        assert srv.returncode is None
        assert srv.ready_after_s > 0
        assert str(srv.port) in srv.command
        answer = httpx.post(
            srv.url,
            json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
            trust_env=False,
        )
        assert answer.status_code == 200
        pgid = srv.pid
    assert _group_gone(pgid)
    assert_port_free(srv.port)
    assert f"serving {mode}" in (tmp_path / "logs" / "server.log").read_text()


def test_port_is_exported_and_secrets_withheld(
    tmp_path: Path, script: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_secret_value")
    dump = tmp_path / "env.json"
    port = allocate_port()
    # A fixed-port configuration (no {port} in the URL): the URL's port is the server's port.
    command = f'{PY} {script} "$PORT" json {shlex.quote(str(dump))}'
    with managed_server(
        command,
        f"http://127.0.0.1:{port}/mcp",
        cwd=tmp_path,
        env={"SDK_SETTING": "on", "SELF_URL": "http://127.0.0.1:{port}"},
        log_path=tmp_path / "server.log",
        ready_timeout_s=60,
    ) as srv:
        assert srv.port == port
    seen = json.loads(dump.read_text())
    assert seen["PORT"] == str(port)
    assert seen["SDK_SETTING"] == "on"
    assert seen["SELF_URL"] == f"http://127.0.0.1:{port}"
    assert "GITHUB_TOKEN" not in seen


def test_exit_at_start_up_fails_fast_with_the_log_tail(tmp_path: Path) -> None:
    command = f"{PY} -c \"import sys; print('cannot load config.toml'); sys.exit(3)\""
    began = time.monotonic()
    with (
        pytest.raises(ServerStartError, match="exited with code 3 during start-up") as info,
        managed_server(command, URL, ready_timeout_s=60, **_start_args(tmp_path)),
    ):
        pytest.fail("the block must not run")
    assert time.monotonic() - began < 10  # not the 60 s ready timeout
    assert "cannot load config.toml" in str(info.value)
    assert "cannot load config.toml" in info.value.log_tail
    assert info.value.exit_code == 1
    assert "\n" not in info.value.message


def test_a_server_that_never_listens_times_out(tmp_path: Path) -> None:
    command = f'{PY} -c "import time; time.sleep(600)"'
    began = time.monotonic()
    with (
        pytest.raises(ServerStartError, match="not ready after 2 s") as info,
        managed_server(command, URL, ready_timeout_s=2, **_start_args(tmp_path)),
    ):
        pytest.fail("the block must not run")
    elapsed = time.monotonic() - began
    assert 2 <= elapsed < 60
    assert "not answering" in str(info.value)


def test_a_server_that_accepts_but_never_answers_times_out(tmp_path: Path, script: str) -> None:
    began = time.monotonic()
    with (
        pytest.raises(ServerStartError, match="did not answer within"),
        managed_server(
            f"{PY} {script} {{port}} hang", URL, ready_timeout_s=4, **_start_args(tmp_path)
        ),
    ):
        pytest.fail("the block must not run")
    assert time.monotonic() - began < 60  # bounded by the ready timeout, not forever


@pytest.mark.parametrize(
    ("mode", "shown"), [("html", "HTTP 200 (text/html)"), ("notfound", "HTTP 404 (text/plain)")]
)
def test_a_non_mcp_answer_is_not_ready(tmp_path: Path, script: str, mode: str, shown: str) -> None:
    with (
        pytest.raises(ServerStartError, match="not with a JSON-RPC response") as info,
        managed_server(
            f"{PY} {script} {{port}} {mode}", URL, ready_timeout_s=4, **_start_args(tmp_path)
        ),
    ):
        pytest.fail("the block must not run")
    assert shown in str(info.value)


@pytest.fixture
def occupied_port() -> Iterator[int]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def test_a_port_in_use_is_refused_before_anything_starts(
    tmp_path: Path, occupied_port: int
) -> None:
    witness = tmp_path / "started"
    command = f"touch {shlex.quote(str(witness))}"
    with (
        pytest.raises(ServerStartError, match=f"port {occupied_port} .* already in use"),
        managed_server(command, URL, port=occupied_port, **_start_args(tmp_path)),
    ):
        pytest.fail("the block must not run")
    assert not process.live_children()
    assert not witness.exists()


def test_a_fixed_port_url_in_use_is_refused(tmp_path: Path, occupied_port: int) -> None:
    url = f"http://localhost:{occupied_port}/mcp"
    with (
        pytest.raises(ServerStartError, match="already in use"),
        managed_server("true", url, **_start_args(tmp_path)),
    ):
        pytest.fail("the block must not run")


def test_an_mcp_squatter_outside_our_group_is_not_ready(
    tmp_path: Path, script: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = allocate_port()
    squatter = process.start(
        f"{PY} {script} {port} json", cwd=tmp_path, env=os.environ, log_path=tmp_path / "sq.log"
    )
    try:
        assert wait_for(lambda: is_listening("127.0.0.1", port))
        # The squatter would be refused up front; let it through to prove the ownership check.
        monkeypatch.setattr(server, "is_listening", lambda *_a, **_k: False)
        command = f'{PY} -c "import time; time.sleep(600)"'
        with (
            pytest.raises(ServerStartError, match="outside the server's group"),
            managed_server(command, URL, port=port, ready_timeout_s=3, **_start_args(tmp_path)),
        ):
            pytest.fail("the block must not run")
    finally:
        squatter.stop()


def test_ownership_check_tells_our_group_from_another(tmp_path: Path, script: str) -> None:
    port = allocate_port()
    with process.running(f"{PY} {script} {port} json", cwd=tmp_path, env=os.environ) as child:
        assert wait_for(lambda: is_listening("127.0.0.1", port))
        assert server.listener_in_group(port, child.pid) is True
        assert server.listener_in_group(port, os.getpgid(0)) is False


def test_a_grandchild_ignoring_sigterm_is_gone_after_the_block(tmp_path: Path, script: str) -> None:
    pid_file = tmp_path / "grandchild.pid"
    ignore = tmp_path / "ignore.py"
    ignore.write_text(IGNORES_TERM)
    # A shell wrapper (like `npx` or `uv run`): the real work happens in grandchildren.
    command = (
        f"{PY} {shlex.quote(str(ignore))} {shlex.quote(str(pid_file))} & "
        f"{PY} {script} {{port}} json; wait"
    )
    with managed_server(
        command, URL, ready_timeout_s=60, stop_grace_s=1, **_start_args(tmp_path)
    ) as srv:
        assert wait_for(lambda: pid_file.is_file() and pid_file.read_text() != "")
        grandchild = int(pid_file.read_text())
        pgid = srv.pid
    assert _group_gone(pgid)
    assert pid_gone(grandchild)
    assert_port_free(srv.port)


def test_keyboard_interrupt_in_the_block_stops_the_server(tmp_path: Path, script: str) -> None:
    seen: dict[str, int] = {}

    def interrupted() -> None:
        with managed_server(
            f"{PY} {script} {{port}} json", URL, ready_timeout_s=60, **_start_args(tmp_path)
        ) as srv:
            seen["pgid"], seen["port"] = srv.pid, srv.port
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    assert _group_gone(seen["pgid"])
    assert_port_free(seen["port"])
    assert not process.live_children()


def test_keyboard_interrupt_while_waiting_stops_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupt(*_args: object, **_kwargs: object) -> server.ProbeResult:
        raise KeyboardInterrupt

    monkeypatch.setattr(server, "probe_mcp", interrupt)
    with (
        pytest.raises(KeyboardInterrupt),
        managed_server(f'{PY} -c "import time; time.sleep(600)"', URL, **_start_args(tmp_path)),
    ):
        pytest.fail("the block must not run")
    assert not process.live_children()


def test_an_exception_in_the_block_stops_the_server(tmp_path: Path, script: str) -> None:
    seen: dict[str, int] = {}

    def failing() -> None:
        with managed_server(
            f"{PY} {script} {{port}} json", URL, ready_timeout_s=60, **_start_args(tmp_path)
        ) as srv:
            seen["pgid"] = srv.pid
            raise RuntimeError("leg crashed")

    with pytest.raises(RuntimeError, match="leg crashed"):
        failing()
    assert _group_gone(seen["pgid"])


# --- a port race, and the server's fate after its leg (issue 12, items 2 and 4) ---------------

SQUAT = """
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen()
open(sys.argv[2], "w").write(sys.argv[1])
time.sleep(600)
"""


def _racing_command(tmp_path: Path, script: str, *, every_time: bool) -> tuple[str, Path]:
    """A server command whose port is taken between tiercheck's check and the server's bind
    (on the first start only, or on every start)."""
    squat = tmp_path / "squat.py"
    squat.write_text(SQUAT)
    taken = tmp_path / "taken"
    seen = tmp_path / "squatted"
    condition = "true" if every_time else f"[ ! -e {shlex.quote(str(taken))} ]"
    command = (
        f"if {condition}; then touch {shlex.quote(str(taken))}; rm -f {shlex.quote(str(seen))}; "
        f"{PY} {shlex.quote(str(squat))} {{port}} {shlex.quote(str(seen))} & "
        f"until [ -s {shlex.quote(str(seen))} ]; do sleep 0.02; done; fi; "
        f"exec {PY} {script} {{port}} json"
    )
    return command, seen


def test_a_port_lost_before_the_bind_is_retried_on_a_fresh_port(
    tmp_path: Path, script: str
) -> None:
    command, seen = _racing_command(tmp_path, script, every_time=False)
    log = tmp_path / "logs" / "server.log"
    with managed_server(command, URL, ready_timeout_s=60, **_start_args(tmp_path)) as srv:
        lost = int(seen.read_text())
        assert srv.port != lost
        assert srv.returncode is None
        assert srv.fate() is None
    assert_port_free(lost)
    assert_port_free(srv.port)
    text = log.read_text()
    assert f"port {lost} was taken by another program (start 1 of 3)" in text
    assert "Address already in use" in text  # the server's own words, kept in its log


def test_a_port_lost_on_every_start_is_a_bounded_failure(tmp_path: Path, script: str) -> None:
    command, _ = _racing_command(tmp_path, script, every_time=True)
    with (
        pytest.raises(ServerStartError, match="could not bind a free port in 2 starts"),
        managed_server(command, URL, ready_timeout_s=60, port_attempts=2, **_start_args(tmp_path)),
    ):
        pytest.fail("the block must not run")
    assert not process.live_children()


def test_an_exit_for_another_reason_is_not_retried(tmp_path: Path) -> None:
    command = f"{PY} -c \"import sys; print('bad config'); sys.exit(3)\""
    log = tmp_path / "logs" / "server.log"
    with (
        pytest.raises(ServerStartError, match="exited with code 3"),
        managed_server(command, URL, ready_timeout_s=60, **_start_args(tmp_path)),
    ):
        pytest.fail("the block must not run")
    assert log.read_text().count("+ ") == 1


def test_the_fate_of_a_server_that_died_names_how_and_its_last_words(
    tmp_path: Path, script: str
) -> None:
    with managed_server(
        f"{PY} {script} {{port}} json", URL, ready_timeout_s=60, **_start_args(tmp_path)
    ) as srv:
        assert srv.fate() is None
        os.kill(srv.pid, 9)
        assert wait_for(lambda: srv.returncode is not None, timeout_s=10)
        fate = srv.fate()
    assert fate is not None
    assert "the server was killed by SIGKILL during the leg" in fate
    assert "serving json" in fate  # the log tail
