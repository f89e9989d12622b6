"""`tier-check history export --out DIR`: every run of the history into a data folder.

One JSON file per run, never rewritten: only the runs the folder lacks are written, and a
folder holding runs this history lacks is refused (`history.datadir.export_runs`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tiercheck.errors import UsageError
from tiercheck.history.datadir import export_runs
from tiercheck.history.store import HistoryError, HistoryStore

__all__ = ["ExportOutcome", "HistoryExportRequest", "export_history"]


@dataclass(frozen=True)
class HistoryExportRequest:
    """The database to read and the data folder to write."""

    database: Path
    folder: Path


@dataclass(frozen=True)
class ExportOutcome:
    """What the export wrote, what the command prints and its exit code."""

    written: int
    moved: int
    unchanged: int
    summary: str
    exit_code: int = 0


def export_history(request: HistoryExportRequest, *, warn: Callable[[str], None]) -> ExportOutcome:
    """Write the runs; each file left alone is a warning. UsageError when the folder is a
    file or the database or the folder refuses."""
    folder = request.folder
    if folder.exists() and not folder.is_dir():
        msg = f"history export: {folder} is not a directory"
        raise UsageError(msg)
    try:
        result = export_runs(HistoryStore(request.database).runs(), folder)
    except HistoryError as exc:
        raise UsageError(str(exc)) from None
    for line in result.warnings:
        warn(line)
    moved = f"; {len(result.moved)} moved to their run's own name" if result.moved else ""
    return ExportOutcome(
        written=len(result.written),
        moved=len(result.moved),
        unchanged=result.unchanged,
        summary=(
            f"exported {len(result.written)} run(s) to {folder} "
            f"({result.unchanged} already there, never rewritten{moved})"
        ),
    )
