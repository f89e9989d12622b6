"""The cross-SDK matrix document: its typed model (`model`) and the one pure builder that makes
it from row scorecards (`build`); its JSON Schema is generated from the model
(`tiercheck.document_schemas`); it renders itself over the render kit: `html` the page,
`text` its Markdown, JUnit and terminal forms.

Pure. The matrix is built only from the rows' typed scorecards, so a matrix run on one machine
and one merged from many runners' folders are the same document. Nothing is imported here, so
the command line can reach `matrix.model` without paying for the builder.
"""
