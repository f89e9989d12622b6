"""The SDK's conformance server, started on a free port and proven ready before any test runs.

The official tool starts the server on the hard-coded port 3000 and calls it ready as soon as
*anything* answers an HTTP GET there — a stale server from an earlier run, or any other program,
passes. Here the port is allocated (or taken from the URL for legacy fixed-port configurations),
refused if something already listens on it, and readiness means: our process is alive, the URL
answers an MCP `initialize` with a JSON-RPC response, and the listening socket belongs to our
process group. A port found taken names its holder when that is a process tiercheck itself
started (`own_listener`). A server that dies during start-up is reported within about a second
with its last output lines. Teardown stops the whole process group on every way out of the block.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx
import psutil

from tiercheck import process
from tiercheck.errors import ServerStartError
from tiercheck.revisions import revisions_on
from tiercheck.sdk.ports import (
    PORT_PLACEHOLDER,
    allocate_port,
    is_listening,
    port_of_url,
    substitute_port,
)

if TYPE_CHECKING:
    from tiercheck.process import Child

__all__ = [
    "DEFAULT_READY_TIMEOUT_S",
    "PORT_ATTEMPTS",
    "ManagedServer",
    "ProbeResult",
    "listener_in_group",
    "managed_server",
    "own_listener",
    "probe_mcp",
    "probe_protocol_version",
]

#: Seconds the server gets to become ready unless the SDK's configuration says otherwise.
DEFAULT_READY_TIMEOUT_S = 30.0
#: Each readiness request is cut off after this long, so a hung server cannot stall the wait.
PROBE_TIMEOUT_S = 1.0
#: A running server's liveness probe: how long its one `initialize` may take.
LIVENESS_TIMEOUT_S = 10.0
#: Pause between readiness probes (also bounds how late an early exit is noticed).
POLL_INTERVAL_S = 0.2
#: Starts on fresh ports when an allocated port is lost to another process before the bind.
PORT_ATTEMPTS = 3
#: Enough of a reply to hold an initialize result; a longer body is not a readiness answer.
_MAX_BODY_BYTES = 256 * 1024
_PROBE_ID = 1


@dataclass(frozen=True)
class ManagedServer:
    """A running SDK server owned by `managed_server`: where it listens and when it got ready."""

    url: str
    port: int
    command: str
    log_path: Path
    ready_after_s: float
    child: Child = field(repr=False, compare=False)
    #: The revision its readiness `initialize` asked for; `answers()` asks the same.
    protocol_version: str

    @property
    def pid(self) -> int:
        """PID of the server's process-group leader (the shell or launcher we started)."""
        return self.child.pid

    @property
    def returncode(self) -> int | None:
        """The exit code if the server has exited (it should not, during a leg), else None."""
        return self.child.poll()

    def fate(self) -> str | None:
        """None while the server runs; once it has exited, how, with its last output lines.

        Asked after each leg: a server that died during its leg makes the leg's failures
        meaningless (they were never the SDK's answers).
        """
        returncode = self.returncode
        if returncode is None:
            return None
        log_tail = process.tail(self.log_path)
        summary = f"the server {_describe_exit(returncode)} during the leg (log: {self.log_path})"
        return f"{summary}:\n{log_tail}" if log_tail else summary

    def answers(self) -> ProbeResult:
        """Prove readiness again with the request that proved it at start (a real `initialize`).

        A process that lives on proves nothing: a wrapper (`sh -c`, `npm run`, a supervisor)
        can outlive the server it started, and a deadlocked server is alive too. One try, with
        a limit (`LIVENESS_TIMEOUT_S`) far above what an `initialize` on loopback takes on a
        loaded machine: a second try would widen the window in which a restarted server
        answers for scenarios that failed while it was down. The detail says what was sent
        and what came back.
        """
        timeout = httpx.Timeout(LIVENESS_TIMEOUT_S)
        sent = f"POST initialize (protocolVersion {self.protocol_version}) to {self.url}"
        with httpx.Client(timeout=timeout, trust_env=False, follow_redirects=False) as client:
            verdict = probe_mcp(client, self.url, self.protocol_version)
        return ProbeResult(verdict.ok, f"{sent}: {verdict.detail}")


