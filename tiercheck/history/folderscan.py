"""What the `runs/` tree of a history data folder holds, file by file (read only).

Every `.json` file below `runs/`, at any depth, is looked at; nothing else is. No symbolic
link is followed, to a file or to a folder: a link is reported as one, never read through, so
nothing outside the data folder is ever read. Each file is one `Entry`:

* `run`: a run file, read and checked (`datafile.record_of_file`);
* `trusted`: a file at a name the caller already knows (export passes the names it would
  write: a year of nights is thousands of files, and the file at a run's own name is that run);
* `foreign`: JSON that does not say it is a run file (someone else's file): left alone;
* `bad`: a file that cannot be read as JSON, or says it is a run file and is not a valid one;
* `link`: a symbolic link.

A run file of a newer schema version is not an entry but a `HistoryError`: a newer tiercheck
wrote the folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tiercheck.config.safeload import parse_json, read_text
from tiercheck.errors import ConfigError
from tiercheck.history.datafile import claims_a_run, newer_schema, record_of_file
from tiercheck.history.record import RunRecord, text_problem
from tiercheck.history.store import HistoryError

__all__ = ["RUNS", "RUN_FILE_MAX_BYTES", "Entry", "EntryKind", "scan_runs"]

#: The largest run file read: a run of every scenario of both revisions is tens of kilobytes.
RUN_FILE_MAX_BYTES = 8 * 1024 * 1024
#: The folder of run files inside a data folder.
RUNS = "runs"

EntryKind = Literal["run", "trusted", "foreign", "bad", "link"]
#: A `\ud800`-style escape: the only way a lone surrogate gets into decoded JSON.
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


@dataclass(frozen=True)
class Entry:
    """One file below `runs/`: its path relative to the data folder, what it is, and the run
    it holds (`run`) or why it cannot be read (`bad`, `link`)."""

    name: str
    kind: EntryKind
    record: RunRecord | None = None
    problem: str | None = None


def _read(path: Path, name: str) -> Entry:
    source = str(path)
    try:
        text = read_text(path, what="a run file", max_bytes=RUN_FILE_MAX_BYTES)
        # Every value is type-checked by the reader itself: no separate walk over the values,
        # and the text is searched for a lone surrogate only when it has a `\ud800` escape.
        data = parse_json(text, source, shape=False)
        if not claims_a_run(data):
            return Entry(name, "foreign")
        newer = newer_schema(data, source)
        if newer is not None:
            raise HistoryError(newer)
        record = record_of_file(data, source)
        problem = text_problem(record) if _ESCAPED_SURROGATE.search(text) else None
        if problem is not None:
            return Entry(name, "bad", problem=f"{source}: not a tiercheck run file: {problem}")
        return Entry(name, "run", record=record)
    except (ConfigError, ValueError) as exc:
        return Entry(name, "bad", problem=str(exc))


def scan_runs(folder: Path, trusted: Collection[str] = ()) -> list[Entry]:
    """Every entry below `folder/runs`, sorted by name; a file whose name is in `trusted` is
    not read. HistoryError for a run file of a newer schema version."""
    out: list[Entry] = []
    root = folder / RUNS
    if root.is_symlink():
        return [Entry(RUNS, "link")]
    pending = [RUNS]
    while pending:
        relative = pending.pop()
        try:
            with os.scandir(folder / relative) as listing:
                children = sorted(listing, key=lambda e: e.name)
        except OSError:
            continue  # not there (or not a folder): nothing below it
        for child in children:
            name = f"{relative}/{child.name}"
            # The kind from the listing itself (no call per file): a year is thousands.
            if child.is_symlink():
                out.append(Entry(name, "link"))
            elif child.is_dir(follow_symlinks=False):
                pending.append(name)
            elif not child.name.endswith(".json"):
                continue
            elif not child.is_file(follow_symlinks=False):
                out.append(Entry(name, "bad", problem=f"{folder / name}: not a regular file"))
            elif name in trusted:
                out.append(Entry(name, "trusted"))
            else:
                out.append(_read(folder / name, name))
    return sorted(out, key=lambda e: e.name)
