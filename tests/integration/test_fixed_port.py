"""A server on a fixed port: both revisions are measured, one server after the other, and a
port one of tiercheck's own processes holds is named as ours.

The server is the sample SDK's, behind a small script that always binds one port (chosen free
when the test starts): no `{port}` and no `PORT` reach it, as with a servlet that hard-codes
8080. One revision would not show the collision, so both run, with the probes on (the server
stays up through them) and a client that exits at once.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from support.e2e import BOTH, SAMPLE_BUILD, Session, copy_sample, tier_check
from tiercheck import process
from tiercheck.errors import ServerStartError
from tiercheck.sdk.ports import allocate_port, is_listening
from tiercheck.sdk.server import managed_server, own_listener

#: Always the same port, whatever the command line or the environment says.
FIXED = """\
import runpy, sys
sys.argv = ["server.py", "--port", "{port}", *sys.argv[1:]]
runpy.run_path("server.py", run_name="__main__")
"""


def _registry(path: Path, port: int) -> Path:
    path.write_text(
        "fixed-sdk:\n"
        "  repo: acme/fixed-sdk\n"
        f"  revisions: [{', '.join(repr(r) for r in BOTH)}]\n"
        f"  build: {SAMPLE_BUILD}\n"
        "  server:\n"
        "    command: .venv/bin/python fixed_server.py\n"
        f"    url: http://127.0.0.1:{port}/mcp\n"
        "  client:\n"
        "    command: 'true'\n"
        "  spec_overrides:\n"
        f"    '{BOTH[1]}':\n"
        "      server:\n"
        f"        command: .venv/bin/python fixed_server.py --revision {BOTH[1]}\n",
        encoding="utf-8",
    )
    return path


def test_both_revisions_of_a_fixed_port_server_are_measured(
    session: Session, tmp_path: Path
) -> None:
    port = allocate_port()
    sdk = copy_sample(tmp_path / "fixed-sdk")
    (sdk / "fixed_server.py").write_text(FIXED.replace("{port}", str(port)), encoding="utf-8")
    registry = _registry(tmp_path / "registry.yaml", port)
    env = session.env()
    target = ("--registry", str(registry), "--sdk-path", str(sdk), "--sdk", "fixed-sdk")

    shown = tier_check("show-config", *target, env=env)
    assert shown.returncode == 0, shown.explain()
    turns = (
        "server legs: one at a time, each server stopped before the next one starts: the "
        f"server URL fixes port {port} (no {{port}}) at {', '.join(BOTH)}"
    )
    assert turns in shown.stdout

    out = tmp_path / "out"
    run = tier_check(*target, "--skip-governance", "--output", "json", "--out", str(out), env=env)
    assert run.returncode in (0, 1), run.explain()
    # The run's log says so too.
    assert turns in run.stderr
    for revision in BOTH:
        server = run.doc["revisions"][revision]["server"]
        assert server["state"] == "measured", (revision, server.get("reason"))
        assert run.doc["revisions"][revision]["server_url"] == f"http://127.0.0.1:{port}/mcp"
    assert not is_listening("127.0.0.1", port)


SQUAT = f"{shlex.quote(sys.executable)} -c " + shlex.quote(
    "import socket, sys, time\n"
    "s = socket.socket()\n"
    "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
    "s.bind(('127.0.0.1', int(sys.argv[1])))\n"
    "s.listen()\n"
    "time.sleep(600)\n"
)


def test_a_fixed_port_held_by_our_own_process_names_it(tmp_path: Path) -> None:
    port = allocate_port()
    holder = process.start(
        f"{SQUAT} {port}", cwd=tmp_path, env=process.sdk_environment(), log_path=None
    )
    try:
        assert _wait_listening(port)
        found = own_listener(port)
        assert found is not None
        assert found[0] is holder
        with (
            pytest.raises(ServerStartError) as caught,
            managed_server(
                f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(60)'",
                f"http://127.0.0.1:{port}/mcp",
                cwd=tmp_path,
                env={},
                log_path=tmp_path / "server.log",
                ready_timeout_s=5,
            ),
        ):
            pass
    finally:
        holder.stop(term_grace_s=1)
    message = caught.value.message
    assert f"port {port} on 127.0.0.1 is in use by tiercheck's own process " in message
    assert "started by this run" in message
    assert "--sequential" in message


def _wait_listening(port: int, timeout_s: float = 10.0) -> bool:
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if is_listening("127.0.0.1", port):
            return True
        time.sleep(0.05)
    return False
