"""The run history at the command line: the assessment's history flags (`--history`,
`--no-history`, `--reuse`, declared with its options) as its `HistoryRequest`, and the commands
`tier-check history`, `history import DIR…` and `history export --out DIR`, each parsed into its
request for `pipeline.history_show`, `pipeline.history_import` or `pipeline.history_export`,
whose outcome is printed here.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.cli.common import cache_dir, emit, warn
from tiercheck.document_formats import HISTORY_FORMATS
from tiercheck.errors import UsageError
from tiercheck.pipeline.assess import options
from tiercheck.pipeline.assess.options import DEFAULT_HISTORY_FILE, Option

# The pipeline loads on first use: this module is imported while `tier-check --help` is built
# (the assessment's parser has its flags), and --help must stay fast.
if TYPE_CHECKING:
    from tiercheck.pipeline.assess.request import HistoryRequest

__all__ = [
    "history",
    "history_export",
    "history_export_parser",
    "history_import",
    "history_import_parser",
    "history_parser",
    "history_request",
]

#: `history`'s `--history`, in its words.
_HISTORY_HELP = f"default $TIERCHECK_CACHE/{DEFAULT_HISTORY_FILE}"

#: `history export --out DIR`: the data folder written (`history` has it only to say so).
EXPORT_OUT: Option[str | None] = Option(
    "--out", None, metavar="DIR", help="the data folder to write (e.g. a data branch)"
)


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


def _add_database(parser: argparse.ArgumentParser) -> None:
    options.HISTORY.add_to(parser, help=_HISTORY_HELP)
    options.CACHE_DIR.add_to(parser, help=None)


# --- tier-check history ------------------------------------------------------------------


def history_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check history --sdk NAME [--since 8w] [--output …]`."""
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
    # `history import` and `history export` are commands of their own (`cli.app.COMMANDS`);
    # the words are listed here so `history --help` names them, and refused with the way.
    parser.add_argument(
        "action",
        nargs="*",
        metavar="import DIR… | export",
        help="import DIR… or export instead",
    )
    EXPORT_OUT.add_to(parser, help="export: the data folder to write (e.g. a data branch)")
    parser.add_argument("--sdk", metavar="NAME", help="the SDK line to show")
    parser.add_argument("--since", metavar="AGE|DATE", help="e.g. 8w, 30d, 2026-10-01")
    parser.add_argument(
        "--as-of", metavar="DATE", help="judge the history as it stood then (default: now)"
    )
    parser.add_argument(
        "--output", choices=HISTORY_FORMATS.choices(), default=HISTORY_FORMATS.default
    )
    _add_database(parser)
    return parser


def history(args: argparse.Namespace) -> int:
    """`tier-check history`: show one SDK line's history."""
    database = _store_path(args)
    if args.action:
        raise UsageError(_misplaced(args.action[0]))
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


def _misplaced(verb: str) -> str:
    """Why a word after `history` and a flag is no command."""
    if verb in ("import", "export"):
        return (
            f"history: `{verb}` comes right after `history`, before any flag "
            f"(`tier-check history {verb} …`)"
        )
    return (
        f"history: unknown action {verb!r}; did you mean `history import DIR…` "
        "or `history export --out DIR`?"
    )


# --- tier-check history import / export --------------------------------------------------


def history_import_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check history import DIR… [--history PATH]`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Add saved scorecard folders (single runs or a matrix of them) or history data "
            "folders to the history: every folder is checked first, then all of their runs "
            "are added, or none."
        ),
    )
    parser.add_argument(
        "dirs",
        nargs="*",
        metavar="DIR",
        help="a saved scorecard folder, a matrix report folder or a history data folder",
    )
    _add_database(parser)
    return parser


def history_import(args: argparse.Namespace) -> int:
    """`tier-check history import DIR…`: add the folders' runs to the history."""
    from tiercheck.pipeline.history_import import HistoryImportRequest, import_history

    database = _store_path(args)
    folders = tuple(Path(folder) for folder in args.dirs)
    outcome = import_history(HistoryImportRequest(database, folders), warn=warn)
    emit(outcome.summary)
    return outcome.exit_code


def history_export_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check history export --out DIR [--history PATH]`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Write the history's runs into a data folder (e.g. a data branch): one JSON file "
            "per run, never rewritten, which `history import` reads back."
        ),
    )
    EXPORT_OUT.add_to(parser)
    # A folder given without --out is refused with the way (`history export DIR`).
    parser.add_argument("extra", nargs="*", help=argparse.SUPPRESS)
    _add_database(parser)
    return parser


def history_export(args: argparse.Namespace) -> int:
    """`tier-check history export --out DIR`: the history's runs as a data folder."""
    from tiercheck.pipeline.history_export import HistoryExportRequest, export_history

    database = _store_path(args)
    if args.extra:
        msg = f"history export: unexpected {args.extra[0]!r}; the folder is given with --out DIR"
        raise UsageError(msg)
    if not args.out:
        msg = "history export: give the data folder to write with --out DIR"
        raise UsageError(msg)
    request = HistoryExportRequest(database, Path(args.out).expanduser())
    outcome = export_history(request, warn=warn)
    emit(outcome.summary)
    return outcome.exit_code
