"""The run history at the command line: the flags of the assessment (`--history`,
`--no-history`, `--reuse`), its hook around each run, and `tier-check history [import]`.

Everything the history database does here is wrapped so that its failure is one warning line
on stderr and nothing else: history is never the reason a run fails.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.cli.common import cache_dir, emit, warn
from tiercheck.errors import UsageError
from tiercheck.report.formats import HISTORY_FORMATS

# The history modules and the scorecard model load on first use: this module is imported while
# `tier-check --help` is built, and --help must stay fast.
if TYPE_CHECKING:
    from tiercheck.history.record import RunRecord
    from tiercheck.history.store import HistoryStore, StoredLegResults
    from tiercheck.pipeline.request import HistoryRequest
    from tiercheck.scorecard.model import Scorecard

__all__ = [
    "add_history_flags",
    "history",
    "history_parser",
    "history_request",
]

#: The database file under the cache directory when `--history` is not given.
DEFAULT_FILE = "history.sqlite"
_SINCE = re.compile(r"^(\d+)([hdw])$")
_UNITS = {"h": "hours", "d": "days", "w": "weeks"}


def add_history_flags(parser: argparse.ArgumentParser) -> None:
    """`--history PATH`, `--no-history` and `--reuse` on the assessment's parser."""
    group = parser.add_argument_group("run history")
    group.add_argument(
        "--history",
        metavar="PATH",
        help=f"the run history database (default $TIERCHECK_CACHE/{DEFAULT_FILE})",
    )
    group.add_argument("--no-history", action="store_true", help="do not read or add to it")
    group.add_argument(
        "--reuse",
        action="store_true",
        help="take the verdicts of a stored run of the same commit, configuration, harness "
        "version and requirement sets instead of running again (governance stays fresh)",
    )


def _store_path(args: argparse.Namespace) -> Path:
    given = getattr(args, "history", None)
    return Path(given).expanduser() if given else cache_dir(args) / DEFAULT_FILE


def history_request(args: argparse.Namespace) -> HistoryRequest | None:
    """The history the assessment keeps (`--history`, `--reuse`), or None with `--no-history`."""
    from tiercheck.pipeline.request import HistoryRequest

    if args.no_history:
        if args.history or args.reuse:
            msg = "--no-history cannot be combined with --history or --reuse"
            raise UsageError(msg)
        return None
    return HistoryRequest(_store_path(args), reuse=bool(args.reuse))


# --- tier-check history ------------------------------------------------------------------


