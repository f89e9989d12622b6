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
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.cli.common import cache_dir, emit
from tiercheck.errors import UsageError
from tiercheck.report.formats import HISTORY_FORMATS

# The history modules and the scorecard model load on first use: this module is imported while
# `tier-check --help` is built, and --help must stay fast.
if TYPE_CHECKING:
    from tiercheck.history.store import HistoryStore
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
    from tiercheck.history.record import parse_time

    try:
        return parse_time(text if "T" in text else f"{text}T23:59:59Z")
    except ValueError:
        msg = f"{flag} {text!r}: expected a date (2026-10-01) or a time (2026-10-01T07:00:00Z)"
        raise UsageError(msg) from None


def _since(text: str | None, as_of: datetime) -> datetime | None:
    if text is None:
        return None
    matched = _SINCE.match(text.strip())
    if matched:
        return as_of - timedelta(**{_UNITS[matched.group(2)]: int(matched.group(1))})
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


def _scorecards(folders: Sequence[str]) -> list[Path]:
    found: list[Path] = []
    for folder in folders:
        root = Path(folder)
        if not root.is_dir():
            msg = f"history import: {folder} is not a directory"
            raise UsageError(msg)
        found += sorted(root.rglob("scorecard.json"))
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
    emit(
        f"exported {len(result.written)} run(s) to {folder} "
        f"({result.unchanged} already there, never rewritten)"
    )
    return 0


def _import_data(store: HistoryStore, folder: Path) -> tuple[int, int]:
    """(added, already there) of a data folder's runs."""
    from tiercheck.history.datadir import read_runs

    runs = read_runs(folder)
    added = store.append_many(runs)
    return added, len(runs) - added


def _import(store: HistoryStore, folders: Sequence[str]) -> int:
    from tiercheck.history.datadir import is_data_folder
    from tiercheck.history.files import leg_results_of
    from tiercheck.history.record import record_of
    from tiercheck.history.store import HistoryError
    from tiercheck.report.writer import load_scorecard

    if not folders:
        msg = "history import: give at least one folder of saved scorecards or a data folder"
        raise UsageError(msg)
    data = [Path(f) for f in folders if is_data_folder(Path(f))]
    paths = _scorecards([f for f in folders if Path(f) not in data])
    added = known = found = 0
    try:
        for folder in data:
            new, old = _import_data(store, folder)
            added, known, found = added + new, known + old, found + new + old
        found += len(paths)
        for path in paths:
            doc = _rebase(load_scorecard(path), path.parent)
            # The requirements digest is the scorecard's own (absent from older ones, which
            # are then history only, never a source for --reuse).
            if store.append(record_of(doc), leg_results=leg_results_of(doc)):
                added += 1
            else:
                known += 1
    except HistoryError as exc:
        raise UsageError(str(exc)) from None
    emit(f"imported {added} run(s) into {store.path} ({known} already there, {found} found)")
    return 0