@dataclass(frozen=True)
class ProbeResult:
    """One readiness probe: whether the URL answered MCP, and what it did otherwise."""

    ok: bool
    detail: str


def _initialize_request(protocol_version: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": _PROBE_ID,
        "method": "initialize",
        "params": {
            "protocolVersion": protocol_version,
            "capabilities": {},
            "clientInfo": {"name": "tiercheck-readiness", "version": "1"},
        },
    }


def _is_jsonrpc_response(payload: object) -> bool:
    if not isinstance(payload, dict) or payload.get("jsonrpc") != "2.0":
        return False
    if payload.get("id") not in (_PROBE_ID, None):
        return False
    if "result" in payload:
        return True
    error = payload.get("error")
    return isinstance(error, dict) and isinstance(error.get("code"), int)


def _first_sse_data(response: httpx.Response) -> str:
    """The data of the first SSE event that has any (its `data:` lines joined).

    Events with empty data are skipped: a resumable stream opens with a priming event that
    carries only an id (SEP-1699; python-sdk sends one before every response).
    """
    data: list[str] = []
    budget = _MAX_BODY_BYTES
    deadline = time.monotonic() + 2 * PROBE_TIMEOUT_S  # keep-alive comments must not stall us
    for line in response.iter_lines():
        budget -= len(line) + 1
        if line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif not line and data:
            if "".join(data).strip():
                break
            data = []  # an event without data: keep reading
        if budget < 0 or time.monotonic() > deadline:
            break
    return "\n".join(data)


def _bounded_body(response: httpx.Response) -> str:
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > _MAX_BODY_BYTES:
            break
    return b"".join(chunks).decode("utf-8", errors="replace")


def probe_protocol_version() -> str:
    """The revision the readiness `initialize` asks for: the newest on the stateful wire. Every
    revision's server must answer it (with a result, or a JSON-RPC error on a server that
    speaks the stateless wire alone)."""
    return revisions_on("stateful")[-1]


def probe_mcp(client: httpx.Client, url: str, protocol_version: str | None = None) -> ProbeResult:
    """POST an MCP `initialize` to `url`; ok only for a JSON-RPC result or error in the reply.

    The reply may be plain JSON or an SSE stream (its first event's data is used). A bare 404,
    an HTML page or any other non-JSON-RPC body is not ok. A session the server opened for the
    probe is closed again (DELETE with its Mcp-Session-Id), best effort.
    """
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
    }
    body = json.dumps(_initialize_request(protocol_version or probe_protocol_version()))
    try:
        with client.stream("POST", url, content=body, headers=headers) as response:
            content_type = response.headers.get("content-type", "")
            if "text/event-stream" in content_type:
                text = _first_sse_data(response)
            else:
                text = _bounded_body(response)
            status = response.status_code
            session = response.headers.get("mcp-session-id")
    except httpx.TimeoutException:
        limit = client.timeout.read or PROBE_TIMEOUT_S
        return ProbeResult(False, f"{url} did not answer within {limit:g} s")
    except httpx.HTTPError as exc:
        return ProbeResult(False, f"{url} is not answering ({type(exc).__name__})")
    try:
        payload = json.loads(text)
    except ValueError:
        payload = None
    if not _is_jsonrpc_response(payload):
        kind = content_type.split(";")[0].strip() or "no content type"
        return ProbeResult(
            False, f"{url} answered HTTP {status} ({kind}) but not with a JSON-RPC response"
        )
    if session:
        with suppress(httpx.HTTPError):
            client.delete(url, headers={"Mcp-Session-Id": session})
    return ProbeResult(True, f"{url} answered initialize with HTTP {status}")


