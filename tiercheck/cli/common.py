"""What the commands share: flag groups, flags → values, the registry, and stdout.

Everything a command prints on stdout goes through `emit` (or `print_json`, which uses it), so
stdout holds the result and nothing else; progress and warnings go to stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tiercheck.document_formats import SCORECARD_FORMATS, FormatRegistry, json_text
from tiercheck.errors import UsageError
from tiercheck.paths import writable_dir
from tiercheck.pipeline.assess import options
from tiercheck.plaintext import clean, one_line

if TYPE_CHECKING:
    from tiercheck.config.registry import Registry
    from tiercheck.config.resolve import ConfigFlags
    from tiercheck.scorecard.model import Scorecard

__all__ = [
    "PROG",
    "add_config_flags",
    "add_governance_flags",
    "add_output_flag",
    "cache_dir",
    "config_flags",
    "emit",
    "emit_scorecard",
    "error_lines",
    "known_sdks",
    "print_json",
    "say_nothing_measured",
    "stdout_color",
    "token_from_args",
    "warn",
    "writable_dir",
]

PROG = "tier-check"

#: How long governance may take in all, by default, and the variable that changes it.
DEFAULT_GOVERNANCE_DEADLINE_S = options.DEFAULT_GOVERNANCE_DEADLINE_S
GOVERNANCE_DEADLINE_ENV = options.GOVERNANCE_DEADLINE_ENV

# --- flag groups ---------------------------------------------------------------------------


def add_config_flags(parser: argparse.ArgumentParser) -> None:
    """`--registry` and the flags that override known_sdks.yaml (the top of the cascade), as
    the assessment has them (`options.CONFIG`)."""
    options.add_group(parser, options.CONFIG)


def config_flags(args: argparse.Namespace) -> ConfigFlags:
    """The configuration flags `args` gives, as the cascade takes them."""
    return options.CONFIG_FLAGS.held(args)


def add_governance_flags(parser: argparse.ArgumentParser) -> None:
    """How governance facts are obtained: token, API, snapshot replay or record, moment, window
    (`options.GITHUB`)."""
    options.add_group(parser, options.GITHUB)


CMDLINE_WARNING = (
    "--token puts the token on the command line, where every process of this user (the SDK "
    "under test included) can read it in /proc/PID/cmdline; use GITHUB_TOKEN, "
    "`gh auth token` or --token-file instead"
)


def token_from_args(args: argparse.Namespace) -> str | None:
    """The token given by `--token` (with a warning on stderr) or `--token-file`, else None."""
    token: str | None = getattr(args, "token", None)
    token_file: str | None = getattr(args, "token_file", None)
    if token and token_file:
        msg = "--token and --token-file both name a token; keep one (--token-file)"
        raise UsageError(msg)
    if token:
        sys.stderr.write(f"{PROG}: warning: {CMDLINE_WARNING}\n")
        return token
    if not token_file:
        return None
    try:
        text = Path(token_file).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        msg = f"--token-file {token_file}: cannot read it ({reason})"
        raise UsageError(msg) from exc
    if not text or len(text.splitlines()) != 1:
        msg = f"--token-file {token_file}: expected one line holding the token"
        raise UsageError(msg)
    return text


def add_output_flag(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, formats: FormatRegistry[Any]
) -> None:
    """`--output`, one format of a registry (its default when absent)."""
    parser.add_argument("--output", choices=formats.choices(), default=formats.default)


# --- flags → options -----------------------------------------------------------------------


def known_sdks(args: argparse.Namespace) -> Registry:
    """The SDK registry: the bundled one, with the entries of `--registry FILE` (else
    $TIERCHECK_REGISTRY) added to it; an added entry wins over a bundled one of its name.
    An entry that claims a revision the requirements folder lacks loses it, with one warning."""
    from tiercheck.config.registry import load_with_bundled

    path = options.REGISTRY.from_env(args, os.environ)
    registry = load_with_bundled(Path(path) if path else None)
    for line in registry.warnings:
        warn(line)
    return registry


def cache_dir(args: argparse.Namespace) -> Path:
    """`--cache-dir`, else the default cache directory; refused at once if it cannot be one."""
    return options.CACHE_DIR.held(args)


# --- stdout --------------------------------------------------------------------------------


def stdout_color() -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def warn(text: str) -> None:
    """One warning line on stderr: something went wrong but the command goes on.

    Warnings quote names the SDK under test chose: control characters are dropped and
    newlines folded, so no quoted text can start a line of its own (a CI log reads a line
    that starts with `::` as a workflow command) or move a terminal's cursor."""
    sys.stderr.write(f"{PROG}: warning: {one_line(text)}\n")


def error_lines(message: str) -> list[str]:
    """An error's lines for stderr, each without control characters and none starting with
    `::` (a workflow command to a CI log, here only ever from a quoted name); "error" when
    empty."""
    lines = [clean(line).strip() for line in message.strip().splitlines()]
    return [": :" + line[2:] if line.startswith("::") else line for line in lines if line] or [
        "error"
    ]


def emit(*texts: str) -> None:
    """Write rendered outputs to stdout, each ending in one newline, a blank line between them."""
    sys.stdout.write("\n".join(text.rstrip("\n") + "\n" for text in texts))
    sys.stdout.flush()


def emit_scorecard(doc: Scorecard, requested: Sequence[str] | None) -> None:
    """The scorecard on stdout in each `--output` format once, in the order asked."""
    chosen = dict.fromkeys(requested or [SCORECARD_FORMATS.default])
    color = stdout_color()
    emit(*(SCORECARD_FORMATS.get(name).render(doc, color) for name in chosen))


def say_nothing_measured(lines: Sequence[str]) -> None:
    """On stderr, when the run measured no leg at all (exit 3): why, and what to do
    (`scorecard.remediation.nothing_measured`); nothing when `lines` is empty."""
    for i, line in enumerate(lines):
        sys.stderr.write(f"{PROG}: {line}\n" if i == 0 else f"  {line}\n")


def print_json(data: Any) -> None:
    """Write `data` to stdout as JSON (keys in the order they were built)."""
    emit(json_text(data))
