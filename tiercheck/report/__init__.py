"""Reports: pure formatters over the scorecard document, plus atomic writing and progress.

Every formatter is a function of the scorecard document (the JSON form validated by
`schemas/scorecard.schema.json`), so a saved scorecard can be rendered again or compared with
another. `formats` is the one table of output formats. Only `writer` opens files; only
`progress` writes to a stream (stderr).

The names below are loaded on first use, not on `import tiercheck.report`: the command line
imports `report.formats` while it builds `tier-check --help`, and must not pay for every
formatter to do so.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tiercheck.report.diff import (
        Diff,
        diff_scorecards,
        diff_to_dict,
        render_diff_markdown,
        render_diff_terminal,
    )
    from tiercheck.report.json_format import parse_scorecard, render_json, validate_scorecard
    from tiercheck.report.junit import render_junit
    from tiercheck.report.markdown import render_markdown
    from tiercheck.report.progress import LineProgress, LiveProgress, NullProgress, make_progress
    from tiercheck.report.terminal import render_terminal
    from tiercheck.report.writer import atomic_write_text, load_scorecard, write_reports

__all__ = [
    "Diff",
    "LineProgress",
    "LiveProgress",
    "NullProgress",
    "atomic_write_text",
    "diff_scorecards",
    "diff_to_dict",
    "load_scorecard",
    "make_progress",
    "parse_scorecard",
    "render_diff_markdown",
    "render_diff_terminal",
    "render_json",
    "render_junit",
    "render_markdown",
    "render_terminal",
    "validate_scorecard",
    "write_reports",
]

#: The submodule that defines each name above.
_HOME = {
    "Diff": "diff",
    "diff_scorecards": "diff",
    "diff_to_dict": "diff",
    "render_diff_markdown": "diff",
    "render_diff_terminal": "diff",
    "parse_scorecard": "json_format",
    "render_json": "json_format",
    "validate_scorecard": "json_format",
    "render_junit": "junit",
    "render_markdown": "markdown",
    "LineProgress": "progress",
    "LiveProgress": "progress",
    "NullProgress": "progress",
    "make_progress": "progress",
    "render_terminal": "terminal",
    "atomic_write_text": "writer",
    "load_scorecard": "writer",
    "write_reports": "writer",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        # Also how `from tiercheck.report import writer` falls through to the submodule.
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
