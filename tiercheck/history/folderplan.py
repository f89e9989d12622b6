"""What an import takes from a data folder, and what an export does to one (pure).

A run is known by what its file holds (`run_key`: its line, id, time, commit and ref), never by
the file's name. So a run file renamed, copied or moved below `runs/` is still its run; a file
that is not a run file is left alone; and two files holding one run are one run:

* with the same contents, silently (a reformatted copy is the same run);
* with different contents, one warning naming both files. The file at the run's own name
  (`datafile.run_file_name`, where export writes it) is taken; when neither is there, the first
  of them by name is. Either way the choice is the same on every machine and every night.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tiercheck.history.datafile import run_file_name
from tiercheck.history.folderscan import Entry
from tiercheck.history.record import RunRecord, run_key

__all__ = ["ExportPlan", "ImportPick", "pick_runs", "plan_export", "unreadable"]


@dataclass(frozen=True)
class ImportPick:
    """The runs an import takes from a data folder, and a warning line for each file it
    skipped or each choice it made."""

    runs: tuple[RunRecord, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class ExportPlan:
    """What an export writes: the runs' own names to write from the history, the run files to
    move to their run's own name (found at, to), how many runs are there already, and the files
    holding runs the history lacks (a newer state: nothing may be written)."""

    write: tuple[str, ...]
    move: tuple[tuple[str, str], ...]
    present: int
    newer: tuple[str, ...]
    warnings: tuple[str, ...]


def unreadable(entries: Sequence[Entry], root: str, what: str) -> list[str]:
    """A warning line for each link and bad file among `entries` (`root`: the folder's path as
    given), saying what became of it (`what`: "skipped", "left alone")."""
    out = []
    for e in entries:
        if e.kind == "link":
            out.append(f"{root}/{e.name}: a symbolic link, not followed; {what}")
        elif e.kind == "bad":
            out.append(f"{e.problem}; {what}")
    return out


def _describe(record: RunRecord) -> str:
    stamp = record.timestamp.strftime("%Y-%m-%dT%H:%M:%SZ")
    return f"{record.sdk!a} at {stamp}, run {record.run_id!a}"


def pick_runs(entries: Sequence[Entry], root: str) -> ImportPick:
    """The runs of a folder's entries (sorted by name), one per run."""
    groups: dict[str, list[tuple[Entry, RunRecord]]] = {}
    for e in entries:
        if e.kind == "run" and e.record is not None:
            groups.setdefault(run_key(e.record), []).append((e, e.record))
    runs: list[RunRecord] = []
    warnings = unreadable(entries, root, "skipped")
    for group in groups.values():
        own = run_file_name(group[0][1])
        chosen, record = next((pair for pair in group if pair[0].name == own), group[0])
        why = "the run's own name" if chosen.name == own else "the first by name"
        runs.append(record)
        for e, other in group:
            if e is not chosen and other != record:
                warnings.append(
                    f"{root}/{e.name} and {root}/{chosen.name} hold one run "
                    f"({_describe(record)}) with different contents; "
                    f"{chosen.name} is taken ({why})"
                )
    ordered = sorted(runs, key=lambda r: (r.timestamp, r.run_id, run_key(r)))
    return ImportPick(runs=tuple(ordered), warnings=tuple(warnings))


def plan_export(runs: Sequence[RunRecord], entries: Sequence[Entry], root: str) -> ExportPlan:
    """What exporting `runs` into a folder of `entries` does. `entries` were scanned with the
    runs' own names trusted: a file there is that run, and is never read nor rewritten."""
    own = {run_key(r): run_file_name(r) for r in runs}
    trusted = {e.name for e in entries if e.kind == "trusted"}
    elsewhere: dict[str, str] = {}  # a run's own name → the first file holding it elsewhere
    newer: list[str] = []
    for e in entries:
        if e.kind != "run" or e.record is None:
            continue
        name = own.get(run_key(e.record))
        if name is None:
            newer.append(e.name)
        elif name != e.name:
            elsewhere.setdefault(name, e.name)
    write = tuple(sorted(n for n in own.values() if n not in trusted and n not in elsewhere))
    move = tuple(sorted((src, dst) for dst, src in elsewhere.items() if dst not in trusted))
    return ExportPlan(
        write=write,
        move=move,
        present=len(own) - len(write),
        newer=tuple(newer),
        warnings=tuple(unreadable(entries, root, "left alone")),
    )
