"""One scenario's Python client, forked from the warm zygote instead of started cold.

This file is a program the harness runs (through the slot wrapper), never imported by tiercheck:

    PYTHON -I -S warm_launcher.py SOCKET RUN_DIR CLIENT_PYTHON SCRIPT [ARGS...]

It hands the zygote listening on SOCKET (`warm_zygote.py`) its argv (`SCRIPT ARGS`), working
directory, environment and standard descriptors, then waits for the client's exit status and
exits with it (a client killed by a signal kills the launcher with the same signal). SIGTERM,
SIGINT, SIGHUP and SIGUSR1 are passed on to the client's process group. While the client runs,
`RUN_DIR/<launcher's group>.<client's group>` tells the admission controller which group holds
the client's CPU (RUN_DIR `-`: no registration).

When the zygote cannot be reached, or goes away before forking, the launcher becomes the cold
client: `exec CLIENT_PYTHON SCRIPT ARGS`, as the command was configured. Stdlib only.
"""

from __future__ import annotations

import array
import contextlib
import json
import os
import signal
import socket
import struct
import sys
from typing import BinaryIO, NoReturn

_HEADER = struct.Struct("!I")
_FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1)


def _cold(python: str, script: str, args: list[str]) -> NoReturn:
    os.execvp(python, [python, script, *args])  # noqa: S606 - the configured command, cold


def _exit_with(status: int) -> NoReturn:
    if status < 0:
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    os._exit(status & 0xFF)


def _ask(conn: socket.socket, answers: BinaryIO, socket_path: str, argv: list[str]) -> bytes:
    """Ask the zygote at `socket_path` to start `argv` on our standard streams, here, with our
    environment; its first answer line (the client's pid), or b"" when no zygote answered."""
    try:
        conn.connect(socket_path)
        body = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
        fds = array.array("i", [0, 1, 2])
        conn.sendmsg(
            [_HEADER.pack(len(body))], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds.tobytes())]
        )
        conn.sendall(body)
        return answers.readline()
    except OSError:
        return b""


def _await_status(answers: BinaryIO, run_dir: str | None, pid: int) -> bytes:
    """The zygote's last answer line (the client's exit status; b"" when the zygote went away),
    with a mark in `run_dir` naming our group and the client while it runs."""
    mark = None if run_dir is None else os.path.join(run_dir, f"{os.getpgrp()}.{pid}")
    if mark is not None:
        try:
            os.close(os.open(mark, os.O_WRONLY | os.O_CREAT, 0o644))
        except OSError:
            mark = None
    try:
        return answers.readline()
    finally:
        if mark is not None:
            with contextlib.suppress(OSError):
                os.unlink(mark)


def main(argv: list[str]) -> int:
    """Run one client through the zygote; the launcher's exit status is the client's."""
    if len(argv) < 5:
        sys.stderr.write("usage: warm_launcher.py SOCKET RUN_DIR PYTHON SCRIPT [ARGS...]\n")
        return 2
    socket_path, run_dir, python, script, *args = argv[1:]
    # Forwarding is in place before the client exists: a signal that comes before its pid is
    # known is held, then passed on (or, without a zygote, ends this launcher as it would have
    # ended the client).
    client: list[int] = []
    held: list[int] = []

    def forward(sig: int, _frame: object) -> None:
        if not client:
            held.append(sig)
            return
        with contextlib.suppress(OSError):
            os.killpg(client[0], sig)

    for sig in _FORWARDED:
        signal.signal(sig, forward)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    answers = conn.makefile("rb")
    first = _ask(conn, answers, socket_path, [script, *args])
    if not first:
        conn.close()
        if held:
            _exit_with(-held[0])
        for sig in _FORWARDED:
            signal.signal(sig, signal.SIG_DFL)
        _cold(python, script, args)
    pid = int(json.loads(first)["pid"])
    client.append(pid)
    for early in held:
        forward(early, None)
    last = _await_status(answers, None if run_dir == "-" else run_dir, pid)
    if not last:  # the zygote went away: its children went with it
        return 1
    _exit_with(int(json.loads(last)["status"]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
