"""`tier-check matrix`: many SDK lines at once on this machine; `matrix plan` and `matrix merge`:
the same matrix spread over GitHub Actions jobs and put back together."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.cli.common import PROG, cache_dir, emit, known_sdks, print_json, writable_dir
from tiercheck.errors import UsageError
from tiercheck.report.formats import MATRIX_FORMATS

if TYPE_CHECKING:
    from tiercheck.config.registry import Registry
    from tiercheck.matrix.build import RowInput
    from tiercheck.matrix.model import Matrix
    from tiercheck.pipeline.matrix.rows import PlannedRow

__all__ = [
    "matrix",
    "matrix_merge",
    "matrix_merge_parser",
    "matrix_parser",
    "matrix_plan",
    "matrix_plan_parser",
]

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
        "--matrix", metavar="FILE", help="a YAML file of rows: {rows: [{sdk, ref, …}]}"
    )
    rows.add_argument("--registry", metavar="FILE", help="another known_sdks.yaml")
    parser.add_argument("--cache-dir", metavar="DIR", help="clones, builds, harness")


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
        help="client scenario processes at once across every row (default: the cores)",
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
    run.add_argument("--harness-version", metavar="V", help="another published harness version")
    run.add_argument("--reuse", action="store_true", help="each row re-uses a stored run (--reuse)")
    run.add_argument("--history", metavar="PATH", help="the run history database rows append to")
    run.add_argument("--no-history", action="store_true", help="rows do not read or add to it")
    gov = parser.add_argument_group("governance")
    gov.add_argument("--skip-governance", action="store_true", help="no GitHub signals")
    gov.add_argument("--governance-snapshot", metavar="FILE", help="replay this snapshot")
    gov.add_argument("--as-of", metavar="DATE", help="fix 'now' for the governance verdicts")
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
    parser.add_argument("--registry", metavar="FILE", help="another known_sdks.yaml")
    parser.add_argument("--previous", metavar="FILE", help="a previous matrix.json")
    parser.add_argument("--out", metavar="DIR", help="default reports/matrix/<run-id>/")
    parser.add_argument("--fail-on", action="append", choices=("regression", "failure"), default=[])
    parser.add_argument(
        "--output", choices=MATRIX_FORMATS.choices(), default=MATRIX_FORMATS.default
    )
    return parser


def _planned(
    args: argparse.Namespace, registry: Registry, *, assume_setup: bool = False
) -> tuple[PlannedRow, ...]:
    from tiercheck.config.matrix_file import load_matrix_file
    from tiercheck.pipeline.matrix.rows import RowRequest, parse_row, plan_rows

    requests = [parse_row(text) for text in args.sdk]
    if args.matrix:
        requests += load_matrix_file(Path(args.matrix))
    if args.all:
        requests += [RowRequest(sdk=name) for name in registry.names()]
    if not requests:
        msg = "no rows: give --sdk NAME[@REF] (repeatable), --all or --matrix FILE"
        raise UsageError(msg)
    return plan_rows(registry, requests, cache_dir(args), assume_setup=assume_setup)


def _check_fail_on(args: argparse.Namespace) -> None:
    if "regression" in args.fail_on and not args.previous:
        msg = "--fail-on regression compares with a previous matrix: give --previous matrix.json"
        raise UsageError(msg)


def _child_args(args: argparse.Namespace, registry: Registry) -> tuple[str, ...]:
    """What every row's `tier-check` is given besides its own row; the files it names are read
    here, so a bad one is refused once, before any row runs."""
    from tiercheck.governance.snapshot import load_snapshot
    from tiercheck.pipeline.inputs import check_history

    out = ["--registry", str(registry.path.resolve())]
    if args.skip_governance and args.governance_snapshot:
        msg = "--skip-governance cannot be combined with --governance-snapshot"
        raise UsageError(msg)
    if args.skip_governance:
        out.append("--skip-governance")
    if args.governance_snapshot:
        snapshot = Path(args.governance_snapshot)
        if not snapshot.is_file():
            raise UsageError(f"--governance-snapshot {snapshot}: no such file")
        # Read now, as every row would: a bad snapshot is one line here, not one per row.
        load_snapshot(snapshot)
        out += ["--governance-snapshot", str(snapshot.resolve())]
    if args.as_of:
        out += ["--as-of", args.as_of]
    if args.harness_version:
        out += ["--harness-version", args.harness_version]
    if args.reuse:
        out.append("--reuse")
    if args.no_history:
        out.append("--no-history")
    elif args.history:
        check_history(Path(args.history))
        out += ["--history", str(Path(args.history).resolve())]
    return tuple(out)


def matrix(args: argparse.Namespace) -> int:
    """`tier-check matrix`: run the rows here and write the matrix."""
    from tiercheck.pipeline import default_concurrency, now_utc, run_id
    from tiercheck.pipeline.matrix.run import MatrixSettings, run_rows

    _check_fail_on(args)
    for flag in ("concurrency", "max_builds", "max_rows"):
        value = getattr(args, flag)
        if value is not None and value < 1:
            raise UsageError(f"--{flag.replace('_', '-')} must be at least 1, not {value}")
    registry = known_sdks(args)
    previous = _previous(args)
    child_args = _child_args(args, registry)
    rows = _planned(args, registry)
    started = now_utc()
    rid = run_id(started)
    out_dir = Path(args.out) if args.out else Path("reports") / "matrix" / rid
    writable_dir(out_dir, "--out" if args.out else "the reports folder")
    settings = MatrixSettings(
        out_dir=out_dir.resolve(),
        cache_dir=cache_dir(args).resolve(),
        environ=dict(os.environ),
        concurrency=args.concurrency or default_concurrency(),
        max_builds=args.max_builds,
        child_args=child_args,
        # A row's own client legs already keep a core per client slot busy, so rows beyond
        # one per core add no speed on a busy machine, only processes and memory (measured in
        # bench/matrix.py).
        max_rows=args.max_rows or default_concurrency(),
    )
    sys.stderr.write(
        f"matrix {rid}: {len(rows)} row(s), {sum(r.runnable for r in rows)} runnable here; "
        f"rows {settings.max_rows}, client slots {settings.concurrency}, "
        f"builds {settings.max_builds} at once\n"
    )
    ran = run_rows(rows, settings, _progress)
    doc = _build(ran.inputs, rid, started, interrupted=ran.interrupted, previous=previous)
    return _finish(doc, out_dir, args)


def _progress(text: str) -> None:
    sys.stderr.write(f"  {text}\n")
    sys.stderr.flush()


def _previous(args: argparse.Namespace) -> Matrix | None:
    from tiercheck.report.writer import load_matrix

    return load_matrix(Path(args.previous)) if args.previous else None


def _build(
    inputs: tuple[RowInput, ...],
    rid: str,
    started: object,
    *,
    interrupted: bool,
    previous: Matrix | None,
) -> Matrix:
    from datetime import datetime

    from tiercheck.matrix.build import build_matrix
    from tiercheck.model import format_time
    from tiercheck.pipeline import now_utc

    assert isinstance(started, datetime)
    return build_matrix(
        inputs,
        run_id=rid,
        started_at=format_time(started),
        finished_at=format_time(now_utc()),
        interrupted=interrupted,
        previous=previous,
    )


def _finish(doc: Matrix, out_dir: Path, args: argparse.Namespace) -> int:
    """Write every format, the step summary and stdout; the exit code the flags ask for."""
    from tiercheck.report.writer import write_matrix_reports

    written = write_matrix_reports(doc, out_dir)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with Path(summary).open("a", encoding="utf-8") as handle:
            handle.write(MATRIX_FORMATS.get("markdown").render(doc, False))
    emit(MATRIX_FORMATS.get(args.output).render(doc, False))
    sys.stderr.write(f"matrix: {out_dir} ({', '.join(p.name for p in written.values())})\n")
    if doc.interrupted and getattr(args, "dirs", None) is None:
        sys.stderr.write(f"{PROG}: interrupted; the partial matrix is written\n")
        return 130
    code = 0
    if "regression" in args.fail_on and doc.changes is not None and doc.changes.regressed:
        sys.stderr.write(
            f"{PROG}: a row regressed against {args.previous} (--fail-on regression)\n"
        )
        code = 1
    below = [r.id for r in doc.rows if r.tier is not None and r.tier.below_claim]
    if "failure" in args.fail_on and below:
        sys.stderr.write(
            f"{PROG}: below the claimed tier: {', '.join(below)} (--fail-on failure)\n"
        )
        code = 1
    return code


def matrix_plan(args: argparse.Namespace) -> int:
    """`tier-check matrix plan`: the strategy.matrix JSON on stdout."""
    from tiercheck.pipeline.matrix.distributed import plan_document

    registry = known_sdks(args)
    print_json(plan_document(_planned(args, registry, assume_setup=args.assume_setup)))
    return 0


def matrix_merge(args: argparse.Namespace) -> int:
    """`tier-check matrix merge DIR…`: the matrix from the jobs' folders."""
    from tiercheck.pipeline import now_utc, run_id
    from tiercheck.pipeline.matrix.distributed import collect_jobs, copy_rows, load_plan

    _check_fail_on(args)
    registry = known_sdks(args)
    previous = _previous(args)
    plan = load_plan(Path(args.plan)) if args.plan else None
    dirs = [Path(d) for d in args.dirs]
    for directory in dirs:
        if not directory.is_dir():
            raise UsageError(f"{directory}: not a folder (give the folders the jobs left)")
    started = now_utc()
    rid = run_id(started)
    out_dir = Path(args.out) if args.out else Path("reports") / "matrix" / rid
    writable_dir(out_dir, "--out" if args.out else "the reports folder")
    collected = collect_jobs(dirs, plan, registry)
    try:
        copy_rows(collected, out_dir)  # before matrix.json: it never names a missing folder
    except OSError as exc:
        msg = f"cannot copy the jobs' folders into {out_dir}/rows: {exc.strerror or exc}"
        raise UsageError(msg) from None
    doc = _build(collected.inputs, rid, started, interrupted=False, previous=previous)
    return _finish(doc, out_dir, args)
