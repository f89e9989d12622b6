"""The entry point: the table of commands, dispatch, and the one place errors become exit codes.

`tier-check VERB …` runs the command of that name in `COMMANDS`; anything else is the assessment
(`tier-check --sdk NAME[@REF]`), the default command, whose `--help` lists the table. The table
names each command's module and functions as text: a command's module is imported only when
that command runs (the assessment's, `cli.assess`, only when it runs or its help is shown).
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import os
import signal
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import NoReturn

from tiercheck import process
from tiercheck.cli.common import PROG, error_lines
from tiercheck.errors import EXIT_CODES, TiercheckError

__all__ = ["COMMANDS", "Command", "commands_help", "main"]


def _exit_codes_help() -> str:
    lines = ["exit codes:"]
    for code, meaning in EXIT_CODES:
        text = meaning.replace("`", "")
        lines += textwrap.wrap(
            text, width=92, initial_indent=f"  {code:<4} ", subsequent_indent=" " * 7
        )
    return "\n".join(lines) + "\n"


#: The exit codes in `--help`: the table `errors.EXIT_CODES`.
EXIT_CODES_HELP = _exit_codes_help()

Parser = Callable[[str], argparse.ArgumentParser]
Run = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Command:
    """One command: its name and summary, and where its parser and function are.

    The module is imported only when the command runs, so building `tier-check --help` loads
    none of the commands it lists.
    """

    name: str
    #: Its line in `tier-check --help`; neighbours with the same summary share one line.
    summary: str
    #: The module that holds both functions, e.g. "tiercheck.cli.score".
    module: str
    #: The name of the module's function from prog (e.g. "tier-check list") to the parser.
    parser: str
    #: The name of the module's function from the parsed arguments to the exit code.
    run: str

    def load(self) -> tuple[Parser, Run]:
        """Import the module; its parser function and its run function."""
        module = importlib.import_module(self.module)
        return getattr(module, self.parser), getattr(module, self.run)


_SINGLE_CHECK = "single governance checks, as the official tool has them"


def _cli(module: str) -> str:
    return f"tiercheck.cli.{module}"


COMMANDS: tuple[Command, ...] = (
    Command("list", "the SDKs tiercheck knows", _cli("config_verbs"), "list_parser", "list_sdks"),
    Command(
        "requirements",
        "what a spec revision requires, per leg",
        _cli("config_verbs"),
        "requirements_parser",
        "requirements",
    ),
    Command(
        "init",
        "a known_sdks.yaml entry from an SDK checkout (its workflows, manifest and tags)",
        _cli("init"),
        "init_parser",
        "init_command",
    ),
    Command(
        "show-config",
        "an SDK's resolved configuration per revision, and where each value came from",
        _cli("config_verbs"),
        "show_config_parser",
        "show_config",
    ),
    Command(
        "setup",
        "provision the pinned conformance harness and Node 22 (and an SDK's uv/pnpm)",
        _cli("assess"),
        "setup_parser",
        "setup",
    ),
    Command(
        "doctor",
        "which SDK lines this machine can run: required tools, versions, provisioning",
        _cli("doctor"),
        "doctor_parser",
        "doctor",
    ),
    Command(
        "score",
        "score raw harness results produced elsewhere",
        _cli("score"),
        "score_parser",
        "score",
    ),
    Command(
        "diff",
        "compare two scorecards (regressions exit 1)",
        _cli("score"),
        "diff_parser",
        "diff",
    ),
    Command(
        "governance",
        "the six governance signals of a repository",
        _cli("governance"),
        "governance_parser",
        "governance",
    ),
    Command("labels", _SINGLE_CHECK, _cli("governance"), "labels_parser", "labels"),
    Command("triage", _SINGLE_CHECK, _cli("governance"), "triage_parser", "triage"),
    Command(
        "history",
        "an SDK's run history: scores over time, failing streaks, relegation, flaky scenarios",
        _cli("history"),
        "history_parser",
        "history",
    ),
    Command(
        "history import",
        "add saved scorecard folders or history data folders to the history",
        _cli("history"),
        "history_import_parser",
        "history_import",
    ),
    Command(
        "history export",
        "the history's runs as a data folder, one JSON file per run",
        _cli("history"),
        "history_export_parser",
        "history_export",
    ),
    Command(
        "publish",
        "the static dashboard of the history: pages, badges, JSON API (GitHub Pages)",
        _cli("publish"),
        "publish_parser",
        "publish",
    ),
    Command(
        "probe",
        "the advisory behaviour probes against a running server (exit 1 only on FAIL)",
        _cli("probe"),
        "probe_parser",
        "probe",
    ),
    Command(
        "matrix",
        "many SDK lines at once on this machine: one matrix report (--fail-on …)",
        _cli("matrix"),
        "matrix_parser",
        "matrix",
    ),
    Command(
        "matrix plan",
        "the matrix as GitHub Actions jobs (strategy.matrix JSON)",
        _cli("matrix"),
        "matrix_plan_parser",
        "matrix_plan",
    ),
    Command(
        "matrix merge",
        "the matrix from the folders those jobs left",
        _cli("matrix"),
        "matrix_merge_parser",
        "matrix_merge",
    ),
    Command(
        "notify",
        "one tracking issue per SDK line from the nightly history (or a pull-request comment)",
        _cli("notify"),
        "notify_parser",
        "notify",
    ),
    Command(
        "claim",
        "the evidence pack for a tier claim (assessment.md, remediation.md, claim.html)",
        _cli("claim"),
        "claim_parser",
        "claim",
    ),
    Command(
        "referee update",
        "move the pinned harness to another release: what changes, written for review",
        _cli("referee"),
        "referee_update_parser",
        "referee_update",
    ),
)

_BY_NAME = {command.name: command for command in COMMANDS}


def commands_help() -> str:
    """The `--help` epilog: the commands of the table, then the exit codes."""
    lines = ["commands beside the assessment:"]
    for summary, group in itertools.groupby(COMMANDS, key=lambda command: command.summary):
        names = ", ".join(command.name for command in group)
        lines.append(f"  {names:<14}  {summary}")
    lines += ["", f"run `{PROG} COMMAND --help` for a command's options.", ""]
    return "\n".join(lines) + "\n" + EXIT_CODES_HELP


def _fatal(message: str) -> None:
    # One line, never a traceback: the message already names the file, the path and the fix.
    first, *rest = error_lines(message)
    sys.stderr.write(f"{PROG}: error: {first}\n")
    for line in rest:
        sys.stderr.write(f"  {line}\n")


def _one_line_errors(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """`parser`, its usage errors made one line and a hint instead of the whole usage block."""

    def error(message: str) -> NoReturn:
        text = " ".join(message.split())  # a value with a newline in it stays on the line
        parser.exit(2, f"{parser.prog}: error: {text}\n  (see `{parser.prog} --help`)\n")

    parser.error = error  # type: ignore[method-assign]
    return parser


def _install_sigterm() -> None:
    def on_sigterm(signum: int, frame: FrameType | None) -> NoReturn:
        # SIGTERM takes the same path as Ctrl-C: children are stopped and what was measured
        # is still written.
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `tier-check` and `python -m tiercheck`; returns the exit code.

    Called without `argv` it runs the process's own command line, and so owns the process:
    it is hardened against the SDK it runs (non-dumpable, a child subreaper: see
    `process.harden`) and, on the way out, stops any orphan left re-parented to it. Called
    with `argv` (tests, embedding) the calling process is left as it is.
    """
    owns_process = argv is None
    args = list(sys.argv[1:] if argv is None else argv)
    if owns_process:
        process.harden()  # what a platform cannot do is documented, not an error
    _install_sigterm()
    try:
        return _dispatch(args)
    finally:
        if owns_process:
            process.stop_adopted()


def _dispatch(args: list[str]) -> int:
    try:
        # A two-word command (`matrix plan`) before the one-word one it starts with.
        words = 2 if len(args) >= 2 and " ".join(args[:2]) in _BY_NAME else 1
        command = _BY_NAME.get(" ".join(args[:words])) if args else None
        if command is not None:
            make_parser, run = command.load()
            parser = _one_line_errors(make_parser(f"{PROG} {command.name}"))
            return run(parser.parse_args(args[words:]))
        from tiercheck.cli import assess  # the default command, loaded only when it runs

        parser = _one_line_errors(assess.assess_parser(PROG, epilog=commands_help()))
        return assess.assess(parser.parse_args(args))
    except TiercheckError as exc:
        _fatal(exc.message)
        return exc.exit_code
    except KeyboardInterrupt:
        process.kill_all_children()
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except BrokenPipeError:
        # `tier-check list | head`: the reader left; nothing more to say.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
