"""`tier-check matrix`: many SDK lines at once on this machine; `matrix plan` and `matrix merge`:
the same matrix spread over GitHub Actions jobs and put back together."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.cli.common import PROG, cache_dir, emit, known_sdks, print_json
from tiercheck.document_formats import MATRIX_FORMATS
from tiercheck.pipeline.assess import options
from tiercheck.pipeline.matrix.distributed import merge_matrix, plan_matrix
from tiercheck.pipeline.matrix.local import run_matrix
from tiercheck.pipeline.matrix.request import (
    MatrixBudgets,
    MatrixMergeRequest,
    MatrixPlanRequest,
    MatrixReports,
    MatrixRequest,
    RowOptions,
    RowSelection,
)

if TYPE_CHECKING:
    from tiercheck.pipeline.matrix.outcome import MatrixResult

__all__ = [
    "matrix",
    "matrix_merge",
    "matrix_merge_parser",
    "matrix_parser",
    "matrix_plan",
    "matrix_plan_parser",
    "matrix_request",
]

#: The matrix's `--registry`, in its words.
_REGISTRY_HELP = "another known_sdks.yaml"

FAIL_ON_HELP = """\
exit codes:
  0    the matrix was produced (whatever the rows found)
  1    --fail-on regression: a scenario newly fails, or a row's tier went down, against
       --previous; --fail-on failure: a row's implied tier is below the tier it claims
       (claimed_tier in known_sdks.yaml or the matrix file; an unmeasured row is not below)
  2    bad input or usage
  130  interrupted (the rows that finished, and what the others measured, are written)
