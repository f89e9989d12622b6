"""Running a matrix's rows on one machine, at the same time, under machine-wide budgets.

Each runnable row is a child `tier-check` process (through `tiercheck.process`, in a process
group of its own), exactly the assessment a single run of that row is: it writes its own
scorecard folder, appends to the run history and honours `--reuse`. What it is asked is one
`AssessCommand` (the row's part over what every row shares), written as its argv by the
options' declarations, which the child reads back with the same declarations. A child process is the
isolation the matrix promises for little code: a row whose build breaks, whose server never
starts or whose harness crashes, or that exhausts memory or hangs, ends only its own process;
no state (a module cache, a signal handler, a thread pool, a working directory) is shared.

The budgets are shared through one directory (`--budget`): client scenarios take one of N
slots (N = cores) across every row, builds one of `max_builds`; servers get allocated ports as
in every run. Ctrl-C or SIGTERM stops the rows not yet started, sends every running row
SIGTERM (each then stops its own children and writes its partial scorecard, as a single run
does) and waits for them; the partial matrix is built from what they wrote.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from tiercheck import process
from tiercheck.matrix.build import RowInput
from tiercheck.pipeline.assess.request import AssessCommand
from tiercheck.pipeline.matrix.rows import PlannedRow

__all__ = ["MatrixRun", "MatrixSettings", "read_row", "row_argv", "run_rows"]

#: How long a row may take to stop its children and write its partial scorecard after SIGTERM.
ROW_STOP_GRACE_S = 60.0


@dataclass(frozen=True)
class MatrixSettings:
    """What every row of one matrix run shares."""

    out_dir: Path
    #: What every row's `tier-check` is asked besides its own row: the run settings (the cache,
    #: the machine-wide budgets, the harness), the registry, governance and history.
    shared: AssessCommand
    #: Rows running at once (None: every runnable row; the budgets bound the real work; the
    #: command's default is one per core).
    max_rows: int | None = None

    @property
    def budget_dir(self) -> Path:
        """The budgets every row shares (`--budget`)."""
        budget = self.shared.settings.budget_dir
        assert budget is not None  # the matrix always shares its budgets
        return budget

    @property
    def environ(self) -> Mapping[str, str]:
        """The environment every row runs in."""
        return self.shared.settings.environ


@dataclass(frozen=True)
class MatrixRun:
    """Every row's input for the builder, in row order, and whether the run was interrupted."""

    inputs: tuple[RowInput, ...]
    interrupted: bool


def row_folder(job: str) -> str:
    """The scorecard folder of the row whose job is `job`, relative to the matrix's folder."""
    return f"rows/{job}"


def row_argv(row: PlannedRow, settings: MatrixSettings) -> list[str]:
    """The child `tier-check` command that assesses `row` into its folder."""
    command = row.command(settings.shared, out=settings.out_dir / row_folder(row.job))
    return [sys.executable, "-m", "tiercheck", *command.argv()]


def read_row(row: PlannedRow, folder: Path, shown: str, why_missing: str) -> RowInput:
    """The row's input from its folder: its scorecard, or an unmeasured row with the reason."""
    from tiercheck.document_files import load_scorecard
    from tiercheck.errors import TiercheckError

    path = folder / "scorecard.json"
    if not path.is_file():
        return row.input(None, None, f"{why_missing}: no scorecard.json in {shown}")
    try:
        card = load_scorecard(path)
    except TiercheckError as exc:
        return row.input(None, None, f"{why_missing}: {exc.message}")
    return row.input(card, shown)


def run_rows(
    rows: Sequence[PlannedRow],
    settings: MatrixSettings,
    on_event: Callable[[str], None],
) -> MatrixRun:
    """Run every runnable row as its own `tier-check`; rows that cannot run are unmeasured."""
    from tiercheck.conformance.slots import share_slots

    runnable = [r for r in rows if r.runnable]
    share_slots(settings.budget_dir / "clients", len(runnable))
    results: dict[str, RowInput] = {}
    for row in rows:
        if not row.runnable:
            on_event(f"{row.id}: unmeasured ({row.reason})")
            results[row.id] = row.input(None, None, row.reason)
    ran, interrupted = _run_all(runnable, settings, on_event)
    results.update(ran)
    return MatrixRun(tuple(results[r.id] for r in rows), interrupted)


