"""The assessment (`tier-check --sdk NAME[@REF]`, the default command) and `setup`."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck import __version__
from tiercheck.cli.common import (
    PROG,
    REGISTRY_HELP,
    add_config_flags,
    add_governance_flags,
    add_output_flag,
    cache_dir,
    config_flags,
    emit,
    emit_scorecard,
    known_sdks,
    pinned_harness_version,
    say_nothing_measured,
    warn,
)
from tiercheck.cli.governance import options_from_args
from tiercheck.cli.history import add_history_flags, history_request
from tiercheck.cli.probe import add_probe_flags, probe_failed, probe_selection
from tiercheck.document_formats import SCORECARD_FORMATS

if TYPE_CHECKING:
    from tiercheck.pipeline.assess.request import AssessRequest
    from tiercheck.pipeline.run import WrittenRun

__all__ = ["assess", "assess_parser", "assess_request", "measure", "setup", "setup_parser"]


def assess_parser(prog: str, *, epilog: str) -> argparse.ArgumentParser:
    """The parser of the assessment itself; `epilog` lists the other commands."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Decide which SEP-1730 tier an MCP SDK has earned: clone and build it, run the "
            "pinned official conformance harness at each claimed spec revision, add GitHub "
            "governance signals, and report the implied tier with its blockers."
        ),
        epilog=epilog,
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
        help=(
            "at most N client scenarios at once (0: all at once; default: admitted by the CPU "
            "the running clients use, at least one per core)"
        ),
    )
    run.add_argument(
        "--budget",
        metavar="DIR",
        help=(
            "share machine-wide budgets with other runs through DIR: client slots "
            "(--concurrency) and build slots (--max-builds); `tier-check matrix` passes one"
        ),
    )
    run.add_argument(
        "--max-builds",
        type=int,
        metavar="N",
        default=1,
        help="with --budget: builds at once across the runs sharing it (default 1)",
    )
    run.add_argument(
        "--sequential",
        action="store_true",
        help="run revisions one after another instead of overlapping them",
    )
    run.add_argument(
        "--cold-clients",
        action="store_true",
        help=(
            "start every Python client on its own (default: a client run as `PYTHON SCRIPT.py` "
            "is forked from one interpreter that has already imported what SCRIPT imports)"
        ),
    )
    add_config_flags(parser)
    gov = parser.add_argument_group("governance")
    gov.add_argument("--skip-governance", action="store_true", help="no GitHub signals")
    add_governance_flags(parser)
    add_history_flags(parser)
    add_probe_flags(parser)
    out = parser.add_argument_group("reports")
    add_output_flag(out, SCORECARD_FORMATS, repeat=True)
    out.add_argument(
        "--out", metavar="DIR", help="write every format here (default reports/<sdk>/<run-id>/)"
    )
    return parser


def assess(args: argparse.Namespace) -> int:
    """`tier-check --sdk NAME[@REF]`: the whole assessment."""
    written = measure(args)
    doc = written.scorecard
    if doc.interrupted:
        sys.stderr.write(f"{PROG}: interrupted; what was measured is in the reports\n")
    emit_scorecard(doc, args.output)
    files = ", ".join(p.name for p in written.files.values())
    sys.stderr.write(f"reports: {written.out_dir} ({files})\n")
    from tiercheck.scorecard.remediation import nothing_measured

    say_nothing_measured(nothing_measured(doc))
    if args.fail_on_probe and doc.exit_code == 0 and probe_failed(doc):
        sys.stderr.write(f"{PROG}: a probe failed (--fail-on-probe)\n")
        return 1
    return doc.exit_code


