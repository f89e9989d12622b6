"""A history data folder on disk: export the history's runs into it, read them back.

The folder's layout is `datafile`'s. Export is incremental and never destructive:

* a run's file is written once and never again: its name is the run's identity (its time and
  a digest of its line, id, time, commit and ref), so a file already there under that name is
  that run, and is left alone (not even read: a year of nights is thousands of files);
* a folder holding runs of a line that this history lacks is a newer state than ours (another
  workflow run exported after we imported): export refuses to write anything and says to
  import the folder first, so two nightly runs at once never lose each other's nights;
* a folder written by a newer tiercheck is refused.

Every refusal is a `HistoryError` with one line, raised before anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tiercheck import durable
from tiercheck.config.safeload import load_json
from tiercheck.errors import ConfigError
from tiercheck.history.datafile import (
    DATA_MARKER,
    FOLDER_FORMAT,
    SCHEMA_VERSION,
    DataFolder,
    line_slug,
    record_of_file,
    run_file_name,
    run_file_text,
)
from tiercheck.history.record import RunRecord, run_key
from tiercheck.history.store import HistoryError
from tiercheck.model import to_json

__all__ = ["RUN_FILE_MAX_BYTES", "ExportResult", "export_runs", "is_data_folder", "read_runs"]

#: The largest run file read: a run of every scenario of both revisions is tens of kilobytes.
RUN_FILE_MAX_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class ExportResult:
    """What an export did: files written, and runs already there."""

    written: tuple[str, ...]
    unchanged: int


def is_data_folder(folder: Path) -> bool:
    """Whether `folder` is a history data folder (it has the marker file)."""
    return (folder / DATA_MARKER).is_file()


def _marker_text() -> str:
    marker = DataFolder(schema_version=SCHEMA_VERSION, layout="runs/<line>/<stamp>-<key>.json")
    return json.dumps(to_json(marker), indent=2) + "\n"


def _check_marker(folder: Path) -> bool:
    """Whether the marker is there; HistoryError when it belongs to something else or a newer
    tiercheck."""
    path = folder / DATA_MARKER
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
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        msg = (
            f"{path}: a data folder of schema version {version}, newer than this tiercheck's "
            f"({SCHEMA_VERSION}); upgrade tiercheck"
        )
        raise HistoryError(msg)
    return True


def _read_run(path: Path, folder: Path) -> RunRecord:
    source = path.relative_to(folder).as_posix()
    try:
        # Every value is type-checked by the reader itself: no separate walk over the values.
        data = load_json(path, what="a run file", max_bytes=RUN_FILE_MAX_BYTES, shape=False)
        return record_of_file(data, f"{folder / source}")
    except ConfigError as exc:
        raise HistoryError(exc.message) from None
    except ValueError as exc:
        raise HistoryError(str(exc)) from None


def _run_files(folder: Path, lines: set[str] | None = None) -> list[Path]:
    root = folder / "runs"
    if not root.is_dir():
        return []
    return sorted(
        path
        for line in sorted(root.iterdir())
        if line.is_dir() and (lines is None or line.name in lines)
        for path in line.glob("*.json")
    )


def read_runs(folder: Path) -> list[RunRecord]:
    """Every run of a data folder, oldest first; HistoryError (one line) for a bad file."""
    if not _check_marker(folder):
        msg = f"{folder}: not a history data folder (no {DATA_MARKER})"
        raise HistoryError(msg)
    runs = [_read_run(path, folder) for path in _run_files(folder)]
    return sorted(runs, key=lambda r: (r.timestamp, r.run_id, run_key(r)))


def export_runs(runs: Sequence[RunRecord], folder: Path) -> ExportResult:
    """Write every run of `runs` that `folder` lacks; refuse (HistoryError, nothing written)
    when the folder holds a newer state or a newer layout."""
    had_marker = _check_marker(folder)
    wanted = {run_file_name(r): r for r in runs}
    lines = {line_slug(r.sdk) for r in runs}
    present = {p.relative_to(folder).as_posix(): p for p in _run_files(folder, lines)}
    unknown = sorted(set(present) - set(wanted))
    if unknown:
        msg = (
            f"history export: {folder} holds {len(unknown)} run(s) this history lacks "
            f"(a newer state, first {unknown[0]}): import the folder first "
            f"(`tier-check history import {folder}`), then export"
        )
        raise HistoryError(msg)
    to_write = sorted(set(wanted) - set(present))
    try:
        if not had_marker:
            durable.write_text(folder / DATA_MARKER, _marker_text())
        for name in to_write:
            durable.write_text(folder / name, run_file_text(wanted[name]))
    except OSError as exc:
        raise HistoryError(f"history export: cannot write in {folder}: {exc}") from None
    return ExportResult(written=tuple(to_write), unchanged=len(wanted) - len(to_write))
