"""Reading an installed harness release: the answers `referee.bundle` reads.

Its own CLI is asked what it lists (`list --server`, `--client`, `--authorization`) and which
flags it takes (`--help` of the program, `server`, `client`, `list`); its requirement sets are
read from `requirements/`; its code is scanned for the checks each listed scenario can emit
(`referee.jsscan`); and at each set it ships it is run once against a recorder of ours on
127.0.0.1, which keeps the first request it sends and answers nothing useful: that request
(`initialize` or not, and the version it names) is the wire the harness speaks at that set.
The harness is stopped as soon as the request came, or after `first_request_s`.

Every process is started through `tiercheck.process`, with the environment an SDK gets
(secrets withheld). What the bundle prints is kept as text and read by `referee.bundle`.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Final

from tiercheck import process
from tiercheck.config.safeload import read_text
from tiercheck.conformance.harness import Harness
from tiercheck.errors import ProcessError
from tiercheck.referee.bundle import COMMANDS, LISTED_LEGS, Answers, FirstRequest, read_bundle
from tiercheck.referee.jsscan import scan_checks
from tiercheck.revisions import LEGS, harness_requirements

__all__ = ["ask_fit", "harvest"]

#: Seconds one `list` or `--help` may take.
ASK_TIMEOUT_S: Final = 60.0
#: Seconds to wait for the harness's first request at a set.
FIRST_REQUEST_S: Final = 60.0
#: How many harness processes run at once while a release is read.
_AT_ONCE: Final = 3
#: The most of a request body kept (the method and version are at its start).
_BODY_LIMIT: Final = 64 * 1024


def _ask(harness: Harness, *args: str) -> str | None:
    """What `conformance ARGS` printed, or None when it failed."""
    env = process.sdk_environment({})
    try:
        result = process.capture(harness.argv(*args), env=env, timeout_s=ASK_TIMEOUT_S)
    except ProcessError:
        return None
    return result.stdout if result.returncode == 0 else None


class _Recorder(BaseHTTPRequestHandler):
    """Keeps the first POST it is sent; answers every request 400 with no body."""

    first: FirstRequest | None = None
    came = threading.Event()

    def _refuse(self) -> None:
        self.send_response(400)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(min(max(length, 0), _BODY_LIMIT))
        if not type(self).came.is_set():
            type(self).first = _first_request(body, self.headers.get("MCP-Protocol-Version"))
            type(self).came.set()
        self._refuse()

    def do_GET(self) -> None:
        self._refuse()

    def do_DELETE(self) -> None:
        self._refuse()

    def log_message(self, format: str, *args: object) -> None:
        return


def _first_request(body: bytes, header: str | None) -> FirstRequest:
    try:
        message = json.loads(body.decode("utf-8", errors="replace"))
    except ValueError:
        return FirstRequest(None, header)
    if not isinstance(message, dict):
        return FirstRequest(None, header)
    method = message.get("method")
    params = message.get("params")
    version = params.get("protocolVersion") if isinstance(params, dict) else None
    return FirstRequest(
        method if isinstance(method, str) else None,
        version if isinstance(version, str) else header,
    )


@contextmanager
def _recorder() -> Iterator[tuple[str, type[_Recorder]]]:
    handler = type("Recorder", (_Recorder,), {"first": None, "came": threading.Event()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="referee-recorder", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp", handler
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _wire(harness: Harness, name: str, timeout_s: float) -> FirstRequest:
    """The first request `server --requirements NAME` sends to a recorder of ours."""
    with _recorder() as (url, handler), tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        argv = harness.argv("server", "--url", url, "--requirements", name, "-o", str(out / "r"))
        env = process.sdk_environment({})
        with process.running(argv, cwd=out, env=env, log_path=out / "harness.log") as child:
            deadline = time.monotonic() + timeout_s
            while not handler.came.wait(0.05):
                if child.poll() is not None or time.monotonic() > deadline:
                    break
        return handler.first or FirstRequest(None)


def harvest(harness: Harness, *, first_request_s: float = FIRST_REQUEST_S) -> Answers:
    """The answers of an installed release (see the module's docstring).

    The harness is asked its questions a few at a time (each is a Node start of a second or
    more), and its code is scanned meanwhile."""
    folder = harness.root / "requirements"
    sets = {
        path.stem: read_text(path, what="a requirement set")
        for path in sorted(folder.glob("*.yaml"))
    }
    with ThreadPoolExecutor(max_workers=_AT_ONCE, thread_name_prefix="referee-ask") as pool:
        listing = {leg: pool.submit(_ask, harness, "list", f"--{leg}") for leg in LISTED_LEGS}
        help_of = {
            cmd: pool.submit(_ask, harness, *([cmd] if cmd else []), "--help") for cmd in COMMANDS
        }
        wire_of = {name: pool.submit(_wire, harness, name, first_request_s) for name in sets}
        source = read_text(harness.cli_js, what="the harness bundle")
        listings: dict[str, str] = {
            leg: text for leg, job in listing.items() if (text := job.result())
        }
        listed = read_bundle(Answers(harness.version, listings=listings)).scenarios
        checks = scan_checks(source, [name for leg in listed.values() for name in leg])
        helps = {cmd: text for cmd, job in help_of.items() if (text := job.result()) is not None}
        first_requests = {name: job.result() for name, job in wire_of.items()}
    return Answers(harness.version, sets, listings, helps, first_requests, checks)


def ask_fit(
    harness: Harness, revisions: Sequence[str], *, first_request_s: float = FIRST_REQUEST_S
) -> Answers:
    """The answers `referee.capability.fit` reads for `revisions`, and no more: the flags of
    `server` and `client`, the sets the package ships, what it lists per leg, and the first
    request it sends at each set those revisions run (only when `server` takes
    `--requirements`; a release that does not would refuse it)."""
    folder = harness.root / "requirements"
    sets = {
        path.stem: read_text(path, what="a requirement set")
        for path in sorted(folder.glob("*.yaml"))
    }
    with ThreadPoolExecutor(max_workers=_AT_ONCE, thread_name_prefix="referee-fit") as pool:
        help_of = {cmd: pool.submit(_ask, harness, cmd, "--help") for cmd in ("server", "client")}
        listing = {leg: pool.submit(_ask, harness, "list", f"--{leg}") for leg in LEGS}
        helps = {cmd: text for cmd, job in help_of.items() if (text := job.result()) is not None}
        takes = read_bundle(Answers(harness.version, helps=helps)).flags.get("server", ())
        wanted = dict.fromkeys(harness_requirements(r) for r in revisions)
        wire_of = {
            name: pool.submit(_wire, harness, name, first_request_s)
            for name in wanted
            if name in sets and "--requirements" in takes
        }
        listings: dict[str, str] = {
            leg: text for leg, job in listing.items() if (text := job.result())
        }
        first_requests = {name: job.result() for name, job in wire_of.items()}
    return Answers(harness.version, sets, listings, helps, first_requests)
