"""Bounding the client leg's concurrency without touching the harness.

The harness starts one client process per scenario, all at once: on a 2-core machine that is
~40 Python or Node processes competing for CPU and holding gigabytes of memory, for no gain in
wall time when client start-up is CPU-bound. We cannot change the harness, so we wrap the SDK's
client command: each wrapped start first takes a slot (a `flock` on one of the lock files,
whichever frees first) and only then starts the real client. A waiting client is a shell and
one blocked `flock` (a few megabytes, no CPU): the harness's shell execs the wrapper, which
holds the slot. All legs of the assessment share one slot directory.

How many slots are open is the directory's `limit` file, which `conformance.admission` sets
from the CPU the running clients use (many light clients, few heavy ones), never above the
wrapper's SLOTS argument (the hard cap). Without a limit file, SLOTS clients run at once. Each
running client is registered as `run/<process group>` so that its CPU can be measured.

The harness's per-scenario timeout would count the time spent waiting for a slot, so the leg
passes the harness a generous timeout and the wrapper applies the real per-scenario limit
itself, once the client actually starts: the client runs in a process group of its own, and at
the limit (or when the wrapper is signalled, or when the client's leader exits) the whole group
gets SIGTERM, then SIGKILL after five seconds, whatever its members trap.
"""

from __future__ import annotations

import math
import shlex
from pathlib import Path

from tiercheck import durable

__all__ = [
    "SHARERS_FILE",
    "SLOT_SCRIPT",
    "harness_timeout_ms",
    "prepare_slots",
    "share_slots",
    "sharers",
    "wrap_client_command",
]

#: In a slot directory shared by several runs (a matrix's rows): how many runs share it.
SHARERS_FILE = "sharers"

SLOT_SCRIPT = r"""#!/bin/sh
# tiercheck client slot: run the SDK's conformance client once a slot is free, for at most
# TIMEOUT_S seconds, and leave nothing of it running afterwards.
# usage: slot.sh SLOT_DIR SLOTS TIMEOUT_S COMMAND [ARGS...]
# COMMAND is the SDK's client command as configured (a shell string); the harness appends the
# scenario's mock server URL, which arrives here in ARGS.
dir=$1
slots=$2
limit=$3
cmd=$4
shift 4
client=
watchdog=
stop_client() {
  if [ -n "$client" ]; then
    kill -TERM -"$client" 2>/dev/null
    n=0
    while kill -0 -"$client" 2>/dev/null && [ "$n" -lt 50 ]; do
      sleep 0.1
      n=$((n + 1))
    done
    kill -KILL -"$client" 2>/dev/null
    rm -f "$dir/run/$client" "$dir/run/$client".*
  fi
  [ -n "$watchdog" ] && kill -KILL -"$watchdog" 2>/dev/null
}
# The harness stops a client by signalling this shell (the harness's `sh -c` execs it).
trap 'stop_client; exit 124' USR1
trap 'stop_client; exit 143' TERM INT HUP
# Wait in line behind the gate; the one at the gate takes whichever slot frees first, so no
# client waits behind a slow one while another slot is idle. It tries every slot once, then
# waits on one slot at a time for a tenth of a second (the kernel wakes it when that slot
# frees) and moves to the next: one waiter polling ten times a second, not every waiter. A
# slot's lock belongs to this shell's descriptor 9 until the shell exits, so a killed
# client's slot is never lost.
exec 8>"$dir/gate"
flock 8
n=0
while :; do
  # How many may run now: the measured limit when one is set (conformance/admission.py),
  # never more than SLOTS (the hard cap).
  lim=$slots
  [ -r "$dir/limit" ] && read -r lim < "$dir/limit"
  case $lim in '' | *[!0-9]*) lim=$slots ;; esac
  [ "$lim" -gt "$slots" ] && lim=$slots
  [ "$lim" -lt 1 ] && lim=1
  exec 9>"$dir/slot.$((n % lim))"
  if [ "$n" -lt "$lim" ]; then
    flock -n 9 && break
  else
    flock -w 0.1 9 && break
  fi
  n=$((n + 1))
done
exec 8>&-
# The client gets a session, and so a process group, of its own: the whole group is stopped,
# whatever its members trap. (Not GNU timeout: it exits as soon as its direct child dies, so a
# grandchild that ignores SIGTERM never got the SIGKILL.) A background job of a
# non-interactive shell is not a group leader, so setsid needs no fork and $! is the group id.
# Neither it nor the watchdog inherits the slot's descriptor: only this shell holds the slot.
setsid sh -c "$cmd \"\$@\"" client "$@" 9>&- &
client=$!
# Registered for the admission controller, which measures the group's CPU from /proc.
: 2>/dev/null >"$dir/run/$client"
# The limit: a watchdog in a group of its own signals this shell when the time is up. It
# counts the seconds while this shell lives, so a shell killed outright (SIGKILL, no trap)
# leaves no watchdog behind to signal a pid that may be another process's by then.
setsid sh -c 'n=0
while [ "$n" -lt "$1" ] && kill -0 "$2" 2>/dev/null; do sleep 1; n=$((n + 1)); done
kill -0 "$2" 2>/dev/null && kill -USR1 "$2"' \
  watchdog "$limit" "$$" </dev/null >/dev/null 2>&1 9>&- &
watchdog=$!
wait "$client"
status=$?
# The client's leader is done: stop whatever it left in its group, and the watchdog.
stop_client
exit "$status"
"""


