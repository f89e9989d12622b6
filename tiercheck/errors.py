"""The error hierarchy and the table of exit codes. Every error carries its exit code; the CLI
catches them once.

Per-leg and per-signal problems are *not* errors: they become "unmeasured" or
"inconclusive" entries in the scorecard. These exceptions are for things that stop
a command before it can measure anything (bad input, a missing tool).
"""

from __future__ import annotations

__all__ = [
    "EXIT_CODES",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_NOTHING_MEASURED",
    "EXIT_OK",
    "EXIT_USAGE",
    "CheckoutError",
    "ConfigError",
    "Interrupted",
    "ProcessError",
    "ServerStartError",
    "TiercheckError",
    "ToolMissingError",
    "UsageError",
]

#: Measured, and every scored scenario passed (with a baseline: every failure expected).
EXIT_OK = 0
#: Something measured failed, or some leg was unmeasured while another was measured.
EXIT_FAILED = 1
#: Bad input or usage: nothing was run.
EXIT_USAGE = 2
#: The run measured no leg at all: every leg was skipped for want of configuration or was
#: unmeasured, so there is no verdict to pass or fail (a green step would be a lie).
EXIT_NOTHING_MEASURED = 3
#: SIGINT or SIGTERM; what was measured is still written.
EXIT_INTERRUPTED = 130

#: Every exit code an assessment documents, with its meaning: `--help` and the README's table
#: are this table (tests/unit/project checks the README against it).
EXIT_CODES: tuple[tuple[int, str], ...] = (
    (
        EXIT_OK,
        "measured, and every scored scenario passed (with a baseline: every failure expected)",
    ),
    (
        EXIT_FAILED,
        "a scored scenario failed, a leg was unmeasured, a stale baseline entry, "
        "or (`diff`) a regression",
    ),
    (EXIT_USAGE, "bad input or usage"),
    (
        EXIT_NOTHING_MEASURED,
        "nothing was measured: every leg was skipped (no command configured, e.g. an SDK not in "
        "the registry) or unmeasured",
    ),
    (EXIT_INTERRUPTED, "interrupted (what was measured is still written)"),
)


class TiercheckError(Exception):
    """Base of every error tiercheck reports as one line and an exit code."""

    exit_code: int = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(TiercheckError):
    """The command line asks for something impossible or contradictory."""

    exit_code = EXIT_USAGE


class ConfigError(TiercheckError):
    """A data file (known_sdks.yaml, a requirement set, a baseline, a snapshot) is invalid.

    The message names the file, the path inside it, what is wrong and, where possible, the fix.
    """

    exit_code = 2


class ToolMissingError(TiercheckError):
    """A tool tiercheck needs (npm, git) is not installed."""

    exit_code = 2


class ProcessError(TiercheckError):
    """A child process could not be started or did not behave (start-up failure, timeout)."""

    exit_code = 1


class ServerStartError(ProcessError):
    """The SDK's server could not be started or never proved ready on its port.

    `log_tail` holds the last lines the server wrote, for the report; the message stays one line.
    """

    def __init__(self, message: str, *, log_tail: str = "") -> None:
        super().__init__(message)
        self.log_tail = log_tail


class CheckoutError(TiercheckError):
    """The SDK's repository could not be cloned or fetched, or the ref does not exist in it."""

    exit_code = 1


class Interrupted(TiercheckError):  # noqa: N818 - reads as a state, like KeyboardInterrupt
    """tier-check received SIGINT or SIGTERM; what was measured is still written."""

    exit_code = EXIT_INTERRUPTED
