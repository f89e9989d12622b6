"""The scorecard's renderings: the terminal text (`terminal`), Markdown (`markdown`), the page
(`html`), JUnit XML (`junit`), the canonical JSON, read back too (`json_format`), and the tier badge
(`badge`), with the advisory probes' block they all show (`probes`).

Every one is a pure function of the scorecard document (the JSON form validated by
`schemas/scorecard.schema.json`), so a saved scorecard can be rendered again or compared with
another; each reads its facts through `scorecard.readings` and builds its markup with the render
kit (`tiercheck.render`). `tiercheck.document_formats` names them, a format each; none opens a
file or prints.
"""
