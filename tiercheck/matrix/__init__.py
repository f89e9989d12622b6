"""The cross-SDK matrix document: its typed model (`model`), the one pure builder that makes it
from row scorecards (`build`) and its JSON Schema (`schema`).

Pure. The matrix is built only from the rows' typed scorecards, so a matrix run on one machine
and one merged from many runners' folders are the same document. Nothing is imported here, so
the command line can reach `matrix.model` without paying for the builder.
"""
