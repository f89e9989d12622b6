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
    cache_dir,
    emit,
    emit_scorecard,
    known_sdks,
    say_nothing_measured,
    warn,
)
from tiercheck.cli.governance import options_from_args
from tiercheck.cli.history import history_request
from tiercheck.pipeline.assess import options

if TYPE_CHECKING:
    from tiercheck.pipeline.assess.request import AssessRequest
    from tiercheck.pipeline.run import WrittenRun

__all__ = ["assess", "assess_parser", "assess_request", "measure", "setup", "setup_parser"]

DESCRIPTION = (
    "Decide which SEP-1730 tier an MCP SDK has earned: clone and build it, run the pinned "
    "official conformance harness at each claimed spec revision, add GitHub governance "
    "signals, and report the implied tier with its blockers."
)


def assess_parser(prog: str, *, epilog: str) -> argparse.ArgumentParser:
    """The parser of the assessment itself, from its options' declarations
    (`options.ASSESSMENT`); `epilog` lists the other commands."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=DESCRIPTION,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tiercheck {__version__}")
    options.add_options(parser, options.ASSESSMENT)
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
    say_nothing_measured(written.nothing_measured)
    if args.fail_on_probe and doc.exit_code == 0 and written.probe_failed:
        sys.stderr.write(f"{PROG}: a probe failed (--fail-on-probe)\n")
        return 1
    return doc.exit_code


def assess_request(args: argparse.Namespace) -> AssessRequest:
    """The assessment the flags in `args` ask for, as one typed request (nothing run yet): each
    record filled from its options' declarations (`options.from_args`)."""
    from tiercheck.pipeline.assess.base import RunSettings
    from tiercheck.pipeline.assess.request import AssessRequest, TargetRequest

    # In the order the flags are checked: the first bad one is the one reported.
    registry = known_sdks(args)
    target = options.from_args(TargetRequest, args)
    cache = cache_dir(args)
    governance = options_from_args(args)
    history = history_request(args)
    settings = options.from_args(RunSettings, args, cache_dir=cache, environ=dict(os.environ))
    return options.from_args(
        AssessRequest,
        args,
        registry=registry,
        target=target,
        governance=governance,
        settings=settings,
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
    `--harness-version V`: the assessment's options, in setup's words."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Provision the pinned conformance harness and its Node 22 runtime; with --sdk, "
            "also check that SDK's required tools, check it out and provision its uv/pnpm."
        ),
    )
    options.SDK.add_to(parser, help="also get this SDK line ready")
    options.GIT_URL.add_to(parser, help="clone the SDK from here")
    options.REGISTRY.add_to(parser)
    options.CACHE_DIR.add_to(parser, help=None)
    options.HARNESS_VERSION.add_to(parser, help=None)
    return parser


def setup(args: argparse.Namespace) -> int:
    """`tier-check setup`: provision the pinned harness and Node 22 into the cache, and with
    `--sdk` the SDK's registry tools (exit 1 with the reason when the line cannot run here;
    `pipeline.setup`)."""
    from tiercheck.pipeline.setup import SetupRequest, setup_harness

    request = SetupRequest(cache_dir=cache_dir(args), harness_version=args.harness_version)
    harness = setup_harness(request, progress=lambda text: print(text, file=sys.stderr))
    emit(f"harness {harness.version} with node {harness.node_version} at {harness.root}")
    if not args.sdk:
        return 0
    return _setup_sdk(args)


def _setup_sdk(args: argparse.Namespace) -> int:
    from tiercheck.cli.progress import make_progress
    from tiercheck.pipeline.setup import SdkSetupRequest, setup_sdk

    request = SdkSetupRequest(
        registry=known_sdks(args),
        sdk=args.sdk,
        cache_dir=cache_dir(args),
        environ=dict(os.environ),
        git_url=args.git_url,
        out_dir=Path.cwd(),
    )
    progress = make_progress()
    try:
        ready = setup_sdk(request, progress)
    finally:
        progress.close()
    if ready.halt is not None:
        sys.stderr.write(f"{PROG}: {ready.sdk} cannot run here: {ready.halt}\n")
        return ready.exit_code
    for line in ready.lines():
        emit(line)
    return ready.exit_code