"""


def _add_rows(parser: argparse.ArgumentParser) -> None:
    rows = parser.add_argument_group("rows")
    rows.add_argument(
        "--sdk", action="append", metavar="NAME[@REF]", help="a row (repeatable)", default=[]
    )
    rows.add_argument("--all", action="store_true", help="every line of known_sdks.yaml")
    rows.add_argument(
        "--stable",
        action="store_true",
        help="with --all: each line also at @stable, its latest stable release (the ref "
        "SEP-1730's relegation clock reads)",
    )
    rows.add_argument(
        "--matrix", metavar="FILE", help="a YAML file of rows: {rows: [{sdk, ref, …}]}"
    )
    options.REGISTRY.add_to(rows, help=_REGISTRY_HELP)
    options.CACHE_DIR.add_to(parser, help="clones, builds, harness")


def matrix_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check matrix [rows…]`: the matrix on this machine."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Assess many SDK lines at once on this machine, each exactly as a single run "
            "would, under machine-wide budgets (client scenarios one per core, builds "
            "--max-builds at once), and write one report: every row's scorecard folder, "
            "matrix.json, matrix.md, junit.xml and a terminal summary in "
            "reports/matrix/<run-id>/. Rows this machine cannot run (tier-check doctor) are "
            "unmeasured with the reason. See also `matrix plan` and `matrix merge`."
        ),
        epilog=FAIL_ON_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_rows(parser)
    run = parser.add_argument_group("running")
    run.add_argument(
        "--concurrency",
        type=int,
        metavar="N",
        help=(
            "at most N client scenario processes at once across every row (default: admitted "
            "by the CPU the running clients use, at least one per core)"
        ),
    )
    run.add_argument(
        "--max-builds", type=int, metavar="N", default=2, help="builds at once (default 2)"
    )
    run.add_argument(
        "--max-rows",
        type=int,
        metavar="N",
        help="rows at once (default: the cores; more only add processes and memory)",
    )
    # What every row's own `tier-check` is given: the assessment's options, in the matrix's words.
    options.HARNESS_VERSION.add_to(run)
    options.REUSE.add_to(run, help="each row re-uses a stored run (--reuse)")
    options.HISTORY.add_to(run, help="the run history database rows append to")
    options.NO_HISTORY.add_to(run, help="rows do not read or add to it")
    gov = parser.add_argument_group("governance")
    options.SKIP_GOVERNANCE.add_to(gov)
    options.GOVERNANCE_SNAPSHOT.add_to(gov, help="replay this snapshot")
    options.AS_OF.add_to(gov, help="fix 'now' for the governance verdicts")
    out = parser.add_argument_group("reports")
    out.add_argument("--out", metavar="DIR", help="default reports/matrix/<run-id>/")
    out.add_argument("--previous", metavar="FILE", help="a previous matrix.json to compare with")
    out.add_argument(
        "--fail-on",
        action="append",
        choices=("regression", "failure"),
        default=[],
        help="exit 1 on a regression against --previous, or a row below its claimed tier",
    )
    out.add_argument(
        "--output",
        choices=MATRIX_FORMATS.choices(),
        default=MATRIX_FORMATS.default,
        help="what to print on stdout (every format is written to --out)",
    )
    return parser


def matrix_plan_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check matrix plan [rows…] --output github`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Print the plan of a matrix for GitHub Actions: `.matrix` is the strategy.matrix "
            "(one include entry per runnable row, with its setup-action versions and its "
            "tier-check arguments), `.unrunnable` the rows that cannot run, with reasons, and "
            "`.rows` the whole plan for `matrix merge --plan`."
        ),
    )
    _add_rows(parser)
    parser.add_argument(
        "--assume-setup",
        action="store_true",
        help="count tools a setup action installs (go, node, python, java, rust, .NET, ruby) "
        "as present: the jobs install them (the workflow's plan)",
    )
    parser.add_argument("--output", choices=("github",), default="github")
    return parser


def matrix_merge_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check matrix merge DIR… [--plan FILE] [--previous FILE]`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Build the matrix from the folders jobs left (a folder holding scorecard.json, or "
            "a folder of such folders, one per job): every scorecard is validated; a missing "
            "or corrupt one is an unmeasured row naming its job. Each job's folder is copied "
            "to rows/<job>/ in --out (symbolic links in it are not followed), so --out holds "
            "every row's pages as a one-machine matrix does. Writes matrix.json, matrix.md, "
            "junit.xml and matrix.txt to --out, and matrix.md to $GITHUB_STEP_SUMMARY when set."
        ),
        epilog=FAIL_ON_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("dirs", nargs="+", metavar="DIR")
    parser.add_argument("--plan", metavar="FILE", help="the plan `matrix plan` printed")
    options.REGISTRY.add_to(parser, help=_REGISTRY_HELP)
    parser.add_argument("--previous", metavar="FILE", help="a previous matrix.json")
    parser.add_argument("--out", metavar="DIR", help="default reports/matrix/<run-id>/")
    parser.add_argument("--fail-on", action="append", choices=("regression", "failure"), default=[])
    parser.add_argument(
        "--output", choices=MATRIX_FORMATS.choices(), default=MATRIX_FORMATS.default
    )
    return parser


def _rows(args: argparse.Namespace) -> RowSelection:

    return RowSelection(
        sdk=tuple(args.sdk),
        matrix_file=Path(args.matrix) if args.matrix else None,
        every_line=args.all,
        every_stable=args.stable,
    )


def _reports(args: argparse.Namespace) -> MatrixReports:

    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    return MatrixReports(
        out=Path(args.out) if args.out else None,
        previous=args.previous or None,
        fail_on=frozenset(args.fail_on),
        step_summary=Path(summary) if summary else None,
    )


def matrix_request(args: argparse.Namespace) -> MatrixRequest:
    """The `matrix` flags in `args` as one typed request (nothing read or run yet but the
    registry and the cache folder's check)."""

    reports = _reports(args)
    budgets = MatrixBudgets(
        concurrency=args.concurrency, max_builds=args.max_builds, max_rows=args.max_rows
    )
    registry = known_sdks(args)
    return MatrixRequest(
        registry=registry,
        rows=_rows(args),
        cache_dir=cache_dir(args),
        reports=reports,
        budgets=budgets,
        options=RowOptions(
            skip_governance=options.SKIP_GOVERNANCE.held(args),
            governance_snapshot=options.GOVERNANCE_SNAPSHOT.held(args),
            as_of=args.as_of or None,
            harness_version=args.harness_version or None,
            reuse=options.REUSE.held(args),
            history=options.HISTORY.held(args),
            no_history=options.NO_HISTORY.held(args),
        ),
        environ=dict(os.environ),
    )


def matrix(args: argparse.Namespace) -> int:
    """`tier-check matrix`: run the rows here and write the matrix."""

    result = run_matrix(matrix_request(args), announce=_announce, on_event=_progress)
    return _print(result, args.output)


def _announce(text: str) -> None:
    sys.stderr.write(f"{text}\n")


def _progress(text: str) -> None:
    sys.stderr.write(f"  {text}\n")
    sys.stderr.flush()


def _print(result: MatrixResult, output: str) -> int:
    """The matrix in the `--output` format on stdout, where it was written and why the exit
    code is not 0 on stderr; the exit code."""
    emit(MATRIX_FORMATS.get(output).render(result.matrix, False))
    files = ", ".join(p.name for p in result.files.values())
    sys.stderr.write(f"matrix: {result.out_dir} ({files})\n")
    for reason in result.reasons:
        sys.stderr.write(f"{PROG}: {reason}\n")
    return result.exit_code


def matrix_plan(args: argparse.Namespace) -> int:
    """`tier-check matrix plan`: the strategy.matrix JSON on stdout."""

    registry = known_sdks(args)
    request = MatrixPlanRequest(
        registry=registry,
        rows=_rows(args),
        cache_dir=cache_dir(args),
        assume_setup=args.assume_setup,
    )
    plan = plan_matrix(request)
    print_json(plan.document)
    return plan.exit_code


def matrix_merge(args: argparse.Namespace) -> int:
    """`tier-check matrix merge DIR…`: the matrix from the jobs' folders."""

    reports = _reports(args)
    request = MatrixMergeRequest(
        registry=known_sdks(args),
        dirs=tuple(Path(d) for d in args.dirs),
        plan=Path(args.plan) if args.plan else None,
        reports=reports,
    )
    return _print(merge_matrix(request), args.output)
