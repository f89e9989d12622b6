"""Bounding the client leg's concurrency without touching the harness.

The harness starts one client process per scenario, all at once: on a 2-core machine that is
~40 Python or Node processes competing for CPU and holding gigabytes of memory, for no gain in
wall time (client start-up is CPU-bound). We cannot change the harness, so we wrap the SDK's
client command: each wrapped start first takes a slot (a `flock` on one of N lock files) and
only then starts the real client. A waiting client is one blocked `flock` (under two
megabytes, no CPU): the harness's shell execs the wrapper, which execs `flock`. The real
clients run at most N at a time across every leg of the assessment, because all legs share
one slot directory.

The harness's per-scenario timeout would count the time spent waiting for a slot, so the leg
passes the harness a generous timeout and the wrapper applies the real per-scenario limit
itself, once the client actually starts.
"""

from __future__ import annotations

import math
import shlex
from pathlib import Path

__all__ = ["SLOT_SCRIPT", "harness_timeout_ms", "prepare_slots", "wrap_client_command"]

SLOT_SCRIPT = r"""#!/bin/sh
# tiercheck client slot: run the SDK's conformance client once a slot is free.
# usage: slot.sh SLOT_DIR SLOTS TIMEOUT_S COMMAND [ARGS...]
# COMMAND is the SDK's client command as configured (a shell string); the harness appends the
# scenario's mock server URL, which arrives here in ARGS.
dir=$1
slots=$2
limit=$3
cmd=$4
shift 4
# A ticket spreads waiting clients round-robin over the slots; flock keeps the counter atomic.
ticket=$(flock "$dir/ticket.lock" sh -c \
  'n=$(cat "$1" 2>/dev/null || echo 0); echo $((n + 1)) > "$1"; echo "$n"' ticket "$dir/ticket")
# flock waits for the slot, then runs the client and holds the lock until it exits. `exec`
# makes flock the only process of a waiting client (this shell is replaced by it).
# timeout runs the client in a process group of its own and, on expiry or when it is
# signalled, signals that whole group (a shell wrapper's grandchildren included). tiercheck's
# teardown finds such groups among the leg's descendants and stops them too.
exec flock "$dir/slot.$((ticket % slots))" \
  timeout -k 5 "$limit" sh -c "$cmd \"\$@\"" client "$@"
"""


def prepare_slots(slot_dir: Path) -> Path:
    """Create the slot directory and the wrapper script in it; returns the script's path."""
    slot_dir.mkdir(parents=True, exist_ok=True)
    script = slot_dir / "slot.sh"
    script.write_text(SLOT_SCRIPT, encoding="utf-8")
    script.chmod(0o755)
    return script


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
