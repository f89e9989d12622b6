"""The embedded run history (SQLite): append runs, query streaks, relegation, flaky scenarios
and reusable verdicts. It is never the reason a run fails: every error of the store is a
`HistoryError` the command layer turns into a one-line warning."""
