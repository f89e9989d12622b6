"""Reports: the scorecard's own renderings, plus atomic writing, the table of formats and
progress.

The other documents (claim, matrix, dashboard, history report, notify texts) render themselves
in their own packages, over the same render kit (`tiercheck.render`).

Every formatter is a function of the scorecard document (the JSON form validated by
`schemas/scorecard.schema.json`), so a saved scorecard can be rendered again or compared with
another. The one table of output formats is `tiercheck.document_formats`. Only `writer` opens
files.
"""