def _run_all(
    runnable: Sequence[PlannedRow],
    settings: MatrixSettings,
    on_event: Callable[[str], None],
) -> tuple[dict[str, RowInput], bool]:
    """Every runnable row, at most `max_rows` at once: each row's input, and whether Ctrl-C or
    SIGTERM stopped them (the rows not yet started never start; the running ones are stopped
    and write what they measured)."""
    stop = threading.Event()
    gate = threading.Lock()

    def one(row: PlannedRow) -> RowInput:
        with gate:
            if stop.is_set():
                return row.input(None, None, "interrupted before the row started")
        return _run_row(row, settings, on_event)

    workers = max(1, min(len(runnable), settings.max_rows or len(runnable)))
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="row")
    futures: dict[Future[RowInput], PlannedRow] = {pool.submit(one, r): r for r in runnable}
    interrupted = False
    try:
        pending = set(futures)
        while pending:
            # A timeout keeps the main thread responsive to Ctrl-C between completions.
            _, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
    except KeyboardInterrupt:
        interrupted = True
        on_event("interrupted: stopping every row (each writes what it measured)")
        with gate:
            stop.set()
        _stop_rows()
    finally:
        pool.shutdown(wait=True)
    return {row.id: _finished(future, row) for future, row in futures.items()}, interrupted


def _run_row(
    row: PlannedRow, settings: MatrixSettings, on_event: Callable[[str], None]
) -> RowInput:
    """One row's own `tier-check`, run to its end; the row's input from the folder it wrote, or
    why there is none (its exit code, its last error line, its log)."""
    on_event(f"{row.id}: started")
    log = settings.out_dir / "logs" / f"{row.job}.log"
    outcome = process.run(
        row_argv(row, settings), cwd=Path.cwd(), env=settings.environ, log_path=log
    )
    said = _error_line(log)
    got = read_row(
        row,
        settings.out_dir / row_folder(row.job),
        row_folder(row.job),
        f"tier-check exited with code {outcome.returncode}"
        + (f": {said}" if said else "")
        + f" (log: logs/{log.name})",
    )
    on_event(f"{row.id}: {_summary(got)}")
    return got


def _finished(future: Future[RowInput], row: PlannedRow) -> RowInput:
    """What a row's run gave, or an unmeasured row when it never finished."""
    if future.done() and not future.cancelled() and future.exception() is None:
        return future.result()
    return row.input(None, None, "interrupted before the row finished")


def _stop_rows() -> None:
    """SIGTERM every running row at once; each gets the grace to write its scorecard."""
    children = process.live_children()
    stoppers = [
        threading.Thread(target=child.stop, kwargs={"term_grace_s": ROW_STOP_GRACE_S})
        for child in children
    ]
    for thread in stoppers:
        thread.start()
    for thread in stoppers:
        thread.join()


#: How a `tier-check` run states why it stopped: one line on stderr (the CLI's only error path).
_ERROR_PREFIX = "tier-check: error: "
#: The end of a row's log that is searched for it.
_LOG_TAIL_BYTES = 16_384


def _error_line(log: Path) -> str | None:
    """The last error line a row's `tier-check` wrote to its log, without the prefix."""
    try:
        with log.open("rb") as handle:
            handle.seek(max(0, log.stat().st_size - _LOG_TAIL_BYTES))
            tail = handle.read().decode("utf-8", errors="replace")
    except OSError:
        return None
    said = [line for line in tail.splitlines() if line.startswith(_ERROR_PREFIX)]
    if not said:
        return None
    return said[-1].removeprefix(_ERROR_PREFIX).strip() or None


def _summary(row: RowInput) -> str:
    card = row.scorecard
    if card is None:
        return f"unmeasured ({row.reason})"
    return f"Tier {card.implied_tier.tier}, exit {card.exit_code}"
