"""The client slot wrapper with real processes: the per-scenario limit and a signal reach the
client's whole process group, whatever it traps (these wait out real timeouts)."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from support.procutil import pid_gone, wait_for
from tiercheck.conformance import slots


def test_slot_wrapper_enforces_the_scenario_timeout(tmp_path: Path) -> None:
    script = slots.prepare_slots(tmp_path / "slots")
    sleeper = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(60)'"
    wrapped = slots.wrap_client_command(sleeper, script=script, slots=1, timeout_s=1)
    began = time.monotonic()
    code = subprocess.run(f"{wrapped} http://127.0.0.1:9/x", shell=True, check=False).returncode
    assert code == 124  # "timed out", as timeout(1) says it
    assert time.monotonic() - began < 50


# A client whose shell dies of SIGTERM while its grandchild ignores SIGTERM and never ends: the
# shape that let GNU `timeout` exit without ever sending its SIGKILL (issue 12, item 5).
TRAPPING_CLIENT = """
{py} -c 'import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(120)' {pid_file}
exit $?
"""


def _trapping_client(tmp_path: Path) -> tuple[str, Path]:
    pid_file = tmp_path / "trapper.pid"
    path = tmp_path / "client.sh"
    path.write_text(
        TRAPPING_CLIENT.format(py=shlex.quote(sys.executable), pid_file=shlex.quote(str(pid_file)))
    )
    return f"sh {shlex.quote(str(path))}", pid_file


def test_the_scenario_limit_kills_a_grandchild_that_ignores_sigterm(tmp_path: Path) -> None:
    script = slots.prepare_slots(tmp_path / "slots")
    client, pid_file = _trapping_client(tmp_path)
    wrapped = slots.wrap_client_command(client, script=script, slots=1, timeout_s=1)
    code = subprocess.run(f"{wrapped} http://127.0.0.1:9/x", shell=True, check=False).returncode
    assert code == 124
    assert pid_file.is_file()
    assert wait_for(lambda: pid_gone(int(pid_file.read_text())), timeout_s=10)
    # Its slot is free again: with one slot, the next client starts and ends at once.
    done = subprocess.run(
        f"{slots.wrap_client_command('true', script=script, slots=1, timeout_s=5)} x",
        shell=True,
        check=False,
        timeout=30,
    )
    assert done.returncode == 0


def test_a_signalled_slot_wrapper_stops_its_client_group(tmp_path: Path) -> None:
    script = slots.prepare_slots(tmp_path / "slots")
    client, pid_file = _trapping_client(tmp_path)
    wrapped = slots.wrap_client_command(client, script=script, slots=1, timeout_s=600)
    # As the harness runs it: `sh -c CMD`, which execs the wrapper; the harness stops a client
    # that outlived its own timeout with SIGTERM to that PID.
    proc = subprocess.Popen(["sh", "-c", f"{wrapped} http://127.0.0.1:9/x"])
    try:
        assert wait_for(lambda: pid_file.is_file() and pid_file.read_text() != "", timeout_s=30)
        trapper = int(pid_file.read_text())
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 143
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert wait_for(lambda: pid_gone(trapper), timeout_s=10)


def test_a_slot_wrapper_killed_outright_leaves_no_watchdog(tmp_path: Path) -> None:
    """SIGKILL runs no trap: the watchdog (in a session of its own) must notice by itself and
    go, instead of waiting out the limit to signal a pid that may be another process's."""
    import psutil

    script = slots.prepare_slots(tmp_path / "slots")
    client = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(60)'"
    wrapped = slots.wrap_client_command(client, script=script, slots=1, timeout_s=600)
    proc = subprocess.Popen(["sh", "-c", f"{wrapped} http://127.0.0.1:9/x"])
    watchdogs: list[psutil.Process] = []
    clients: list[int] = []
    try:

        def started() -> bool:
            watchdogs[:] = [
                p
                for p in psutil.process_iter(["cmdline"])
                if "watchdog" in (p.info["cmdline"] or []) and str(proc.pid) in p.info["cmdline"]
            ]
            clients[:] = [
                int(p.name) for p in (script.parent / "run").iterdir() if p.name.isdigit()
            ]
            return bool(watchdogs) and bool(clients)

        assert wait_for(started, timeout_s=30)
        proc.kill()
        proc.wait()
        assert wait_for(lambda: all(pid_gone(w.pid) for w in watchdogs), timeout_s=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for group in clients:  # the client's own session: the kill reached only the wrapper
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
