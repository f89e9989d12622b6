"""A client command per scenario pattern (`client.commands: {"auth/*": …, "*": …}`).

The harness runs one client command for a whole leg (through `sh -c`, the scenario's mock
server URL appended, the scenario's name in `MCP_CONFORMANCE_SCENARIO`). An SDK whose CI uses a
second client for some scenarios (java-sdk runs `auth/*` with a Spring-based client) is served
by one dispatching command: a shell `case` over the scenario name, whose patterns are shell
globs, so `command_for` (fnmatch, for `show-config` and tests) and the shell agree on which
command a scenario gets. Patterns are checked against a safe character set by the schema and
again here, so they can stand unquoted in the `case`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from fnmatch import fnmatchcase

__all__ = ["SCENARIO_VAR", "command_for", "dispatch_command"]

#: Where the harness puts the scenario's name for the client it starts.
SCENARIO_VAR = "MCP_CONFORMANCE_SCENARIO"

_SAFE_PATTERN = re.compile(r"^[A-Za-z0-9_./*?-]+$")


def _check(pattern: str) -> str:
    if not _SAFE_PATTERN.match(pattern):
        msg = f"client.commands pattern {pattern!r} may use only letters, digits, _ . / - * ?"
        raise ValueError(msg)
    return pattern


def command_for(scenario: str, commands: Mapping[str, str], fallback: str | None) -> str | None:
    """The command `scenario` runs with: the first pattern that matches, else `fallback`."""
    for pattern, command in commands.items():
        if fnmatchcase(scenario, _check(pattern)):
            return command
    return fallback


def dispatch_command(commands: Mapping[str, str], fallback: str | None) -> str:
    """One shell command that runs, per scenario, the command `command_for` would choose.

    Each command is run as the harness runs a client command: as shell text, with the mock
    server URL appended (here as `"$@"`). A scenario no pattern matches, with no `fallback`,
    exits 127 with a line on stderr, which the harness records as a failed client start.
    """
    branches = [f'{_check(p)}) {command} "$@";;' for p, command in commands.items()]
    if fallback:
        branches.append(f'*) {fallback} "$@";;')
    else:
        missing = f'"tiercheck: no client command for scenario ${SCENARIO_VAR}"'
        branches.append(f"*) echo {missing} >&2; exit 127;;")
    script = f'case "${SCENARIO_VAR}" in ' + " ".join(branches) + " esac"
    # `sh -c SCRIPT client URL`: the URL the harness appends arrives as "$1".
    return f"sh -c {shlex.quote(script)} client"