def prepare_slots(slot_dir: Path) -> Path:
    """Create the slot directory and the wrapper script in it; returns the script's path.

    Several runs may share the directory (the matrix's rows): a script already in place is
    left alone, and a new one is written beside it and renamed over it, so a client starting
    at that moment never reads half a script.
    """
    slot_dir.mkdir(parents=True, exist_ok=True)
    (slot_dir / "run").mkdir(exist_ok=True)
    script = slot_dir / "slot.sh"
    try:
        if script.read_text(encoding="utf-8") == SLOT_SCRIPT:
            return script
    except (OSError, UnicodeDecodeError):
        pass
    return durable.write_text(script, SLOT_SCRIPT, mode=0o755)


def share_slots(slot_dir: Path, runs: int) -> Path:
    """Prepare `slot_dir` for `runs` runs sharing its slots; returns the script's path."""
    script = prepare_slots(slot_dir)
    (slot_dir / SHARERS_FILE).write_text(f"{max(1, runs)}\n", encoding="utf-8")
    return script


def sharers(slot_dir: Path) -> int:
    """How many runs share `slot_dir` (1 when it says nothing readable)."""
    try:
        return max(1, int((slot_dir / SHARERS_FILE).read_text(encoding="utf-8").strip()))
    except (OSError, ValueError):
        return 1


def wrap_client_command(command: str, *, script: Path, slots: int, timeout_s: float) -> str:
    """The client command the harness should run so that at most `slots` clients run at once."""
    limit = max(1, math.ceil(timeout_s))
    # `exec`: the harness's own `sh -c` becomes the wrapper instead of waiting for it.
    return " ".join(
        [
            "exec",
            "sh",
            shlex.quote(str(script)),
            shlex.quote(str(script.parent)),
            str(slots),
            str(limit),
            shlex.quote(command),
        ]
    )


def harness_timeout_ms(*, scenario_timeout_s: float, queued_clients: int, slots: int) -> int:
    """A harness per-scenario timeout that covers the wait for a slot.

    In the worst case a client waits for every client queued before it, each running to its own
    limit; the wrapper still enforces `scenario_timeout_s` on the client itself.
    """
    rounds = max(1, math.ceil(queued_clients / max(1, slots)))
    return int((scenario_timeout_s * (rounds + 1) + 10) * 1000)
