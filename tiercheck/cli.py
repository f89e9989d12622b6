"""The `tier-check` command line: flags in, options out, exit codes, nothing computed here.

Start-up is kept cheap on purpose (`tier-check --help` must answer fast): this module imports
only the standard library at the top; everything heavy (PyGithub, git, rich, jsonschema, yaml)
is imported inside the command that needs it.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any, NoReturn

from tiercheck import __version__
from tiercheck.errors import TiercheckError

__all__ = ["main"]

PROG = "tier-check"

EXIT_CODES_HELP = """\
exit codes:
  0    measured, and every scored scenario passed (with a baseline: every failure expected)
  1    a scored scenario failed, a leg was unmeasured, a stale baseline entry,
       or (diff) a regression
  2    bad input or usage
  130  interrupted (what was measured is still written)
"""

VERBS_HELP = """\
commands beside the assessment:
  list            the SDKs tiercheck knows
  requirements    what a spec revision requires, per leg
  show-config     an SDK's resolved configuration per revision, and where each value came from
  setup           provision the pinned conformance harness and Node 22 into the cache
  score           score raw harness results produced elsewhere
  diff            compare two scorecards (regressions exit 1)
  governance      the six governance signals of a repository
  labels, triage  single governance checks, as the official tool has them

run `tier-check COMMAND --help` for a command's options.
"""


def _add_config_flags(parser: argparse.ArgumentParser) -> None:
    """Flags that override known_sdks.yaml (top of the configuration cascade).

    Flag, metavar and help come from the cascade's field table (`config.resolve.FIELDS`); each
    help names the environment variable one layer below the flag.
    """
    from tiercheck.config.resolve import flag_fields

    group = parser.add_argument_group("configuration overrides (beat known_sdks.yaml and env)")
    group.add_argument("--registry", metavar="FILE", help="another known_sdks.yaml")
    for i, spec in enumerate(flag_fields()):
        assert spec.flag is not None  # flag_fields() holds only fields with a flag
        # The first line says what the name in parentheses is; the others follow its lead.
        env = f"env {spec.env_var}" if i == 0 else spec.env_var
        group.add_argument(spec.flag, metavar=spec.metavar, help=f"{spec.help} ({env})")


def _add_governance_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("governance (GitHub)")
    group.add_argument("--token", help="GitHub token (else GITHUB_TOKEN, GH_TOKEN, gh auth token)")
    group.add_argument(
        "--github-api-url", metavar="URL", help="API base, for GitHub Enterprise (GITHUB_API_URL)"
    )
    group.add_argument("--governance-snapshot", metavar="FILE", help="replay a recorded snapshot")
    group.add_argument("--record-governance", metavar="FILE", help="write the collected snapshot")
    group.add_argument(
        "--as-of", metavar="DATE", help="fix 'now' (ISO date or time) so verdicts are reproducible"
    )
    group.add_argument("--days", type=int, metavar="N", help="triage window in days (default 90)")


def _output_flags(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, *, default: str = "terminal"
) -> None:
    parser.add_argument(
        "--output",
        action="append",
        choices=["terminal", "json", "markdown", "junit"],
        help=f"format on stdout; repeat for several (default {default})",
    )


def build_main_parser() -> argparse.ArgumentParser:
    """The parser of the assessment itself (`tier-check --sdk NAME[@REF]`)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Decide which SEP-1730 tier an MCP SDK has earned: clone and build it, run the "
            "pinned official conformance harness at each claimed spec revision, add GitHub "
            "governance signals, and report the implied tier with its blockers."
        ),
        epilog=VERBS_HELP + "\n" + EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tiercheck {__version__}")
    what = parser.add_argument_group("what to assess")
    what.add_argument("--sdk", metavar="NAME[@REF]", help="a known SDK or OWNER/REPO, at a ref")
    what.add_argument("--sdk-path", metavar="DIR", help="an existing checkout (config from --sdk)")
    what.add_argument("--repo", metavar="OWNER/REPO", help="the GitHub repository to attribute")
    what.add_argument(
        "--revision",
        action="append",
        metavar="REV",
        help="assess only this claimed revision (repeatable; default: every claimed revision)",
    )
    what.add_argument(
        "--conformance-server-url",
        metavar="URL",
        help="run the legs against an already-running server (with --repo, optional --client-cmd)",
    )
    run = parser.add_argument_group("checkout, build and run")
    run.add_argument(
        "--git-url", metavar="URL", help="clone from here (TIERCHECK_GIT_BASE: a mirror)"
    )
    run.add_argument("--cache-dir", metavar="DIR", help="clones, builds, harness (TIERCHECK_CACHE)")
    run.add_argument("--rebuild", action="store_true", help="build even if cached for the commit")
    run.add_argument("--skip-build", action="store_true", help="trust the checkout as it is")
    run.add_argument("--harness-version", metavar="V", help="another published harness version")
    run.add_argument(
        "--concurrency",
        type=int,
        metavar="N",
        help="client scenarios at once (default: the machine's cores)",
    )
    run.add_argument(
        "--sequential",
        action="store_true",
        help="run revisions one after another instead of overlapping them",
    )
    _add_config_flags(parser)
    gov = parser.add_argument_group("governance")
    gov.add_argument("--skip-governance", action="store_true", help="no GitHub signals")
    _add_governance_flags(parser)
    out = parser.add_argument_group("reports")
    _output_flags(out)
    out.add_argument(
        "--out", metavar="DIR", help="write every format here (default reports/<sdk>/<run-id>/)"
    )
    return parser


