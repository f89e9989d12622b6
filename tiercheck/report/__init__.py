"""Reports: pure formatters over the scorecard document, plus atomic writing and progress.

Every formatter is a function of the scorecard document (the JSON form validated by
`schemas/scorecard.schema.json`), so a saved scorecard can be rendered again or compared with
another. `formats` is the one table of output formats. Only `writer` opens files; only
`progress` writes to a stream (stderr).
"""
