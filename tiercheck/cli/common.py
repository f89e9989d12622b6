"""What the commands share: flag groups, flags → options, the registry, and stdout.

Everything a command prints on stdout goes through `emit` (or `print_json`, which uses it), so
stdout holds the result and nothing else; progress and warnings go to stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tiercheck.config.resolve import Field, flag_fields
from tiercheck.config.seconds import parse_seconds
from tiercheck.document_formats import SCORECARD_FORMATS, FormatRegistry, json_text
from tiercheck.errors import UsageError
from tiercheck.paths import writable_dir
from tiercheck.plaintext import clean, one_line

if TYPE_CHECKING:
    from tiercheck.config.registry import Registry
    from tiercheck.scorecard.model import Scorecard

__all__ = [
    "PROG",
    "REGISTRY_HELP",
    "add_config_flags",
    "add_governance_flags",
    "add_output_flag",
    "cache_dir",
    "config_flags",
    "emit",
    "emit_scorecard",
    "error_lines",
    "known_sdks",
    "pinned_harness_version",
    "print_json",
    "say_nothing_measured",
    "stdout_color",
    "token_from_args",
    "warn",
    "writable_dir",
]

PROG = "tier-check"

#: `--registry`'s help, the same for every command that reads the registry.
REGISTRY_HELP = (
    "a registry file (known_sdks.yaml's format) whose entries are added to the bundled "
    "registry, winning by name (env TIERCHECK_REGISTRY)"
)

#: How long governance may take in all, by default, and the variable that changes it.
DEFAULT_GOVERNANCE_DEADLINE_S = 180.0
GOVERNANCE_DEADLINE_ENV = "TIERCHECK_GOVERNANCE_DEADLINE"

# --- flag groups ---------------------------------------------------------------------------


def add_config_flags(parser: argparse.ArgumentParser) -> None:
    """`--registry` and the flags that override known_sdks.yaml (the top of the cascade).

    Flag, metavar and help come from the cascade's field table (`config.resolve.FIELDS`); each
    help names the environment variable one layer below the flag.
    """
    group = parser.add_argument_group("configuration overrides (beat known_sdks.yaml and env)")
    group.add_argument("--registry", metavar="FILE", help=REGISTRY_HELP)
    for i, (flag, spec) in enumerate(_flagged()):
        # The first line says what the name in parentheses is; the others follow its lead.
        env = f"env {spec.env_var}" if i == 0 else spec.env_var
        # A typed field (the timeouts) is parsed here, so a bad value is a usage error before
        # anything runs; the cascade then receives the parsed value.
        if spec.repeat is not None:
            # Repeatable (the baseline SPECs): each value is checked as the flag is read.
            group.add_argument(
                flag,
                action="append",
                metavar=spec.metavar,
                type=_flag_type(spec.repeat),
                help=f"{spec.help} ({env})",
            )
            continue
        kind = str if spec.parse is str else _flag_type(spec.parse)
        group.add_argument(flag, metavar=spec.metavar, type=kind, help=f"{spec.help} ({env})")


def _flag_type(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def convert(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


def config_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The configuration flags as the cascade expects them: {flag: value, or None if not given};
    a repeatable flag's values as a tuple."""
    flags: dict[str, Any] = {}
    for flag, spec in _flagged():
        value = getattr(args, spec.dest, None)
        flags[flag] = tuple(value) if spec.repeat is not None and value is not None else value
    return flags


def _flagged() -> Iterator[tuple[str, Field]]:
    for spec in flag_fields():
        assert spec.flag is not None  # flag_fields() holds only fields with a flag
        yield spec.flag, spec


def add_governance_flags(parser: argparse.ArgumentParser) -> None:
    """How governance facts are obtained: token, API, snapshot replay or record, moment, window."""
    group = parser.add_argument_group("governance (GitHub)")
    group.add_argument(
        "--token",
        help="GitHub token (else GITHUB_TOKEN, GH_TOKEN, gh auth token); readable by every "
        "local process in /proc/PID/cmdline, so prefer --token-file or the environment",
    )
    group.add_argument("--token-file", metavar="FILE", help="read the GitHub token from FILE")
    group.add_argument(
        "--github-api-url", metavar="URL", help="API base, for GitHub Enterprise (GITHUB_API_URL)"
    )
    group.add_argument("--governance-snapshot", metavar="FILE", help="replay a recorded snapshot")
    group.add_argument("--record-governance", metavar="FILE", help="write the collected snapshot")
    group.add_argument(
        "--as-of", metavar="DATE", help="fix 'now' (ISO date or time) so verdicts are reproducible"
    )
    group.add_argument("--days", type=int, metavar="N", help="triage window in days (default 90)")
    group.add_argument(
        "--disputes",
        metavar="FILE",
        help="the reviewed disputed-scenario file (default: requirements/disputes.yaml)",
    )
    group.add_argument(
        "--governance-deadline",
        type=_flag_type(parse_seconds),
        metavar="S",
        help=(
            f"seconds GitHub may take in all; what is missing then is inconclusive "
            f"(default {DEFAULT_GOVERNANCE_DEADLINE_S:.0f}; {GOVERNANCE_DEADLINE_ENV})"
        ),
    )


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
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    formats: FormatRegistry[Any],
    *,
    repeat: bool = False,
) -> None:
    """`--output`, its choices from a format registry.

    `repeat`: several formats in one run (the scorecard's), collected in a list that is None
    when the flag is absent; otherwise one format, the registry's default when absent.
    """
    if repeat:
        parser.add_argument(
            "--output",
            action="append",
            choices=formats.choices(),
            help=f"format on stdout; repeat for several (default {formats.default})",
        )
    else:
        parser.add_argument("--output", choices=formats.choices(), default=formats.default)


# --- flags → options -----------------------------------------------------------------------


def known_sdks(args: argparse.Namespace) -> Registry:
    """The SDK registry: the bundled one, with the entries of `--registry FILE` (else
    $TIERCHECK_REGISTRY) added to it; an added entry wins over a bundled one of its name.
    An entry that claims a revision the requirements folder lacks loses it, with one warning."""
    from tiercheck.config.registry import REGISTRY_ENV, load_with_bundled

    path = getattr(args, "registry", None) or os.environ.get(REGISTRY_ENV)
    registry = load_with_bundled(Path(path) if path else None)
    for line in registry.warnings:
        warn(line)
    return registry


def cache_dir(args: argparse.Namespace) -> Path:
    """`--cache-dir`, else the default cache directory; refused at once if it cannot be one."""
    from tiercheck.paths import cache_dir as resolve_cache_dir

    given = getattr(args, "cache_dir", None)
    where = (
        "--cache-dir"
        if given
        else "TIERCHECK_CACHE"
        if os.environ.get("TIERCHECK_CACHE")
        else "the cache"
    )
    return writable_dir(resolve_cache_dir(given), where)


def pinned_harness_version() -> str:
    """The harness version tiercheck is pinned to (when `--harness-version` is not given)."""
    from tiercheck.conformance.harness import PINNED_VERSION

    return PINNED_VERSION


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