def assess_request(args: argparse.Namespace) -> AssessRequest:
    """The assessment the flags in `args` ask for, as one typed request (nothing run yet)."""
    from tiercheck.pipeline.assess.base import RunSettings
    from tiercheck.pipeline.assess.request import AssessRequest, TargetRequest

    concurrency = None if args.concurrency is None else max(0, args.concurrency)
    # In the order the flags are checked: the first bad one is the one reported.
    registry = known_sdks(args)
    target = TargetRequest(
        sdk=args.sdk,
        sdk_path=Path(args.sdk_path) if args.sdk_path else None,
        repo=args.repo,
        server_url=args.conformance_server_url,
    )
    cache = cache_dir(args)
    governance = options_from_args(args)
    out = Path(args.out) if args.out else None
    history = history_request(args)
    settings = RunSettings(
        cache_dir=cache,
        flags=config_flags(args),
        environ=dict(os.environ),
        revisions=tuple(args.revision) if args.revision else None,
        git_url=args.git_url,
        rebuild=args.rebuild,
        skip_build=args.skip_build,
        harness_version=args.harness_version or pinned_harness_version(),
        concurrency=concurrency,
        sequential=args.sequential,
        cold_clients=getattr(args, "cold_clients", False),
        probes=probe_selection(args.probes),
        budget_dir=Path(args.budget).resolve() if getattr(args, "budget", None) else None,
        max_builds=max(1, getattr(args, "max_builds", 1)),
    )
    return AssessRequest(
        registry=registry,
        target=target,
        governance=governance,
        settings=settings,
        out=out,
        history=history,
    )


def measure(args: argparse.Namespace) -> WrittenRun:
    """Parse `args` into a request and hand it to the pipeline, which runs and writes it all.

    Shared by the assessment and `claim`, which builds its pack on the same run.
    """
    from tiercheck.cli.progress import make_progress
    from tiercheck.pipeline.run import OutputError, run

    request = assess_request(args)
    progress = make_progress()
    try:
        return run(request, progress, warn=warn)
    except OutputError as exc:
        emit_scorecard(exc.scorecard, args.output)  # the scorecard still reaches stdout
        raise
    finally:
        progress.close()


def setup_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check setup [--sdk NAME[@REF] [--git-url URL]] [--cache-dir DIR]`, and
    `--harness-version V`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Provision the pinned conformance harness and its Node 22 runtime; with --sdk, "
            "also check that SDK's required tools, check it out and provision its uv/pnpm."
        ),
    )
    parser.add_argument("--sdk", metavar="NAME[@REF]", help="also get this SDK line ready")
    parser.add_argument("--git-url", metavar="URL", help="clone the SDK from here")
    parser.add_argument("--registry", metavar="FILE", help=REGISTRY_HELP)
    parser.add_argument("--cache-dir", metavar="DIR")
    parser.add_argument("--harness-version", metavar="V")
    return parser


def setup(args: argparse.Namespace) -> int:
    """`tier-check setup`: provision the pinned harness and Node 22 into the cache, and with
    `--sdk` the SDK's registry tools (exit 1 with the reason when the line cannot run here)."""
    from tiercheck.conformance.harness import provision

    harness = provision(
        cache_dir(args),
        version=args.harness_version or pinned_harness_version(),
        progress=lambda text: print(text, file=sys.stderr),
    )
    emit(f"harness {harness.version} with node {harness.node_version} at {harness.root}")
    if not args.sdk:
        return 0
    return _setup_sdk(args)


def _setup_sdk(args: argparse.Namespace) -> int:
    from tiercheck.cli.progress import make_progress
    from tiercheck.pipeline.assess.base import AssessOptions, RunSettings
    from tiercheck.pipeline.doctor import prepare_sdk
    from tiercheck.target import resolve_target

    target = resolve_target(known_sdks(args), sdk=args.sdk, sdk_path=None, repo=None)
    settings = RunSettings(
        cache_dir=cache_dir(args), environ=dict(os.environ), git_url=args.git_url
    )
    options = AssessOptions(target=target, settings=settings, out_dir=Path.cwd())
    progress = make_progress()
    try:
        ready = prepare_sdk(options, progress)
    finally:
        progress.close()
    if ready.halt is not None:
        sys.stderr.write(f"{PROG}: {target.name} cannot run here: {ready.halt}\n")
        return 1
    for name, tool in ready.tools.items():
        emit(f"{name} {tool['version']} ({tool['source']}) at {tool['path']}")
    return 0