def _listens_on(connection: Any, port: int) -> bool:
    # laddr is an (ip, port) pair, or an empty tuple for a socket without an address.
    return bool(
        connection.status == psutil.CONN_LISTEN and connection.laddr and connection.laddr[1] == port
    )


def _group_listens_directly(port: int, pgid: int) -> bool | None:
    """Look at the group leader and its descendants only (cheap); None if psutil cannot see."""
    try:
        leader = psutil.Process(pgid)
        members = [leader, *leader.children(recursive=True)]
    except psutil.Error:
        return None
    for member in members:
        try:
            # A descendant may have moved to a group of its own (a tool that also starts
            # children with start_new_session); only the group counts.
            if os.getpgid(member.pid) != pgid:
                continue
            connections = member.net_connections(kind="tcp")
        except (ProcessLookupError, PermissionError):
            continue
        except psutil.NoSuchProcess:
            continue
        except psutil.Error:
            return None
        if any(_listens_on(c, port) for c in connections):
            return True
    return False


def listener_in_group(port: int, pgid: int) -> bool | None:
    """Whether the socket listening on `port` belongs to a process of group `pgid`.

    True: one of ours listens. False: only processes outside the group do. None: psutil cannot
    tell on this platform (the caller then relies on the MCP answer alone).
    """
    direct = _group_listens_directly(port, pgid)
    if direct:
        return True
    # A daemonising server leaves its parent's tree but stays in the group: ask system-wide.
    try:
        connections = psutil.net_connections(kind="tcp")
    except psutil.Error:
        return direct
    owners = {c.pid for c in connections if _listens_on(c, port)}
    if not owners:
        return direct
    for pid in owners:
        if pid is None:  # another user's process: certainly not ours
            continue
        with suppress(ProcessLookupError, PermissionError):
            if os.getpgid(pid) == pgid:
                return True
    return False


def _describe_exit(returncode: int) -> str:
    if returncode < 0:
        with suppress(ValueError):
            return f"was killed by {signal.Signals(-returncode).name}"
        return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no output"


def _wait_ready(
    child: Child, url: str, port: int, *, timeout_s: float, log_path: Path, protocol_version: str
) -> float:
    """Poll until the server is ready; return seconds since start, or raise ServerStartError."""
    deadline = child.started_at + timeout_s
    last = "nothing answered yet"
    timeout = httpx.Timeout(PROBE_TIMEOUT_S)
    # trust_env=False: a loopback probe must never go through HTTP(S)_PROXY.
    with httpx.Client(timeout=timeout, trust_env=False, follow_redirects=False) as client:
        while True:
            returncode = child.poll()
            if returncode is not None:
                log_tail = process.tail(log_path)
                msg = (
                    f"server {_describe_exit(returncode)} during start-up "
                    f"(last output: {_last_line(log_tail)}; log: {log_path})"
                )
                raise ServerStartError(msg, log_tail=log_tail)
            verdict = probe_mcp(client, url, protocol_version)
            if verdict.ok:
                if listener_in_group(port, child.pid) is not False:
                    return time.monotonic() - child.started_at
                last = f"{url} answered MCP, but from a process outside the server's group"
            else:
                last = verdict.detail
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                log_tail = process.tail(log_path)
                msg = f"server not ready after {timeout_s:g} s: {last} (log: {log_path})"
                raise ServerStartError(msg, log_tail=log_tail)
            time.sleep(min(POLL_INTERVAL_S, remaining))


def _choose_port(url: str, port: int | None) -> int:
    if port is not None:
        return port
    if PORT_PLACEHOLDER in url:
        return allocate_port()
    # A fixed-port configuration (every official one says 3000): use the URL's own port.
    fixed = port_of_url(url)
    if fixed is None:
        msg = f"server URL {url!r} names no host and port"
        raise ServerStartError(msg)
    return fixed


