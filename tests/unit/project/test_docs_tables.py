"""Every table in the repository's Markdown (README, CONTRIBUTING, CHANGELOG, docs/) keeps its
rows whole on GitHub: GFM ends a cell at every pipe not escaped with a backslash, even inside a
code span, so a regular expression like `(?:^|-)` in a table breaks its row unless written
`(?:^\\|-)`. Checked by GFM's own rule and by GitHub's renderer (cmark-gfm)."""

from __future__ import annotations

import re
from pathlib import Path

import cmarkgfm
import pytest

REPO = Path(__file__).resolve().parents[3]
DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def markdown_files() -> list[Path]:
    return [
        REPO / "README.md",
        REPO / "CONTRIBUTING.md",
        REPO / "CHANGELOG.md",
        *sorted((REPO / "docs").glob("*.md")),
    ]


def cells(line: str) -> int:
    """How many cells GFM splits a table row into (a leading and a trailing pipe are edges)."""
    body = line.strip()
    parts = re.split(r"(?<!\\)\|", body)
    if body.startswith("|"):
        parts = parts[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        parts = parts[:-1]
    return len(parts)


def broken_rows(text: str) -> list[str]:
    """Each table row whose cell count differs from its header's."""
    lines = text.splitlines()
    found: list[str] = []
    i = 0
    while i + 1 < len(lines):
        if "|" in lines[i] and DELIMITER.match(lines[i + 1]):
            width = cells(lines[i])
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                if cells(lines[i]) != width:
                    found.append(lines[i][:120])
                i += 1
        else:
            i += 1
    return found


def test_a_pipe_in_a_code_span_is_caught() -> None:
    table = "| a | b |\n|---|---|\n| `x|y` | z |\n| `x\\|y` | z |\n"
    assert broken_rows(table) == ["| `x|y` | z |"]


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_table_row_has_its_headers_cells(path: Path) -> None:
    assert broken_rows(path.read_text("utf-8")) == []


def test_the_release_pattern_renders_whole_on_github() -> None:
    html = cmarkgfm.github_flavored_markdown_to_html((REPO / "docs/governance.md").read_text())
    assert "<code>/(?:^|-)v?(\\d+(?:\\.\\d+)*(?:[-+].*)?)$/</code>" in html
