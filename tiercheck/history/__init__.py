"""The embedded run history (SQLite): append runs, query streaks, relegation, flaky scenarios and
reusable verdicts; `report` is `tier-check history`'s report as a typed document and `render`
draws it (terminal, Markdown, the trend SVG) over the render kit. It is never the reason a run
fails: every error of the store is a `HistoryError` the command layer turns into a one-line
warning."""
