"""The error hierarchy. Every error carries its exit code; the CLI catches them once.

Per-leg and per-signal problems are *not* errors: they become "unmeasured" or
"inconclusive" entries in the scorecard. These exceptions are for things that stop
a command before it can measure anything (bad input, a missing tool).
"""

from __future__ import annotations

__all__ = [
    "CheckoutError",
    "ConfigError",
    "Interrupted",
    "ProcessError",
    "ServerStartError",
    "TiercheckError",
    "ToolMissingError",
    "UsageError",
]


class TiercheckError(Exception):
    """Base of every error tiercheck reports as one line and an exit code."""

    exit_code: int = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(TiercheckError):
    """The command line asks for something impossible or contradictory."""

    exit_code = 2


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

    exit_code = 130