def _verb_parsers() -> dict[str, argparse.ArgumentParser]:
    parsers: dict[str, argparse.ArgumentParser] = {}

    p = argparse.ArgumentParser(prog=f"{PROG} list", description="The SDKs tiercheck knows.")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--registry", metavar="FILE", help="another known_sdks.yaml")
    parsers["list"] = p

    p = argparse.ArgumentParser(
        prog=f"{PROG} requirements", description="What a spec revision requires, per leg."
    )
    p.add_argument("revision", metavar="REV")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    parsers["requirements"] = p

    p = argparse.ArgumentParser(
        prog=f"{PROG} show-config",
        description="An SDK's resolved configuration per revision, each value with its source.",
    )
    p.add_argument("--sdk", required=True, metavar="NAME")
    p.add_argument("--revision", metavar="REV", help="one revision (default: every claimed one)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _add_config_flags(p)
    parsers["show-config"] = p

    p = argparse.ArgumentParser(
        prog=f"{PROG} setup",
        description="Provision the pinned conformance harness and its Node 22 runtime.",
    )
    p.add_argument("--cache-dir", metavar="DIR")
    p.add_argument("--harness-version", metavar="V")
    parsers["setup"] = p

    p = argparse.ArgumentParser(
        prog=f"{PROG} score",
        description=(
            "Score raw harness results produced elsewhere. Repeat --requirements with its "
            "--server-results/--client-results per revision, or give --results DIR laid out "
            "<revision>/<leg>/."
        ),
    )
    p.add_argument("--requirements", action="append", metavar="REV", default=[])
    p.add_argument("--server-results", action="append", metavar="DIR", default=[])
    p.add_argument("--client-results", action="append", metavar="DIR", default=[])
    p.add_argument("--results", metavar="DIR", help="a folder laid out <revision>/<leg>/")
    p.add_argument("--expected-failures", action="append", metavar="FILE", default=[])
    p.add_argument("--repo", metavar="OWNER/REPO", default="unknown/unknown")
    _output_flags(p, default="terminal")
    parsers["score"] = p

    p = argparse.ArgumentParser(
        prog=f"{PROG} diff", description="Compare two scorecards; exit 1 on a regression."
    )
    p.add_argument("old", metavar="OLD.json")
    p.add_argument("new", metavar="NEW.json")
    p.add_argument("--output", choices=["terminal", "markdown", "json"], default="terminal")
    parsers["diff"] = p

    for verb, text in (
        ("governance", "The six governance checks of a repository."),
        ("labels", "The label taxonomy check (official JSON shape)."),
        ("triage", "The triage check (official JSON shape)."),
    ):
        p = argparse.ArgumentParser(prog=f"{PROG} {verb}", description=text)
        p.add_argument("--repo", required=True, metavar="OWNER/REPO")
        p.add_argument("--sdk", metavar="NAME", help="known SDK whose config (aliases…) applies")
        p.add_argument("--cache-dir", metavar="DIR")
        _add_governance_flags(p)
        if verb == "governance":
            p.add_argument("--output", choices=["terminal", "json"], default="terminal")
        parsers[verb] = p
    return parsers


VERBS = (
    "list",
    "requirements",
    "show-config",
    "setup",
    "score",
    "diff",
    "governance",
    "labels",
    "triage",
)


def _handler(verb: str) -> Callable[[argparse.Namespace], int]:
    from tiercheck import commands

    name = {"list": "list_sdks"}.get(verb, verb.replace("-", "_"))
    handler: Callable[[argparse.Namespace], int] = getattr(commands, name)
    return handler


def _fatal(message: str) -> None:
    # One line, never a traceback: the message already names the file, the path and the fix.
    first = message.strip().splitlines()[0] if message.strip() else "error"
    rest = message.strip().splitlines()[1:]
    sys.stderr.write(f"{PROG}: error: {first}\n")
    for line in rest:
        sys.stderr.write(f"  {line}\n")


def _install_sigterm() -> None:
    def on_sigterm(signum: int, frame: FrameType | None) -> NoReturn:
        # SIGTERM takes the same path as Ctrl-C: children are stopped and what was measured
        # is still written.
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `tier-check` and `python -m tiercheck`; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    _install_sigterm()
    try:
        if args and args[0] in VERBS:
            verb = args[0]
            namespace = _verb_parsers()[verb].parse_args(args[1:])
            return _handler(verb)(namespace)
        namespace = build_main_parser().parse_args(args)
        return _handler("assess")(namespace)
    except TiercheckError as exc:
        _fatal(exc.message)
        return exc.exit_code
    except KeyboardInterrupt:
        from tiercheck.process import kill_all_children

        kill_all_children()
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except BrokenPipeError:
        # `tier-check list | head`: the reader left; nothing more to say.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def print_json(data: Any) -> None:
    """Write JSON to stdout (the only thing on stdout)."""
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")
