"""`tier-check matrix`: a `MatrixRequest` run on this machine, from its flags to the written
matrix and the exit code.

Everything the request names is read and checked before any row starts, in this order: the
`--previous` matrix, what every row is asked besides its row (`shared_command`: a bad governance
snapshot or history is one line here, not one per row), the rows and this machine's verdict on
each (`rows.select_rows`), and the report folder. Then the rows run (`run.run_rows`), each row's
`tier-check` given its `AssessCommand`, and the matrix is built and written (`outcome.finish`).
"""

from __future__ import annotations

from collections.abc import Callable

from tiercheck.conformance.harness import PINNED_VERSION
from tiercheck.errors import UsageError
from tiercheck.pipeline.assess.base import RunSettings, default_concurrency
from tiercheck.pipeline.assess.request import AssessCommand, TargetRequest
from tiercheck.pipeline.matrix.outcome import MatrixResult, finish, load_previous, matrix_folder
from tiercheck.pipeline.matrix.request import MatrixRequest
from tiercheck.pipeline.matrix.rows import select_rows
from tiercheck.pipeline.matrix.run import MatrixSettings, run_rows

__all__ = ["run_matrix", "shared_command"]


def shared_command(request: MatrixRequest) -> AssessCommand:
    """What every row's `tier-check` is asked besides its own row: the run settings (the cache,
    the machine-wide budgets, the harness) and the registry, governance and history the request
    gives every row. The files it names are read here, so a bad one is refused once, before any
    row runs (UsageError or ConfigError)."""
    from tiercheck.governance.snapshot import load_snapshot
    from tiercheck.pipeline.assess.inputs import check_history

    options, budgets = request.options, request.budgets
    if options.skip_governance and options.governance_snapshot:
        msg = "--skip-governance cannot be combined with --governance-snapshot"
        raise UsageError(msg)
    snapshot = options.governance_snapshot
    if snapshot:
        if not snapshot.is_file():
            raise UsageError(f"--governance-snapshot {snapshot}: no such file")
        load_snapshot(snapshot)
        snapshot = snapshot.resolve()
    history = None
    if options.history and not options.no_history:
        check_history(options.history)
        history = options.history.resolve()
    cache = request.cache_dir.resolve()
    settings = RunSettings(
        cache_dir=cache,
        environ=dict(request.environ),
        harness_version=options.harness_version or PINNED_VERSION,
        concurrency=budgets.concurrency,
        # Machine-wide: every run using this cache shares the slots.
        budget_dir=cache / "budget",
        max_builds=budgets.max_builds,
    )
    return AssessCommand(
        target=TargetRequest(),
        settings=settings,
        registry=request.registry.path.resolve(),
        skip_governance=options.skip_governance,
        governance_snapshot=snapshot,
        as_of=options.as_of,
        history=history,
        no_history=options.no_history,
        reuse=options.reuse,
    )


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
    shared = shared_command(request)
    rows = select_rows(request.registry, request.rows, request.cache_dir)
    folder = matrix_folder(request.reports.out)
    budgets = request.budgets
    settings = MatrixSettings(
        out_dir=folder.path.resolve(),
        shared=shared,
        # A row's own client legs already keep a core per client slot busy, so rows beyond
        # one per core add no speed on a busy machine, only processes and memory (measured in
        # bench/matrix.py).
        max_rows=budgets.max_rows or default_concurrency(),
    )
    slots = budgets.concurrency or "by measured CPU"
    announce(
        f"matrix {folder.run_id}: {len(rows)} row(s), {sum(r.runnable for r in rows)} runnable "
        f"here; rows {settings.max_rows}, client slots {slots}, "
        f"builds {budgets.max_builds} at once"
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