def history_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check history --sdk NAME [--since 8w] [--output …]` and `history import DIR…`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Show an SDK line's run history: the tier and the scored pass rate per revision and "
            "leg over time, the scenarios failing now and since when, SEP-1730 relegation per "
            "claimed revision, and flaky scenarios. `history import DIR…` adds saved scorecard "
            "folders (single runs or a matrix of them) or history data folders to the history; "
            "`history export --out DIR` writes the history's runs into a data folder (one JSON "
            "file per run, never rewritten)."
        ),
    )
    parser.add_argument(
        "action",
        nargs="*",
        metavar="import DIR… | export",
        help="import DIR… or export instead",
    )
    parser.add_argument(
        "--out", metavar="DIR", help="export: the data folder to write (e.g. a data branch)"
    )
    parser.add_argument("--sdk", metavar="NAME", help="the SDK line to show")
    parser.add_argument("--since", metavar="AGE|DATE", help="e.g. 8w, 30d, 2026-10-01")
    parser.add_argument(
        "--as-of", metavar="DATE", help="judge the history as it stood then (default: now)"
    )
    parser.add_argument(
        "--output", choices=HISTORY_FORMATS.choices(), default=HISTORY_FORMATS.default
    )
    parser.add_argument(
        "--history", metavar="PATH", help=f"default $TIERCHECK_CACHE/{DEFAULT_FILE}"
    )
    parser.add_argument("--cache-dir", metavar="DIR")
    return parser


def _moment(text: str, flag: str) -> datetime:
    from tiercheck.history.record import EARLIEST, LATEST, parse_time

    try:
        return parse_time(text if "T" in text else f"{text}T23:59:59Z")
    except ValueError:
        msg = (
            f"{flag} {text!r}: expected a date (2026-10-01) or a time (2026-10-01T07:00:00Z) "
            f"between {EARLIEST.date()} and {LATEST.date()}"
        )
        raise UsageError(msg) from None


def _since(text: str | None, as_of: datetime) -> datetime | None:
    if text is None:
        return None
    matched = _SINCE.match(text.strip())
    if matched:
        try:
            return as_of - timedelta(**{_UNITS[matched.group(2)]: int(matched.group(1))})
        except OverflowError:
            msg = f"--since {text!r}: reaches back beyond the calendar; give a shorter age"
            raise UsageError(msg) from None
    moment = _moment(text, "--since")
    return moment.replace(hour=0, minute=0, second=0) if "T" not in text else moment


def history(args: argparse.Namespace) -> int:
    """`tier-check history`: show one SDK line's history, or import scorecard folders."""
    from tiercheck.history.store import HistoryError, HistoryStore
    from tiercheck.pipeline import now_utc

    store = HistoryStore(_store_path(args))
    if args.action:
        if args.action[0] == "import":
            return _import(store, args.action[1:])
        if args.action[0] == "export":
            return _export(store, args.action[1:], args.out)
        msg = (
            f"history: unknown action {args.action[0]!r}; did you mean `history import DIR…` "
            "or `history export --out DIR`?"
        )
        raise UsageError(msg)
    if args.out:
        msg = "history: --out belongs to `history export --out DIR`"
        raise UsageError(msg)
    as_of = _moment(args.as_of, "--as-of") if args.as_of else now_utc()
    since = _since(args.since, as_of)
    try:
        if not args.sdk:
            known = ", ".join(store.sdks()) or "none yet"
            msg = f"history: --sdk NAME is required (lines in {store.path}: {known})"
            raise UsageError(msg)
        runs = store.runs(args.sdk)
    except HistoryError as exc:
        # Here the history is the whole point of the command: a usage-level failure.
        raise UsageError(str(exc)) from None
    from tiercheck.history.view import history_report

    report = history_report(runs, sdk=args.sdk, database=str(store.path), as_of=as_of, since=since)
    emit(HISTORY_FORMATS.get(args.output).render(report, False))
    return 0


def _scorecards(root: Path, warnings: list[str]) -> list[Path]:
    """Every `scorecard.json` below `root` that is a file inside it (a link leading out of it
    is not followed, and is named in `warnings`)."""
    from tiercheck.history.confine import inside

    found: list[Path] = []
    for path in sorted(root.rglob("scorecard.json")):
        if not inside(path, root):
            warnings.append(f"{path}: a symbolic link out of {root}; not followed")
        elif path.is_file():
            found.append(path)
    return found


def _rebase(doc: Scorecard, folder: Path) -> Scorecard:
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


def _export(store: HistoryStore, extra: Sequence[str], out: str | None) -> int:
    from tiercheck.history.datadir import export_runs
    from tiercheck.history.store import HistoryError

    if extra:
        msg = f"history export: unexpected {extra[0]!r}; the folder is given with --out DIR"
        raise UsageError(msg)
    if not out:
        msg = "history export: give the data folder to write with --out DIR"
        raise UsageError(msg)
    folder = Path(out).expanduser()
    if folder.exists() and not folder.is_dir():
        msg = f"history export: {folder} is not a directory"
        raise UsageError(msg)
    try:
        result = export_runs(store.runs(), folder)
    except HistoryError as exc:
        raise UsageError(str(exc)) from None
    for line in result.warnings:
        warn(line)
    moved = f"; {len(result.moved)} moved to their run's own name" if result.moved else ""
    emit(
        f"exported {len(result.written)} run(s) to {folder} "
        f"({result.unchanged} already there, never rewritten{moved})"
    )
    return 0


@dataclass
class _Batch:
    """What an import adds, gathered and checked before anything is written."""

    runs: list[RunRecord] = field(default_factory=list)
    leg_results: dict[str, dict[tuple[str, str], StoredLegResults]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _add_data_folder(batch: _Batch, folder: Path) -> None:
    from tiercheck.history.datadir import read_runs

    got = read_runs(folder)
    batch.runs += got.runs
    batch.warnings += got.warnings


def _add_scorecards(batch: _Batch, folder: Path) -> None:
    """The runs of every scorecard below `folder`, each read from inside `folder` only."""
    from tiercheck.history.files import leg_results_of, results_outside
    from tiercheck.history.record import record_of, record_problem, run_key
    from tiercheck.report.writer import load_scorecard

    for path in _scorecards(folder, batch.warnings):
        doc = _rebase(load_scorecard(path), path.parent)
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


def _import(store: HistoryStore, folders: Sequence[str]) -> int:
    """Every folder is read and checked first, then all of them are added in one transaction:
    one bad folder adds nothing at all."""
    from tiercheck.history.datadir import is_data_folder
    from tiercheck.history.store import HistoryError

    if not folders:
        msg = "history import: give at least one folder of saved scorecards or a data folder"
        raise UsageError(msg)
    roots = [Path(f) for f in folders]
    for root in roots:
        if not root.is_dir():
            msg = f"history import: {root} is not a directory"
            raise UsageError(msg)
    batch = _Batch()
    try:
        # The data folders first: a run in both is the data folder's, with the raw results
        # of the scorecard that measured it.
        for root in roots:
            if is_data_folder(root):
                _add_data_folder(batch, root)
        for root in roots:
            if not is_data_folder(root):
                _add_scorecards(batch, root)
        for line in batch.warnings:
            warn(line)
        added = store.append_many(batch.runs, leg_results=batch.leg_results)
    except HistoryError as exc:
        raise UsageError(str(exc)) from None
    known = len(batch.runs) - added
    emit(
        f"imported {added} run(s) into {store.path} ({known} already there, "
        f"{len(batch.runs)} found)"
    )
    return 0
