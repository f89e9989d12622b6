"""`tier-check matrix`: a `MatrixRequest` run on this machine, from its flags to the written
matrix and the exit code.

Everything the request names is read and checked before any row starts, in this order: the
`--previous` matrix, the options every row is given (`child_args`: a bad governance snapshot
or history is one line here, not one per row), the rows and this machine's verdict on each
(`rows.select_rows`), and the report folder. Then the rows run (`run.run_rows`) and the matrix
is built and written (`outcome.finish`).
"""

from __future__ import annotations

from collections.abc import Callable

from tiercheck.config.registry import Registry
from tiercheck.errors import UsageError
from tiercheck.pipeline.assess.base import default_concurrency
from tiercheck.pipeline.matrix.outcome import MatrixResult, finish, load_previous, matrix_folder
from tiercheck.pipeline.matrix.request import MatrixRequest, RowOptions
from tiercheck.pipeline.matrix.rows import select_rows
from tiercheck.pipeline.matrix.run import MatrixSettings, run_rows

__all__ = ["child_args", "run_matrix"]


def child_args(registry: Registry, options: RowOptions) -> tuple[str, ...]:
    """What every row's `tier-check` is given besides its own row; the files it names are read
    here, so a bad one is refused once, before any row runs (UsageError or ConfigError)."""
    from tiercheck.governance.snapshot import load_snapshot
    from tiercheck.pipeline.assess.inputs import check_history

    out = ["--registry", str(registry.path.resolve())]
    if options.skip_governance and options.governance_snapshot:
        msg = "--skip-governance cannot be combined with --governance-snapshot"
        raise UsageError(msg)
    if options.skip_governance:
        out.append("--skip-governance")
    if options.governance_snapshot:
        snapshot = options.governance_snapshot
        if not snapshot.is_file():
            raise UsageError(f"--governance-snapshot {snapshot}: no such file")
        load_snapshot(snapshot)
        out += ["--governance-snapshot", str(snapshot.resolve())]
    if options.as_of:
        out += ["--as-of", options.as_of]
    if options.harness_version:
        out += ["--harness-version", options.harness_version]
    if options.reuse:
        out.append("--reuse")
    if options.no_history:
        out.append("--no-history")
    elif options.history:
        check_history(options.history)
        out += ["--history", str(options.history.resolve())]
    return tuple(out)


def run_matrix(
    request: MatrixRequest,
    *,
    announce: Callable[[str], None],
    on_event: Callable[[str], None],
) -> MatrixResult:
    """Run the request's rows here and write the matrix; what to print and the exit code.

    `announce` gets one line once the rows are planned (the run id, the rows and the budgets),
    `on_event` a line as each row starts, is unmeasured or ends.
    """
    previous = load_previous(request.reports)
    given = child_args(request.registry, request.options)
    rows = select_rows(request.registry, request.rows, request.cache_dir)
    folder = matrix_folder(request.reports.out)
    budgets = request.budgets
    settings = MatrixSettings(
        out_dir=folder.path.resolve(),
        cache_dir=request.cache_dir.resolve(),
        environ=dict(request.environ),
        concurrency=budgets.concurrency,
        max_builds=budgets.max_builds,
        child_args=given,
        # A row's own client legs already keep a core per client slot busy, so rows beyond
        # one per core add no speed on a busy machine, only processes and memory (measured in
        # bench/matrix.py).
        max_rows=budgets.max_rows or default_concurrency(),
    )
    slots = settings.concurrency or "by measured CPU"
    announce(
        f"matrix {folder.run_id}: {len(rows)} row(s), {sum(r.runnable for r in rows)} runnable "
        f"here; rows {settings.max_rows}, client slots {slots}, "
        f"builds {settings.max_builds} at once"
    )
    ran = run_rows(rows, settings, on_event)
    return finish(
        ran.inputs,
        folder,
        request.reports,
        previous=previous,
        interrupted=ran.interrupted,
        ran_here=True,
    )
