"""The scorecard: the typed document of one assessment (`model`), how it is built (`build`), the
next steps out of its blockers (`remediation`), the readings every formatter shares (`readings`),
the diff of two scorecards by the one comparison rule (`diff`, read through `compared`) and its
renderings (`render`); its JSON Schema is generated from the model (`tiercheck.document_schemas`).

Pure. The document is a superset of the official `tier-check --output json`: official fields
keep their names and meanings, ours sit beside them. Its renderings read only this document, so
a saved scorecard can be rendered again or compared with another one.

Nothing is imported here: the command line reaches `scorecard.model` while it builds
`tier-check --help`, and must not pay for the builder to do so.
"""
