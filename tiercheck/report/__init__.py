"""Reports: pure formatters over the scorecard document, plus atomic writing and progress.

Every formatter is a function of the scorecard document (the JSON form validated by
`schemas/scorecard.schema.json`), so a saved scorecard can be rendered again or compared with
another. Only `writer` opens files; only `progress` writes to a stream (stderr).
"""

from __future__ import annotations

from tiercheck.report.diff import (
    Diff,
    diff_scorecards,
    diff_to_dict,
    render_diff_markdown,
    render_diff_terminal,
)
from tiercheck.report.json_format import (
    load_scorecard,
    parse_scorecard,
    render_json,
    validate_scorecard,
)
from tiercheck.report.junit import render_junit
from tiercheck.report.markdown import render_markdown
from tiercheck.report.progress import LineProgress, LiveProgress, NullProgress, make_progress
from tiercheck.report.remediation import remediation
from tiercheck.report.terminal import render_terminal
from tiercheck.report.writer import FILE_NAMES, FORMATS, atomic_write_text, write_reports

__all__ = [
    "FILE_NAMES",
    "FORMATS",
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
    "remediation",
    "render_diff_markdown",
    "render_diff_terminal",
    "render_json",
    "render_junit",
    "render_markdown",
    "render_terminal",
    "validate_scorecard",
    "write_reports",
]