class _PortLostError(ServerStartError):
    """The server could not bind its allocated port: another process took it first."""


# What servers print when their port is taken (Python, Node, Go, Rust, Java, .NET wordings).
_BIND_FAILURE = re.compile(
    r"address already in use|EADDRINUSE|errno 98|os error 98|bind(?:Exception)?:? .*in use"
    r"|only one usage of each socket address",
    re.IGNORECASE,
)


def _log_size(log_path: Path) -> int:
    try:
        return log_path.stat().st_size
    except OSError:
        return 0


def _log_since(log_path: Path, offset: int) -> str:
    try:
        with log_path.open("rb") as log:
            log.seek(offset)
            return log.read(256 * 1024).decode("utf-8", errors="replace")
    except OSError:
        return ""


def own_listener(port: int) -> tuple[Child, int] | None:
    """The child this process started whose group or tree listens on TCP `port`, with the pid
    of the listening process; None when no process of ours does (or psutil cannot see).

    Only our own children are looked at (psutil reads each one's sockets: /proc/PID/fd against
    /proc/net/tcp on Linux), never the machine's other processes.
    """
    for child in process.live_children():
        try:
            leader = psutil.Process(child.pid)
            members = [leader, *leader.children(recursive=True)]
        except psutil.Error:
            continue
        for member in members:
            try:
                connections = member.net_connections(kind="tcp")
            except (psutil.Error, OSError):
                continue
            if any(_listens_on(c, port) for c in connections):
                return child, member.pid
    return None


def _taken(host: str, port: int) -> str:
    """Why the server is not started on a port something listens on, naming the holder when it
    is one of our own processes."""
    found = own_listener(port)
    if found is None:
        return (
            f"port {port} on {host} is already in use by another program; "
            "refusing to start the server (a stale server would be tested instead)"
        )
    child, pid = found
    command = child.command if len(child.command) <= 120 else child.command[:117] + "..."
    log = f"; log: {child.log_path}" if child.log_path is not None else ""
    return (
        f"port {port} on {host} is in use by tiercheck's own process {pid} "
        f"(started by this run: {command}{log}); refusing to start the server beside it; "
        "run with --sequential so that no other leg runs while a server starts"
    )


def _refuse_taken_ports(addresses: Collection[tuple[str, int]], *, allocated: bool) -> None:
    """Refuse to start where something already listens: a stale server would be tested in our
    server's place. _PortLostError for a port we allocated (another start may find a free one),
    ServerStartError for one the URL or the caller fixed."""
    for host, port in sorted(addresses):
        if is_listening(host, port):
            raise (_PortLostError if allocated else ServerStartError)(_taken(host, port))


def _start_ready(
    command: str,
    url: str,
    chosen: int,
    *,
    allocated: bool,
    cwd: Path,
    env: Mapping[str, str],
    log_path: Path,
    ready_timeout_s: float,
    allow_env: Collection[str],
    protocol_version: str,
    stop_grace_s: float,
) -> ManagedServer:
    """One start on port `chosen`; _PortLostError when an allocated port was lost to a race."""
    real_command = substitute_port(command, chosen)
    real_url = substitute_port(url, chosen)
    host = urlsplit(real_url).hostname
    url_port = port_of_url(real_url)
    if host is None or url_port is None:
        msg = f"server URL {real_url!r} names no host and port"
        raise ServerStartError(msg)
    _refuse_taken_ports({(host, url_port), ("127.0.0.1", chosen)}, allocated=allocated)
    extra = {name: substitute_port(value, chosen) for name, value in env.items()}
    extra["PORT"] = str(chosen)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    offset = _log_size(log_path)
    with log_path.open("a", encoding="utf-8") as log:
        log.write(f"+ {real_command}\n")
    child = process.start(
        real_command,
        cwd=cwd,
        env=process.sdk_environment(extra, allow=allow_env),
        log_path=log_path,
    )
    try:
        ready_after = _wait_ready(
            child,
            real_url,
            url_port,
            timeout_s=ready_timeout_s,
            log_path=log_path,
            protocol_version=protocol_version,
        )
    except ServerStartError as exc:
        child.stop(term_grace_s=stop_grace_s)
        # Our group is gone now: whatever still listens on the port is another program's, and
        # a bind failure in this attempt's output says the same in the server's words.
        lost = child.poll() is not None and (
            is_listening("127.0.0.1", chosen)
            or bool(_BIND_FAILURE.search(_log_since(log_path, offset)))
        )
        if allocated and lost:
            raise _PortLostError(exc.message, log_tail=exc.log_tail) from exc
        raise
    except BaseException:
        child.stop(term_grace_s=stop_grace_s)
        raise
    return ManagedServer(
        url=real_url,
        port=url_port,
        command=real_command,
        log_path=log_path,
        ready_after_s=ready_after,
        child=child,
        protocol_version=protocol_version,
    )


