"""`tier-check history import DIR…`: saved scorecard folders and history data folders into the
history database, all of them or nothing.

Every folder is read and checked first, then all of their runs are added in one transaction:
one bad folder adds nothing at all. A data folder's runs come first, so a run found in both is
the data folder's, with the raw results of the scorecard that measured it. A scorecard is read
from inside its folder only: a link out of it, or a leg's results folder outside it, is a
warning and is not followed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tiercheck.document_files import load_scorecard
from tiercheck.errors import UsageError
from tiercheck.history.confine import inside
from tiercheck.history.datadir import is_data_folder, read_runs
from tiercheck.history.files import leg_results_of, results_outside
from tiercheck.history.record import RunRecord, record_of, record_problem, run_key
from tiercheck.history.store import HistoryError, HistoryStore, StoredLegResults
from tiercheck.scorecard.model import Scorecard

__all__ = ["HistoryImportRequest", "ImportOutcome", "import_history", "rebase"]


@dataclass(frozen=True)
class HistoryImportRequest:
    """`tier-check history import DIR…`: the database and the folders to add to it."""

    database: Path
    #: Folders of saved scorecards (single runs or a matrix of them) or history data folders.
    folders: tuple[Path, ...]


@dataclass(frozen=True)
class ImportOutcome:
    """What an import added, what the command prints and its exit code."""

    database: Path
    #: Runs new to the database.
    added: int
    #: Runs found in the folders (those already stored among them).
    found: int
    summary: str
    exit_code: int = 0


@dataclass
class _Batch:
    """What an import adds, gathered and checked before anything is written."""

    runs: list[RunRecord] = field(default_factory=list)
    leg_results: dict[str, dict[tuple[str, str], StoredLegResults]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _scorecards(root: Path, warnings: list[str]) -> list[Path]:
    """Every `scorecard.json` below `root` that is a file inside it (a link leading out of it
    is not followed, and is named in `warnings`)."""
    found: list[Path] = []
    for path in sorted(root.rglob("scorecard.json")):
        if not inside(path, root):
            warnings.append(f"{path}: a symbolic link out of {root}; not followed")
        elif path.is_file():
            found.append(path)
    return found


def rebase(doc: Scorecard, folder: Path) -> Scorecard:
    """Point the legs' results folders of a saved scorecard at where the folder is now (CI
    artifacts are downloaded somewhere else than they were written)."""
    old = doc.artifacts.out_dir
    if not old:
        return doc

    def moved(path: str | None) -> str | None:
        if not path or not path.startswith(old.rstrip("/") + "/"):
            return path
        return str(folder / Path(path).relative_to(old))

    revisions = {
        rev: dataclasses.replace(
            entry,
            server=dataclasses.replace(entry.server, results_dir=moved(entry.server.results_dir)),
            client=dataclasses.replace(entry.client, results_dir=moved(entry.client.results_dir)),
        )
        for rev, entry in doc.revisions.items()
    }
    return dataclasses.replace(doc, revisions=revisions)


def _add_data_folder(batch: _Batch, folder: Path) -> None:
    got = read_runs(folder)
    batch.runs += got.runs
    batch.warnings += got.warnings


def _add_scorecards(batch: _Batch, folder: Path) -> None:
    """The runs of every scorecard below `folder`, each read from inside `folder` only."""
    for path in _scorecards(folder, batch.warnings):
        doc = rebase(load_scorecard(path), path.parent)
        try:
            record = record_of(doc)
        except ValueError as exc:
            msg = f"{path}: {exc}"
            raise UsageError(msg) from None
        problem = record_problem(record)
        if problem is not None:
            raise UsageError(f"{path}: {problem}")
        for revision, leg, where in results_outside(doc, folder):
            batch.warnings.append(
                f"{path}: the {revision} {leg} results folder {where!a} is outside {folder}; "
                "not read (the run is imported without its raw results)"
            )
        batch.runs.append(record)
        # The requirements digest is the scorecard's own (absent from older ones, which are
        # then history only, never a source for --reuse).
        batch.leg_results[run_key(record)] = leg_results_of(doc, within=folder)


def import_history(request: HistoryImportRequest, *, warn: Callable[[str], None]) -> ImportOutcome:
    """Read and check every folder, warn of what was left out, then add every run at once.

    UsageError (nothing added) when no folder is given, a folder is not a directory, a
    scorecard cannot be a run of the history, or the database refuses.
    """
    if not request.folders:
        msg = "history import: give at least one folder of saved scorecards or a data folder"
        raise UsageError(msg)
    for root in request.folders:
        if not root.is_dir():
            msg = f"history import: {root} is not a directory"
            raise UsageError(msg)
    store = HistoryStore(request.database)
    batch = _Batch()
    try:
        for root in request.folders:
            if is_data_folder(root):
                _add_data_folder(batch, root)
        for root in request.folders:
            if not is_data_folder(root):
                _add_scorecards(batch, root)
        for line in batch.warnings:
            warn(line)
        added = store.append_many(batch.runs, leg_results=batch.leg_results)
    except HistoryError as exc:
        raise UsageError(str(exc)) from None
    found = len(batch.runs)
    return ImportOutcome(
        database=store.path,
        added=added,
        found=found,
        summary=(
            f"imported {added} run(s) into {store.path} ({found - added} already there, "
            f"{found} found)"
        ),
    )
