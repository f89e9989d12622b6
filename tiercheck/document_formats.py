"""Every output format of every document, declared once: its name, its renderer, its file in
`--out`, and whether `--output` offers it.

One table per kind of document. The scorecard's formats are offered by `tier-check --output`
and written to the report folder, the matrix's by `tier-check matrix --output` and to the
matrix's folder; the diff's, the governance table's and the history report's go to stdout only.
The command line takes its `--output` choices from here, and the stdout emitter and
`document_files` their renderers and file names, so adding a format is one entry in one table.

A renderer is named as text, "module:function", the way the table of commands names a
command's functions (`cli.app.COMMANDS`), and imported when it first renders: the command line
reads these tables while it builds `tier-check --help`, which must stay fast. Each renderer
lives at home with its document (`scorecard.render`, `scorecard.diff`, `governance.table`,
`history.render`, `matrix.text`, `matrix.html`), on a floor below this module's; an import
contract cannot see a name in a string, so tests/unit/test_document_formats.py checks that.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tiercheck.plaintext import visible

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
    "REGISTRIES",
    "SCORECARD_FORMATS",
    "Format",
    "FormatRegistry",
    "json_text",
]

T = TypeVar("T")


def json_text(data: Any) -> str:
    """The JSON the commands print for everything but a scorecard: indent 2, keys as built.

    Key order is the builder's own (official fields first), so it is never sorted here.
    """
    return json.dumps(data, indent=2) + "\n"


@dataclass(frozen=True)
class Format(Generic[T]):
    """One output format of a document of type T."""

    name: str
    #: "module:function": the function from the document to its text, ending in a newline (or,
    #: with `data`, to its JSON data). Imported when the format first renders.
    renderer: str
    #: Its file in the report folder; None when it is never written to a file.
    file_name: str | None = None
    #: Whether `--output` offers it on stdout.
    stdout: bool = True
    #: The renderer takes `color=`: only the terminal formats colour.
    color: bool = False
    #: The renderer gives JSON data, printed as the commands print JSON (`json_text`).
    data: bool = False
    #: The text is read by a person as it is (a terminal's, which has no escaping of its own):
    #: every character that hides or reorders text (a bidirectional control, a zero-width
    #: character, a noncharacter) is shown as its code, `[U+202E]` (`plaintext.visible`), as the
    #: Markdown and HTML kits show it, so text from the SDK under test reads in its own order.
    shown: bool = False

    def load(self) -> Callable[..., Any]:
        """Import the renderer's module; the renderer."""
        module, _, function = self.renderer.partition(":")
        renderer: Callable[..., Any] = getattr(importlib.import_module(module), function)
        return renderer

    def render(self, document: T, color: bool) -> str:
        """The document in this format; `color` reaches only a renderer that takes it."""
        renderer = self.load()
        if self.data:
            return json_text(renderer(document))
        text: str = renderer(document, color=color) if self.color else renderer(document)
        return visible(text) if self.shown else text


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


_SCORECARD = "tiercheck.scorecard.render"

#: JSON is written first: it is the canonical record every other format is rendered from (see
#: `document_files`). On the command line the default comes first.
SCORECARD_FORMATS: FormatRegistry[Scorecard] = FormatRegistry(
    (
        Format("json", f"{_SCORECARD}.json_format:render_json", "scorecard.json"),
        Format("markdown", f"{_SCORECARD}.markdown:render_markdown", "scorecard.md"),
        Format("junit", f"{_SCORECARD}.junit:render_junit", "junit.xml"),
        Format(
            "terminal",
            f"{_SCORECARD}.terminal:render_terminal",
            "scorecard.txt",
            color=True,
            shown=True,
        ),
        Format("html", f"{_SCORECARD}.html:render_html", "scorecard.html"),
        Format("badge", f"{_SCORECARD}.badge:render_badge_svg", "badge.svg", stdout=False),
        Format("badge-json", f"{_SCORECARD}.badge:render_badge_json", "badge.json", stdout=False),
    ),
    default="terminal",
)

#: The diff of two scorecards (`tier-check diff`).
DIFF_FORMATS: FormatRegistry[Diff] = FormatRegistry(
    (
        Format("terminal", "tiercheck.scorecard.diff:render_diff_terminal", color=True, shown=True),
        Format("markdown", "tiercheck.scorecard.diff:render_diff_markdown"),
        Format("json", "tiercheck.scorecard.diff:diff_to_dict", data=True),
    ),
    default="terminal",
)

#: The governance checks of a repository (`tier-check governance`): the document is JSON data
#: already, printed as it is.
GOVERNANCE_FORMATS: FormatRegistry[Mapping[str, Any]] = FormatRegistry(
    (
        Format("terminal", "tiercheck.governance.table:render_governance", shown=True),
        Format("json", "builtins:dict", data=True),
    ),
    default="terminal",
)

#: One SDK line's history (`tier-check history`).
HISTORY_FORMATS: FormatRegistry[HistoryReport] = FormatRegistry(
    (
        Format("terminal", "tiercheck.history.render:render_terminal", shown=True),
        Format("json", "tiercheck.history.render:json_data", data=True),
        Format("markdown", "tiercheck.history.render:render_markdown"),
        Format("svg", "tiercheck.history.render:trend_svg"),
    ),
    default="terminal",
)

#: The cross-SDK matrix: `matrix.json` first, the record the others are rendered from;
#: `write_matrix_reports` and `--output` take every entry here.
MATRIX_FORMATS: FormatRegistry[Matrix] = FormatRegistry(
    (
        Format("json", "tiercheck.model:to_json", "matrix.json", data=True),
        Format("markdown", "tiercheck.matrix.text:render_matrix_markdown", "matrix.md"),
        Format("junit", "tiercheck.matrix.text:render_matrix_junit", "junit.xml"),
        Format("html", "tiercheck.matrix.html:render_matrix_html", "matrix.html"),
        Format(
            "terminal", "tiercheck.matrix.text:render_matrix_terminal", "matrix.txt", shown=True
        ),
    ),
    default="terminal",
)

#: Every table, by the document it formats.
REGISTRIES: Mapping[str, FormatRegistry[Any]] = {
    "scorecard": SCORECARD_FORMATS,
    "diff": DIFF_FORMATS,
    "governance": GOVERNANCE_FORMATS,
    "history": HISTORY_FORMATS,
    "matrix": MATRIX_FORMATS,
}