@contextmanager
def managed_server(
    command: str,
    url: str,
    *,
    cwd: Path,
    env: Mapping[str, str],
    log_path: Path,
    ready_timeout_s: float = DEFAULT_READY_TIMEOUT_S,
    port: int | None = None,
    allow_env: Collection[str] = (),
    protocol_version: str | None = None,
    stop_grace_s: float = process.TERM_GRACE_S,
    port_attempts: int = PORT_ATTEMPTS,
) -> Iterator[ManagedServer]:
    """Start the SDK's server, wait until it is ready, yield it, and stop its process group.

    The port is `port`, else a free one on 127.0.0.1 when `url` contains `{port}`, else the
    URL's own. `{port}` is substituted in the command, the URL and `env` values, and `PORT` is
    exported. `env` is the SDK's configured environment, added to ours minus secret-named
    variables (`allow_env` lets named ones through). Output goes to `log_path`.

    An allocated port is released before the server binds it, so another process can take it
    in between. When that happens (the port is found taken before the start, or the server
    exits during start-up while another program listens there or after printing a bind
    failure), the server is started again on a fresh port, up to `port_attempts` starts in all.

    Raises ServerStartError (one line; `log_tail` attached) when something already listens on
    a port given or fixed by the URL (or on every allocated one), when the server exits during
    start-up (noticed within about a second), or when it has not answered MCP from our own
    process group within `ready_timeout_s`. On leaving the block by any path — return,
    exception, KeyboardInterrupt — the group gets SIGTERM, then SIGKILL after `stop_grace_s`.
    """
    allocated = port is None and PORT_PLACEHOLDER in url
    attempts = max(1, port_attempts) if allocated else 1
    lost: list[int] = []
    for attempt in range(1, attempts + 1):
        chosen = _choose_port(url, port)
        try:
            server = _start_ready(
                command,
                url,
                chosen,
                allocated=allocated,
                cwd=cwd,
                env=env,
                log_path=log_path,
                ready_timeout_s=ready_timeout_s,
                allow_env=allow_env,
                protocol_version=protocol_version or probe_protocol_version(),
                stop_grace_s=stop_grace_s,
            )
        except _PortLostError as exc:
            lost.append(chosen)
            with log_path.open("a", encoding="utf-8") as log:
                then = "retrying on a fresh port" if attempt < attempts else "giving up"
                log.write(
                    f"tiercheck: port {chosen} was taken by another program "
                    f"(start {attempt} of {attempts}); {then}\n"
                )
            if attempt == attempts:
                ports = ", ".join(str(p) for p in lost)
                msg = (
                    f"server could not bind a free port in {attempts} starts "
                    f"(ports {ports} were taken): {exc.message}"
                )
                raise ServerStartError(msg, log_tail=exc.log_tail) from exc
            continue
        break
    try:
        yield server
    finally:
        server.child.stop(term_grace_s=stop_grace_s)
