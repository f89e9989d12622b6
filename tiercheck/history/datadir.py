"""A history data folder on disk: export the history's runs into it, read them back.

The folder's layout is `datafile`'s; a run is known by what its file holds, never by the file's
name (`folderplan`). Export is incremental and never destructive:

* a run's file is written once, at the run's own name (its time and a digest of its line, id,
  time, commit and ref), and never again: a file already there under that name is that run,
  and is left alone (not even read: a year of nights is thousands of files);
* a run file found under another name (renamed by hand, or written under an older line slug)
  is that run too: it is moved, byte for byte, to the run's own name when that is free;
* a folder holding a run this history lacks is a newer state than ours (another workflow run
  exported after we imported): export refuses to write anything and says to import the folder
  first, so two nightly runs at once never lose each other's nights;
* a file that is not a run file (a README, a `.gitattributes`, someone else's JSON) is left
  alone, and a broken run file too, with a warning;
* nothing is written through a symbolic link: a link where export would write (the marker,
  `runs/`, a line's folder, a run's file) is refused, and readers never follow one;
* a folder written by a newer tiercheck is refused.

Every refusal is a `HistoryError` with one line, raised before anything is written.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from tiercheck import durable
from tiercheck.config.safeload import load_json
from tiercheck.errors import ConfigError
from tiercheck.history.confine import link_on_the_way
from tiercheck.history.datafile import (
    DATA_MARKER,
    FOLDER_FORMAT,
    FOLDER_VERSION,
    DataFolder,
    run_file_name,
    run_file_text,
)
from tiercheck.history.folderplan import pick_runs, plan_export
from tiercheck.history.folderscan import RUN_FILE_MAX_BYTES, scan_runs
from tiercheck.history.record import RunRecord
from tiercheck.history.store import HistoryError
from tiercheck.model import to_json

__all__ = [
    "RUN_FILE_MAX_BYTES",
    "ExportResult",
    "FolderRuns",
    "export_runs",
    "is_data_folder",
    "read_runs",
]


@dataclass(frozen=True)
class ExportResult:
    """What an export did: files written, files moved to their run's own name (from, to), runs
    already there, and a warning line for each file it left alone."""

    written: tuple[str, ...]
    moved: tuple[tuple[str, str], ...]
    unchanged: int
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class FolderRuns:
    """The runs of a data folder, oldest first, and a warning line for each file skipped or
    each choice made between two files of one run."""

    runs: tuple[RunRecord, ...]
    warnings: tuple[str, ...]


def is_data_folder(folder: Path) -> bool:
    """Whether `folder` is a history data folder (it has the marker file, or a link in its
    place, which reading then refuses)."""
    return os.path.lexists(folder / DATA_MARKER) and not (folder / DATA_MARKER).is_dir()


def _marker_text() -> str:
    marker = DataFolder(schema_version=FOLDER_VERSION, layout="runs/<line>/<stamp>-<key>.json")
    return json.dumps(to_json(marker), indent=2) + "\n"


def _check_marker(folder: Path) -> bool:
    """Whether the marker is there; HistoryError when it is a link, belongs to something else
    or to a newer tiercheck."""
    path = folder / DATA_MARKER
    if path.is_symlink():
        msg = f"{path}: a symbolic link; tiercheck reads and writes only the folder's own files"
        raise HistoryError(msg)
    if not path.exists():
        return False
    try:
        data = load_json(path, what="the data folder's marker")
    except ConfigError as exc:
        raise HistoryError(exc.message) from None
    if not isinstance(data, dict) or data.get("format") != FOLDER_FORMAT:
        msg = f"{path}: not a tiercheck history data folder (format {FOLDER_FORMAT!r} expected)"
        raise HistoryError(msg)
    version = data.get("schema_version")
    if not isinstance(version, int) or version > FOLDER_VERSION:
        shown = version if isinstance(version, int) and version < 10**6 else "far beyond any"
        msg = (
            f"{path}: a data folder of schema version {shown}, newer than this tiercheck's "
            f"({FOLDER_VERSION}); upgrade tiercheck"
        )
        raise HistoryError(msg)
    return True


def read_runs(folder: Path) -> FolderRuns:
    """Every run of a data folder, oldest first, one per run; a bad file is skipped with a
    warning. HistoryError (one line) when the folder is not a data folder, or is a newer one."""
    if not _check_marker(folder):
        msg = f"{folder}: not a history data folder (no {DATA_MARKER})"
        raise HistoryError(msg)
    picked = pick_runs(scan_runs(folder), str(folder))
    return FolderRuns(runs=picked.runs, warnings=picked.warnings)


def _refuse_links(folder: Path, names: Sequence[str]) -> None:
    """HistoryError when a symbolic link, or anything but a folder, is on the way to one of
    `names`, or anything at all is where a new file is to go."""
    for name in names:
        link = link_on_the_way(folder, name)
        if link is not None:
            msg = (
                f"history export: {link} is a symbolic link; tiercheck writes only inside the "
                "data folder: replace it with a folder (or remove it) and export again"
            )
            raise HistoryError(msg)
        for parent in reversed(PurePosixPath(name).parents[:-1]):
            if (folder / parent).exists() and not (folder / parent).is_dir():
                msg = f"history export: {folder / parent} is not a folder; move it away"
                raise HistoryError(msg)
        if os.path.lexists(folder / name):
            msg = f"history export: {folder / name} is in the way (not a file); move it away"
            raise HistoryError(msg)


def _move(folder: Path, src: str, dst: str) -> None:
    """Move a run file, byte for byte, to its run's own name; drop the folders it leaves empty."""
    durable.write_bytes(folder / dst, (folder / src).read_bytes())
    (folder / src).unlink()
    for parent in PurePosixPath(src).parents[:-2]:  # never `runs/` itself
        with contextlib.suppress(OSError):
            (folder / parent).rmdir()


def export_runs(runs: Sequence[RunRecord], folder: Path) -> ExportResult:
    """Write every run of `runs` that `folder` lacks; refuse (HistoryError, nothing written)
    when the folder holds a newer state or a newer layout, or a link is in the way."""
    had_marker = _check_marker(folder)
    wanted = {run_file_name(r): r for r in runs}
    root = str(folder)
    plan = plan_export(runs, scan_runs(folder, trusted=wanted), root)
    if plan.newer:
        msg = (
            f"history export: {folder} holds {len(plan.newer)} run(s) this history lacks "
            f"(a newer state, first {plan.newer[0]}): import the folder first "
            f"(`tier-check history import {folder}`), then export"
        )
        raise HistoryError(msg)
    targets = [*plan.write, *(dst for _, dst in plan.move)]
    _refuse_links(folder, [*([] if had_marker else [DATA_MARKER]), *targets])
    try:
        if not had_marker:
            durable.write_text(folder / DATA_MARKER, _marker_text())
        for name in plan.write:
            durable.write_text(folder / name, run_file_text(wanted[name]))
        for src, dst in plan.move:
            _move(folder, src, dst)
    except OSError as exc:
        raise HistoryError(f"history export: cannot write in {folder}: {exc}") from None
    return ExportResult(
        written=plan.write, moved=plan.move, unchanged=plan.present, warnings=plan.warnings
    )
