"""The run history at the command line: the assessment's history flags (`--history`,
`--no-history`, `--reuse`, declared with its options) as its `HistoryRequest`, and `tier-check
history [import DIR… | export --out DIR]`, each parsed into its request for
`pipeline.history_show`, `pipeline.history_import` or `pipeline.history_export`, whose outcome is
printed here.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.cli.common import cache_dir, emit, warn
from tiercheck.document_formats import HISTORY_FORMATS
from tiercheck.errors import UsageError
from tiercheck.pipeline.assess import options
from tiercheck.pipeline.assess.options import DEFAULT_HISTORY_FILE

# The pipeline loads on first use: this module is imported while `tier-check --help` is built
# (the assessment's parser has its flags), and --help must stay fast.
if TYPE_CHECKING:
    from tiercheck.pipeline.assess.request import HistoryRequest

__all__ = [
    "history",
    "history_parser",
    "history_request",
]


def _store_path(args: argparse.Namespace) -> Path:
    given = options.HISTORY.held(args)
    return given.expanduser() if given else cache_dir(args) / DEFAULT_HISTORY_FILE


def history_request(args: argparse.Namespace) -> HistoryRequest | None:
    """The history the assessment keeps (`--history`, `--reuse`), or None with `--no-history`."""
    from tiercheck.pipeline.assess.request import HistoryRequest

    reuse = options.REUSE.held(args)
    if options.NO_HISTORY.held(args):
        if options.HISTORY.held(args) or reuse:
            msg = "--no-history cannot be combined with --history or --reuse"
            raise UsageError(msg)
        return None
    return HistoryRequest(_store_path(args), reuse=reuse)


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
    options.HISTORY.add_to(parser, help=f"default $TIERCHECK_CACHE/{DEFAULT_HISTORY_FILE}")
    options.CACHE_DIR.add_to(parser, help=None)
    return parser


def history(args: argparse.Namespace) -> int:
    """`tier-check history`: show one SDK line's history, or import or export its runs."""
    database = _store_path(args)
    if args.action:
        verb, *rest = args.action
        if verb == "import":
            return _import(database, rest)
        if verb == "export":
            return _export(database, rest, args.out)
        msg = (
            f"history: unknown action {verb!r}; did you mean `history import DIR…` "
            "or `history export --out DIR`?"
        )
        raise UsageError(msg)
    if args.out:
        msg = "history: --out belongs to `history export --out DIR`"
        raise UsageError(msg)
    from tiercheck.pipeline.history_show import HistoryShowRequest, show_history

    request = HistoryShowRequest(
        database, sdk=args.sdk, since=args.since, as_of=args.as_of, output=args.output
    )
    outcome = show_history(request)
    emit(outcome.text)
    return outcome.exit_code


def _import(database: Path, folders: Sequence[str]) -> int:
    from tiercheck.pipeline.history_import import HistoryImportRequest, import_history

    request = HistoryImportRequest(database, tuple(Path(folder) for folder in folders))
    outcome = import_history(request, warn=warn)
    emit(outcome.summary)
    return outcome.exit_code


def _export(database: Path, extra: Sequence[str], out: str | None) -> int:
    from tiercheck.pipeline.history_export import HistoryExportRequest, export_history

    if extra:
        msg = f"history export: unexpected {extra[0]!r}; the folder is given with --out DIR"
        raise UsageError(msg)
    if not out:
        msg = "history export: give the data folder to write with --out DIR"
        raise UsageError(msg)
    outcome = export_history(HistoryExportRequest(database, Path(out).expanduser()), warn=warn)
    emit(outcome.summary)
    return outcome.exit_code
