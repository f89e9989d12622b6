"""The end of every matrix command: the matrix built from its rows' inputs, every format written
to its folder (and its Markdown to GitHub's step summary), and the exit code `--fail-on` asks for.

Both ways of making a matrix end here, `local.run_matrix` and `distributed.merge_matrix`: the
folder is chosen and checked before any work (`matrix_folder`), `--previous` is read before any
work too (`load_previous`), and `finish` returns what the command line prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from tiercheck.document_files import load_matrix, write_matrix_reports
from tiercheck.document_formats import MATRIX_FORMATS
from tiercheck.matrix.build import RowInput, build_matrix
from tiercheck.matrix.model import Matrix
from tiercheck.model import format_time
from tiercheck.paths import writable_dir
from tiercheck.pipeline.assess.clock import now_utc, run_id
from tiercheck.pipeline.matrix.request import MatrixReports

__all__ = ["MatrixFolder", "MatrixResult", "finish", "load_previous", "matrix_folder"]

#: Where a matrix goes when `--out` is not given (relative to the working directory).
REPORTS = Path("reports") / "matrix"
#: The exit code of a matrix whose rows were stopped (Ctrl-C, SIGTERM) before they all finished.
INTERRUPTED_EXIT = 130


@dataclass(frozen=True)
class MatrixFolder:
    """The folder one matrix is written to, as named (not resolved), and the run's id."""

    path: Path
    run_id: str
    started: datetime


def matrix_folder(out: Path | None) -> MatrixFolder:
    """`out`, else `reports/matrix/<run-id>/`; UsageError (before any work) if it cannot be one.

    The clock is read here: the run starts when its folder is named. Nothing is created.
    """
    started = now_utc()
    rid = run_id(started)
    path = out if out is not None else REPORTS / rid
    writable_dir(path, "--out" if out is not None else "the reports folder")
    return MatrixFolder(path, rid, started)


def load_previous(reports: MatrixReports) -> Matrix | None:
    """The `--previous` matrix, read and checked (ConfigError, exit 2), or None."""
    return load_matrix(Path(reports.previous)) if reports.previous else None


@dataclass(frozen=True)
class MatrixResult:
    """A written matrix: what the command line prints, and its exit code."""

    matrix: Matrix
    out_dir: Path
    #: Format name → the file written in `out_dir`.
    files: Mapping[str, Path]
    #: Why the exit code is not 0, one line each (nothing when it is 0).
    reasons: tuple[str, ...]
    exit_code: int


def finish(
    inputs: Sequence[RowInput],
    folder: MatrixFolder,
    reports: MatrixReports,
    *,
    previous: Matrix | None,
    interrupted: bool = False,
    ran_here: bool = False,
) -> MatrixResult:
    """Build the matrix of `inputs`, write every format and the step summary; the exit code.

    `ran_here`: the rows ran in this process, so a matrix left interrupted exits 130 (before
    any `--fail-on` is weighed); a merged matrix only reports its jobs' interrupted rows.
    """
    doc = build_matrix(
        tuple(inputs),
        run_id=folder.run_id,
        started_at=format_time(folder.started),
        finished_at=format_time(now_utc()),
        interrupted=interrupted,
        previous=previous,
    )
    files = write_matrix_reports(doc, folder.path)
    if reports.step_summary is not None:
        with reports.step_summary.open("a", encoding="utf-8") as handle:
            handle.write(MATRIX_FORMATS.get("markdown").render(doc, False))
    if doc.interrupted and ran_here:
        reason = "interrupted; the partial matrix is written"
        return MatrixResult(doc, folder.path, files, (reason,), INTERRUPTED_EXIT)
    reasons = []
    if "regression" in reports.fail_on and doc.changes is not None and doc.changes.regressed:
        reasons.append(f"a row regressed against {reports.previous} (--fail-on regression)")
    below = [r.id for r in doc.rows if r.tier is not None and r.tier.below_claim]
    if "failure" in reports.fail_on and below:
        reasons.append(f"below the claimed tier: {', '.join(below)} (--fail-on failure)")
    return MatrixResult(doc, folder.path, files, tuple(reasons), 1 if reasons else 0)
