"""Every output format, declared once: its name, renderer, file in `--out`, and `--output` offer.

Three families. The scorecard's formats are offered by `tier-check --output` and written to the
report folder; the diff's and the governance table's go to stdout only. The command line takes its
`--output` choices from here, and the stdout emitter and `writer` their renderers and file names,
so adding a format is one entry in one table.

A renderer imports its formatter when it runs, not when this module is imported: the command line
reads the names while building `tier-check --help`, which must stay fast.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from tiercheck.history.report import HistoryReport
    from tiercheck.matrix.model import Matrix
    from tiercheck.scorecard.diff import Diff
    from tiercheck.scorecard.model import Scorecard

__all__ = [
    "DIFF_FORMATS",
    "GOVERNANCE_FORMATS",
    "HISTORY_FORMATS",
    "MATRIX_FORMATS",
    "SCORECARD_FORMATS",
    "Format",
    "FormatRegistry",
    "json_text",
]

T = TypeVar("T")


@dataclass(frozen=True)
class Format(Generic[T]):
    """One output format of a document of type T."""

    name: str
    #: (document, colour) → the text, ending in a newline; only the terminal formats use colour.
    render: Callable[[T, bool], str]
    #: Its file in the report folder; None when it is never written to a file.
    file_name: str | None = None
    #: Whether `--output` offers it on stdout.
    stdout: bool = True


@dataclass(frozen=True)
class FormatRegistry(Generic[T]):
    """The formats of one kind of document, in the order they are written to files."""

    formats: tuple[Format[T], ...]
    #: What `--output` prints when it is not given.
    default: str

    def names(self) -> tuple[str, ...]:
        """Every format name, in writing order."""
        return tuple(f.name for f in self.formats)

    def get(self, name: str) -> Format[T]:
        """The format called `name`; ValueError naming the known ones otherwise."""
        for fmt in self.formats:
            if fmt.name == name:
                return fmt
        msg = f"unknown report format {name!r}; known: {', '.join(self.names())}"
        raise ValueError(msg)

    def choices(self) -> list[str]:
        """The `--output` choices: the default first, then the others offered on stdout."""
        return [self.default] + [
            f.name for f in self.formats if f.stdout and f.name != self.default
        ]

    def files(self) -> tuple[Format[T], ...]:
        """The formats that are written to a file, in writing order."""
        return tuple(f for f in self.formats if f.file_name is not None)

    def file_names(self) -> dict[str, str]:
        """Format name → file name, for the formats written to a file."""
        return {f.name: f.file_name for f in self.formats if f.file_name is not None}


def json_text(data: Any) -> str:
    """The JSON the commands print for everything but a scorecard: indent 2, keys as built.

    Key order is the builder's own (official fields first), so it is never sorted here.
    """
    return json.dumps(data, indent=2) + "\n"


# --- the scorecard ---------------------------------------------------------------------------


def _scorecard_json(doc: Scorecard, color: bool) -> str:
    from tiercheck.scorecard.render.json_format import render_json

    return render_json(doc)


def _scorecard_markdown(doc: Scorecard, color: bool) -> str:
    from tiercheck.scorecard.render.markdown import render_markdown

    return render_markdown(doc)


def _scorecard_junit(doc: Scorecard, color: bool) -> str:
    from tiercheck.scorecard.render.junit import render_junit

    return render_junit(doc)


def _scorecard_html(doc: Scorecard, color: bool) -> str:
    from tiercheck.scorecard.render.html import render_html

    return render_html(doc)


def _badge_svg(doc: Scorecard, color: bool) -> str:
    from tiercheck.scorecard.render.badge import render_badge_svg

    return render_badge_svg(doc)


def _badge_json(doc: Scorecard, color: bool) -> str:
    from tiercheck.scorecard.render.badge import render_badge_json

    return render_badge_json(doc)


def _scorecard_terminal(doc: Scorecard, color: bool) -> str:
    from tiercheck.scorecard.render.terminal import render_terminal

    return render_terminal(doc, color=color)


#: JSON is written first: it is the canonical record every other format is rendered from (see
#: `writer`). On the command line the default comes first.
SCORECARD_FORMATS: FormatRegistry[Scorecard] = FormatRegistry(
    (
        Format("json", _scorecard_json, "scorecard.json"),
        Format("markdown", _scorecard_markdown, "scorecard.md"),
        Format("junit", _scorecard_junit, "junit.xml"),
        Format("terminal", _scorecard_terminal, "scorecard.txt"),
        Format("html", _scorecard_html, "scorecard.html"),
        Format("badge", _badge_svg, "badge.svg", stdout=False),
        Format("badge-json", _badge_json, "badge.json", stdout=False),
    ),
    default="terminal",
)


# --- the diff of two scorecards ------------------------------------------------------------


def _diff_terminal(diff: Diff, color: bool) -> str:
    from tiercheck.scorecard.diff import render_diff_terminal

    return render_diff_terminal(diff, color=color)


def _diff_markdown(diff: Diff, color: bool) -> str:
    from tiercheck.scorecard.diff import render_diff_markdown

    return render_diff_markdown(diff)


def _diff_json(diff: Diff, color: bool) -> str:
    from tiercheck.scorecard.diff import diff_to_dict

    return json_text(diff_to_dict(diff))


DIFF_FORMATS: FormatRegistry[Diff] = FormatRegistry(
    (
        Format("terminal", _diff_terminal),
        Format("markdown", _diff_markdown),
        Format("json", _diff_json),
    ),
    default="terminal",
)


# --- the governance checks of a repository -------------------------------------------------


def _governance_terminal(document: Mapping[str, Any], color: bool) -> str:
    from tiercheck.governance.table import render_governance

    return render_governance(document)


def _governance_json(document: Mapping[str, Any], color: bool) -> str:
    return json_text(document)


GOVERNANCE_FORMATS: FormatRegistry[Mapping[str, Any]] = FormatRegistry(
    (
        Format("terminal", _governance_terminal),
        Format("json", _governance_json),
    ),
    default="terminal",
)


# --- one SDK line's history (`tier-check history`) ------------------------------------------


def _history_terminal(report: HistoryReport, color: bool) -> str:
    from tiercheck.history.render import render_terminal

    return render_terminal(report)


def _history_markdown(report: HistoryReport, color: bool) -> str:
    from tiercheck.history.render import render_markdown

    return render_markdown(report)


def _history_json(report: HistoryReport, color: bool) -> str:
    from tiercheck.history.render import trend_svg

    return json_text({**report.to_json(), "trend_svg": trend_svg(report)})


def _history_svg(report: HistoryReport, color: bool) -> str:
    from tiercheck.history.render import trend_svg

    return trend_svg(report)


HISTORY_FORMATS: FormatRegistry[HistoryReport] = FormatRegistry(
    (
        Format("terminal", _history_terminal),
        Format("json", _history_json),
        Format("markdown", _history_markdown),
        Format("svg", _history_svg),
    ),
    default="terminal",
)


# --- the cross-SDK matrix --------------------------------------------------------------------


def _matrix_json(matrix: Matrix, color: bool) -> str:
    from tiercheck.model import to_json

    return json_text(to_json(matrix))


def _matrix_markdown(matrix: Matrix, color: bool) -> str:
    from tiercheck.matrix.text import render_matrix_markdown

    return render_matrix_markdown(matrix)


def _matrix_junit(matrix: Matrix, color: bool) -> str:
    from tiercheck.matrix.text import render_matrix_junit

    return render_matrix_junit(matrix)


def _matrix_html(matrix: Matrix, color: bool) -> str:
    from tiercheck.matrix.html import render_matrix_html

    return render_matrix_html(matrix)


def _matrix_terminal(matrix: Matrix, color: bool) -> str:
    from tiercheck.matrix.text import render_matrix_terminal

    return render_matrix_terminal(matrix)


#: `matrix.json` first, the record the others are rendered from; `write_matrix_reports` and
#: `--output` take every entry here.
MATRIX_FORMATS: FormatRegistry[Matrix] = FormatRegistry(
    (
        Format("json", _matrix_json, "matrix.json"),
        Format("markdown", _matrix_markdown, "matrix.md"),
        Format("junit", _matrix_junit, "junit.xml"),
        Format("html", _matrix_html, "matrix.html"),
        Format("terminal", _matrix_terminal, "matrix.txt"),
    ),
    default="terminal",
)
